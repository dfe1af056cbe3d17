import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Submission } from '../shared/interfaces';
import { formIdForTrigger } from '../shared/parameters';
import { readSubmissions, readSubmissionsUntil } from '../reading/readSubmissions';
import { FILES_KEY, fileSettingsOf, itemsWithFiles, type FileFailureMode } from '../downloadFiles';
import { firstWarning, recallPollState, rememberPollState } from '../shared/processMemory';
import { submissionItem } from '../shared/submissionItem';
import { getFormMetadata } from '../transport';
import { deadlineOf, pollBudgetMsOf, stopTimeOf } from './budget';
import { inProgressRefused, noSubmissionYet } from './pollErrors';
import { newestMatching, onlyMatching } from './pollFilter';
import {
	WATCHED_IN_PROGRESS,
	readPollState,
	startState,
	submissionMs,
	takeFinished,
	windowQueryStart,
	type PollState,
} from './pollState';
import { takePoll, type PollOutcome, type Start, type SubmissionStatus } from './pollStep';
import { readPollSettings, type PollSettings } from './settings';
import { ServiceClock } from './serviceClock';

/** Where the cursor lives in the node's static data. */
export const POLL_STATE_KEY = 'pollState';

/** Activations a person started (publish, update): only then does "Start From" apply. */
const FIRST_START_MODES = new Set(['activate', 'create', 'update', 'manual']);

/**
 * One poll: lists what is new since the cursor and emits it. The cursor is written only
 * once the whole poll has succeeded; a poll that throws leaves it, so the next one reads
 * everything again. A poll running out of n8n's budget emits the oldest part of what is
 * new, and the next poll goes on from there.
 */
export async function pollSubmissions(
	this: IPollFunctions,
): Promise<INodeExecutionData[][] | null> {
	const formId = formIdForTrigger(this);
	const settings = readPollSettings(this);
	if (this.getMode() === 'manual') return await latestSubmission(this, formId, settings);

	const nowMs = Date.now();
	const clock = new ServiceClock();
	const staticData = this.getWorkflowStaticData('node');
	const start = await startOf(this, formId, settings, nowMs, clock, staticData[POLL_STATE_KEY]);
	const inProgress =
		settings.inProgress === 'ignore' ? undefined : await readInProgress(this, formId);
	const query = { sort: 'asc' as const, afterDate: windowQueryStart(start.state) };
	// Out of budget, the listing may stop once what it read holds something to emit; a
	// start from now may stop at any point (what it did not list then counts as handled).
	const mayStop = (read: Submission[]) =>
		start.kind === 'quiet' ||
		takeFinished(start.state, read, settings.overlapMs, clock.presentMs(nowMs)).fresh.length > 0;
	const limits = { stopAtMs: stopTimeOf(this, nowMs), mayStop, onHeaders: clock.observe };
	const [read, formName] = await Promise.all([
		readSubmissionsUntil(this, formId, query, {}, limits),
		start.formName,
	]);
	if (formName !== undefined) start.state.formName = formName;
	const presentMs = clock.presentMs(nowMs);
	const cut = { complete: read.complete };
	let taken = takePoll(start, read.submissions, inProgress, settings, presentMs, cut);
	// The answer filter: the others are handled without being emitted.
	const shown = await onlyMatching(this, formId, taken, settings.answerFilter);
	// Files first: the cursor moves only once the items are complete.
	const items = await itemsOf(this, shown, settings, deadlineOf(this, shown, nowMs));
	if (items.length < shown.emitted.length) {
		// Out of budget for files: what was not fetched stays unseen, for the next poll.
		const emitAtMost = shown.positions[items.length];
		taken = takePoll(start, read.submissions, inProgress, settings, presentMs, {
			...cut,
			emitAtMost,
		});
	}
	warnOfFutureDates(this, taken.heldBack ?? [], presentMs);
	staticData[POLL_STATE_KEY] = taken.next as unknown as IDataObject;
	if (endedInBudget(this, nowMs)) rememberPollState(this, taken.next);
	return items.length === 0 ? null : [items];
}

/**
 * Whether the poll ended within n8n's budget (n8n cannot have abandoned it then). One
 * that did not is logged: n8n 2.41 may have abandoned it, and then the next poll repeats it.
 */
function endedInBudget(ctx: IPollFunctions, startedMs: number): boolean {
	const budgetMs = pollBudgetMsOf(ctx);
	const tookMs = Date.now() - startedMs;
	if (budgetMs === undefined || tookMs <= budgetMs) return true;
	ctx.logger.warn(
		`Fillout Polling Trigger "${ctx.getNode().name}": a poll took ${tookMs} ms, past n8n's poll budget of ${budgetMs} ms; n8n may have abandoned it (nothing emitted, the next poll reads the same again). A shorter Late Submission Window makes each poll read less.`,
		{ workflowId: ctx.getWorkflow().id },
	);
	return false;
}

/** Once per trigger and process: submissions dated later than Fillout's present. */
function warnOfFutureDates(ctx: IPollFunctions, heldBack: Submission[], presentMs: number) {
	// Ignore a second's difference: a clock may be that far off without harm.
	const future = heldBack.filter((s) => submissionMs(s, presentMs) > presentMs + 1000);
	if (future.length === 0 || !firstWarning(ctx, 'futureDated')) return;
	// Submission fields are the respondent's: quoted, and the time as parsed.
	const first = `${JSON.stringify(future[0].submissionId)} at ${new Date(submissionMs(future[0], presentMs)).toISOString()}`;
	ctx.logger.warn(
		`Fillout Polling Trigger "${ctx.getNode().name}": ${future.length} submission(s) are dated later than Fillout's present (the first: ${first}); each is emitted when its time comes. Imports with local times marked as UTC, or a wrong clock, do this.`,
		{ workflowId: ctx.getWorkflow().id, formId: formIdForTrigger(ctx) },
	);
}

async function startOf(
	ctx: IPollFunctions,
	formId: string,
	settings: PollSettings,
	nowMs: number,
	clock: ServiceClock,
	stored: unknown,
): Promise<Start & { formName?: Promise<string | null> }> {
	const resumed = readPollState(stored, formId);
	if (resumed) return { kind: 'resume', state: resumed };
	const recalled = readPollState(recallPollState(ctx), formId);
	if (recalled) {
		ctx.logger.warn(
			`Fillout Polling Trigger "${ctx.getNode().name}": the stored cursor is missing (not stored since the workflow was published, or overwritten by another node or process); going on from the copy in memory`,
			{ workflowId: ctx.getWorkflow().id, formId },
		);
		return { kind: 'resume', state: recalled };
	}
	// The first poll also checks the form exists, and keeps its name for the items.
	const form = getFormMetadata(ctx, formId, undefined, clock.observe).then((metadata) =>
		typeof metadata.name === 'string' ? metadata.name : null,
	);
	const firstStart = FIRST_START_MODES.has(ctx.getActivationMode());
	if (!firstStart) {
		const why =
			stored === undefined
				? 'no cursor was stored (it was lost, or never saved)'
				: 'its stored cursor was unreadable';
		ctx.logger.warn(
			`Fillout Polling Trigger "${ctx.getNode().name}": ${why}; starting again from now (nothing older is emitted)`,
			{ workflowId: ctx.getWorkflow().id, formId },
		);
	}
	if (firstStart && settings.startFrom !== 'now') {
		// A backfill needs nothing of the form to list: its request goes alongside the listing.
		const fromMs = settings.startFrom === 'date' ? (settings.startMs ?? 0) : 0;
		const state = startState(formId, null, { fromMs, windowStartMs: fromMs });
		// Awaited with the listing; handled now, so a failure before then is not unhandled.
		form.catch(() => undefined);
		return { kind: 'backfill', fromMs, state, formName: form };
	}
	const formName = await form;
	// From Fillout's present, not n8n's: n8n's clock ahead would skip the first submissions.
	const fromMs = clock.presentMs(nowMs);
	return {
		kind: 'quiet',
		state: startState(formId, formName, {
			fromMs,
			windowStartMs: fromMs - settings.overlapMs,
		}),
	};
}

/** The newest in-progress submissions (the list holds only those not finished yet). */
async function readInProgress(ctx: IPollFunctions, formId: string): Promise<Submission[]> {
	const newest = { sort: 'desc' as const, maxItems: WATCHED_IN_PROGRESS };
	try {
		return await readSubmissions(ctx, formId, newest, { status: 'in_progress' });
	} catch (error) {
		throw inProgressRefused(ctx, error) ?? error;
	}
}

/**
 * "Fetch Test Event": the newest submission at once, so the rest of the workflow can be
 * built without filling in the form. The cursor is not touched.
 */
async function latestSubmission(
	ctx: IPollFunctions,
	formId: string,
	settings: PollSettings,
): Promise<INodeExecutionData[][]> {
	const form = await getFormMetadata(ctx, formId);
	const state = startState(formId, typeof form.name === 'string' ? form.name : null, {
		fromMs: 0,
		windowStartMs: 0,
	});
	const narrow = await newestMatching(ctx, formId, settings.answerFilter);
	const newest = async (status: 'finished' | 'in_progress') =>
		(
			await readSubmissions(
				ctx,
				formId,
				{ sort: 'desc', maxItems: 1, keep: narrow.keep },
				{ status, ...narrow.query },
			).catch((error: unknown) => {
				throw (status === 'in_progress' && inProgressRefused(ctx, error)) || error;
			})
		)[0];
	const finished = await newest('finished');
	if (finished) return [await itemsOf(ctx, one(finished, 'finished', state), settings)];
	const started = settings.inProgress === 'ignore' ? undefined : await newest('in_progress');
	if (started) return [await itemsOf(ctx, one(started, 'in_progress', state), settings)];
	throw noSubmissionYet(ctx, form.name);
}

function one(submission: Submission, status: SubmissionStatus, state: PollState): PollOutcome {
	return { emitted: [submission], statuses: [status], next: state };
}

/**
 * The items for these submissions, marked with their status; with Download Files on, each
 * carries its files as binary data. A file that cannot be fetched is noted in its `files`
 * entry instead of failing the poll: failing it would keep the cursor, and a link that
 * stays broken would then stop every later submission.
 */
async function itemsOf(
	ctx: IPollFunctions,
	taken: PollOutcome,
	settings: PollSettings,
	deadline?: FileFailureMode['deadline'],
): Promise<INodeExecutionData[]> {
	const { emitted: submissions, statuses, next: state } = taken;
	const files = fileSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	const form = { formId: state.formId, formName: state.formName };
	const jsons = submissions.map((submission, i) =>
		submissionItem(
			submission,
			form,
			settings.simplify,
			{ status: statuses[i] },
			files ? [FILES_KEY] : [],
		),
	);
	if (!files || jsons.length === 0) return jsons.map((json) => ({ json }));
	return await itemsWithFiles(ctx, submissions, jsons, files, { onFailure: 'record', deadline });
}
