/**
 * The Fillout Trigger's record of what ran the workflow, for catching up on missed
 * submissions: the polling trigger's cursor (pollState.ts) plus the ids the webhook
 * delivered. It is a set of facts ("everything before the window ran", "these ids ran"),
 * so two copies (process memory, static data, another process's) merge by union, in any
 * order. docs/catch-up.md says why and what it cannot catch.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	narrowWindow,
	POLL_STATE_VERSION,
	readPollState,
	type PollState,
} from '../pollingTrigger/pollState';

/** Where the record lives in the node's static data. */
export const CATCH_UP_KEY = 'catchUp';

/** Delivered ids remembered at most; dropping one can only repeat a submission, never lose one. */
export const MAX_DELIVERED = 5_000;

/** A delivered id is kept until the window has passed its receipt by this much (clock skew). */
export const DELIVERED_MARGIN_MS = 10 * 60_000;

export interface CatchUpRecord extends PollState {
	/** One per start (a publish): copies of different starts never merge, the newer wins. */
	runId: string;
	startedAt: number;
	/**
	 * Ids the webhook delivered: id → when n8n received it. The time is n8n's, never the
	 * body's: a delivery is hostile input and must not move the window.
	 */
	delivered: Record<string, number>;
}

function isTimes(value: unknown): value is Record<string, number> {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		Object.values(value).every((ms) => Number.isFinite(ms))
	);
}

/** The stored record, when it is one of ours for this form; undefined otherwise. */
export function readCatchUpRecord(value: unknown, formId: string): CatchUpRecord | undefined {
	const state = readPollState(value, formId);
	if (state === undefined) return undefined;
	const record = state as Partial<CatchUpRecord>;
	if (typeof record.runId !== 'string' || !Number.isFinite(record.startedAt)) return undefined;
	if (!isTimes(record.delivered)) return undefined;
	return state as CatchUpRecord;
}

/** A new record: everything before `startMs` counts as handled. */
export function startRecord(
	formId: string,
	formName: string | null,
	startMs: number,
	runId: string,
): CatchUpRecord {
	return {
		version: POLL_STATE_VERSION,
		formId,
		formName,
		windowStartMs: startMs,
		newestMs: startMs,
		seen: {},
		runId,
		startedAt: startMs,
		delivered: {},
	};
}

/** The newest `max` entries (by time) that are not older than `sinceMs`. */
export function keptDelivered(
	delivered: Record<string, number>,
	sinceMs: number,
	max = MAX_DELIVERED,
): Record<string, number> {
	const kept = Object.entries(delivered).filter(([, ms]) => ms >= sinceMs);
	if (kept.length <= max) return Object.fromEntries(kept);
	kept.sort((a, b) => b[1] - a[1]);
	return Object.fromEntries(kept.slice(0, max));
}

/**
 * Both copies' facts: the later window start, every id either saw. Copies of different
 * starts do not merge: the newer start wins (a publish begins again).
 */
export function mergeRecords(a: CatchUpRecord, b: CatchUpRecord): CatchUpRecord {
	if (a.runId !== b.runId) return a.startedAt >= b.startedAt ? a : b;
	const windowStartMs = Math.max(a.windowStartMs, b.windowStartMs);
	const window = narrowWindow({ ...b.seen, ...a.seen }, windowStartMs);
	const delivered: Record<string, number> = { ...b.delivered };
	for (const [id, ms] of Object.entries(a.delivered)) {
		delivered[id] = Math.max(ms, delivered[id] ?? ms);
	}
	return {
		...a,
		windowStartMs: window.startMs,
		newestMs: Math.max(a.newestMs, b.newestMs),
		seen: window.seen,
		delivered: keptDelivered(delivered, -Infinity),
	};
}

/** Whether the record holds the submission as run: listed by a check, or delivered. */
export function hasRun(record: CatchUpRecord, submissionId: string): boolean {
	return (
		Object.prototype.hasOwnProperty.call(record.seen, submissionId) ||
		Object.prototype.hasOwnProperty.call(record.delivered, submissionId)
	);
}

/** The record as static data holds it (a plain copy). */
export function storedForm(record: CatchUpRecord): IDataObject {
	return JSON.parse(JSON.stringify(record)) as IDataObject;
}
