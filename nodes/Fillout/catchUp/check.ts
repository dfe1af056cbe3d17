import type { IWebhookFunctions } from 'n8n-workflow';

import type { Submission } from '../shared/interfaces';
import { readSubmissionsUntil } from '../reading/readSubmissions';
import { submissionMs, windowQueryStart } from '../pollingTrigger/pollState';
import { takePoll } from '../pollingTrigger/pollStep';
import { ServiceClock } from '../pollingTrigger/serviceClock';
import { DELIVERED_MARGIN_MS, keptDelivered, type CatchUpRecord } from './catchUpRecord';
import { currentRecord, saveRecord } from './recordAccess';

/** The newest this long is the webhook's: a check runs only what is older. */
export const GRACE_MS = 30_000;

/** How long after its submission time a submission may still show up in Fillout's list. */
export const LATE_WINDOW_MS = 10 * 60_000;

/** How long a check lists before it runs what it has; the next check goes on from there. */
export const CHECK_READ_MS = 60_000;

/** The most one check runs in one execution; the rest comes with the next check. */
export const MAX_PER_CHECK = 5_000;

export interface CheckOutcome {
	/** Missed submissions, oldest first: the webhook did not deliver them. */
	missed: Submission[];
	/** Whether more may be waiting (the listing or the execution was cut). */
	more: boolean;
	formName: string | null;
	/** The window before the check moved it, to undo the check. */
	before: Pick<CatchUpRecord, 'windowStartMs' | 'newestMs'>;
}

const idOf = (submission: Submission | null | undefined): string | undefined =>
	typeof submission?.submissionId === 'string' ? submission.submissionId : undefined;

function delivered(record: CatchUpRecord, submission: Submission): boolean {
	const id = idOf(submission);
	return id !== undefined && Object.prototype.hasOwnProperty.call(record.delivered, id);
}

/**
 * Lists what is new since the record's window, as the polling trigger does, and takes
 * what neither a delivery nor an earlier check ran. The record is read again after the
 * listing and written in the same synchronous step as the decision, so a delivery handled
 * meanwhile in this process is never run twice. Undefined when catch-up has no record.
 */
export async function checkForMissed(
	ctx: IWebhookFunctions,
	formId: string,
): Promise<CheckOutcome | undefined> {
	const data = ctx.getWorkflowStaticData('node');
	const before = currentRecord(ctx, data, formId);
	if (before === undefined) return undefined;
	const nowMs = Date.now();
	const clock = new ServiceClock();
	// What ran already comes first in the listing: past it, MAX_PER_CHECK more are enough.
	const ran = Object.keys(before.seen).length + Object.keys(before.delivered).length;
	const maxItems = MAX_PER_CHECK + ran;
	const query = { sort: 'asc' as const, afterDate: windowQueryStart(before), maxItems };
	const limits = { stopAtMs: nowMs + CHECK_READ_MS, onHeaders: clock.observe };
	const read = await readSubmissionsUntil(ctx, formId, query, {}, limits);
	const complete = read.complete && read.submissions.length < maxItems;

	const record = currentRecord(ctx, data, formId);
	// A publish started a new record meanwhile: this listing belongs to the old one.
	if (record === undefined || record.runId !== before.runId) return undefined;
	const taken = takeMissed(record, read.submissions, clock.presentMs(nowMs), complete);
	saveRecord(ctx, data, taken.next);
	return {
		missed: taken.missed,
		more: taken.more,
		formName: record.formName,
		before: { windowStartMs: record.windowStartMs, newestMs: record.newestMs },
	};
}

/**
 * Delivered ids still needed: received since the window's start (and a margin for clock
 * skew), or still listed in the window (a submission dated in the future is listed, and
 * must not run again, until its time has passed). A listing cut short judges nothing.
 */
function deliveredToKeep(
	record: CatchUpRecord,
	listing: readonly Submission[],
	windowStartMs: number,
	complete: boolean,
): Record<string, number> {
	if (!complete) return keptDelivered(record.delivered, -Infinity);
	const listed = new Set(
		listing.filter((submission) => submissionMs(submission, Infinity) >= windowStartMs).map(idOf),
	);
	const sinceMs = windowStartMs - DELIVERED_MARGIN_MS;
	const kept = Object.entries(record.delivered).filter(
		([id, receivedMs]) => receivedMs >= sinceMs || listed.has(id),
	);
	return keptDelivered(Object.fromEntries(kept), -Infinity);
}

/**
 * What one check runs, from what it listed (no I/O, no clock): what neither a delivery nor
 * an earlier check ran, oldest first, leaving the newest `GRACE_MS` to the webhook; and
 * the record after running it. The model test runs this against a simulated Fillout.
 */
export function takeMissed(
	record: CatchUpRecord,
	listing: readonly Submission[],
	presentMs: number,
	complete: boolean,
): { missed: Submission[]; more: boolean; next: CatchUpRecord } {
	const listed = listing.filter((submission) => !delivered(record, submission));
	const settings = { overlapMs: LATE_WINDOW_MS, inProgress: 'ignore' as const };
	const cut = { complete, emitAtMost: MAX_PER_CHECK };
	const start = { kind: 'resume' as const, state: record };
	const taken = takePoll(start, listed, undefined, settings, presentMs - GRACE_MS, cut);
	const next: CatchUpRecord = { ...record, ...taken.next };
	next.delivered = deliveredToKeep(record, listing, next.windowStartMs, complete);
	return {
		missed: taken.emitted,
		more: !complete || taken.emitted.length >= MAX_PER_CHECK,
		next,
	};
}
