import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { Submission } from '../helpers/interfaces';
import { formIdForTrigger } from '../shared/parameters';
import { readSubmissions, readSubmissionsUntil } from '../shared/readSubmissions';
import {
	FILES_KEY,
	fileSettingsOf,
	itemsWithFiles,
	type FileFailureMode,
} from '../shared/submissionFiles';
import { getFormMetadata } from '../transport';
import { deliveryItem } from '../trigger/delivery';
import { deadlineOf, stopTimeOf } from './budget';
import { recallPollState, rememberPollState } from './memory';
import { inProgressRefused, noSubmissionYet } from './pollErrors';
import {
	readPollState,
	startState,
	submissionMs,
	takeFinished,
	takeInProgress,
	windowQueryStart,
	type PollState,
} from './pollState';
import { readPollSettings, type PollSettings } from './settings';

/** Where the cursor lives in the node's static data. */
export const POLL_STATE_KEY = 'pollState';

/** Activations a person started (publish, update): only then does "Start From" apply. */
const FIRST_START_MODES = new Set(['activate', 'create', 'update', 'manual']);

/**
 * How this poll begins. 'resume' goes on from a cursor; 'quiet' starts at the present and
 * only remembers what is already there; 'backfill' emits everything from `fromMs` on.
 */
interface Start {
	kind: 'resume' | 'quiet' | 'backfill';
	state: PollState;
	fromMs?: number;
}

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
	const staticData = this.getWorkflowStaticData('node');
	const start = await startOf(this, formId, settings, nowMs, staticData[POLL_STATE_KEY]);
	// A quiet start must see all it remembers without emitting, so it is never cut short.
	const stopAtMs = start.kind === 'quiet' ? undefined : stopTimeOf(this, nowMs);
	const query = { sort: 'asc' as const, afterDate: windowQueryStart(start.state) };
	// Out of budget, the listing may stop once what it read holds something to emit.
	const mayStop = (read: Submission[]) =>
		takeFinished(start.state, read, settings.overlapMs, nowMs).fresh.length > 0;
	const read = await readSubmissionsUntil(this, formId, query, {}, { stopAtMs, mayStop });
	let taken = await take(this, start, read.submissions, read.complete, settings, nowMs);
	// Files first: the cursor moves only once the items are complete.
	let items = await itemsOf(this, taken, settings, deadlineOf(this, taken, nowMs));
	if (items.length < taken.emitted.length) {
		// Out of budget for files: what was not fetched stays unseen, for the next poll.
		const left = new Set(taken.emitted.slice(items.length).map((s) => s.submissionId));
		const kept = read.submissions.filter((s) => !left.has(s.submissionId));
		taken = await take(this, start, kept, false, settings, nowMs);
		items = items.slice(0, taken.emitted.length);
	}
	staticData[POLL_STATE_KEY] = taken.next as unknown as IDataObject;
	rememberPollState(this, taken.next);
	return items.length === 0 ? null : [items];
}

export interface Taken {
	emitted: Submission[];
	statuses: SubmissionStatus[];
	next: PollState;
}

/**
 * What this poll emits and the cursor after it. In-progress submissions are read only
 * after a complete listing of the finished ones; otherwise their state is kept as it was.
 */
async function take(
	ctx: IPollFunctions,
	start: Start,
	listed: Submission[],
	complete: boolean,
	settings: PollSettings,
	nowMs: number,
): Promise<Taken> {
	const finished = takeFinished(start.state, listed, settings.overlapMs, nowMs);
	const next: PollState = { ...finished.state };
	delete next.inProgress;
	let inProgress: Submission[] = [];
	if (settings.inProgress !== 'ignore' && !complete) {
		if (start.state.inProgress) next.inProgress = start.state.inProgress;
	}
	if (settings.inProgress !== 'ignore' && complete) {
		const taken = takeInProgress(
			start.state.inProgress ?? {},
			await readInProgress(ctx, start.state.formId),
			settings.inProgress,
			nowMs,
		);
		next.inProgress = taken.handled;
		// Turning the option on later remembers what is in progress then, as a first start does.
		const emitsInProgress =
			start.kind === 'backfill' || (start.kind === 'resume' && start.state.inProgress);
		if (emitsInProgress) {
			inProgress = taken.fresh.filter((s) => submissionMs(s, nowMs) >= (start.fromMs ?? 0));
		}
	}
	const emitted = start.kind === 'quiet' ? [] : [...finished.fresh, ...inProgress];
	const statuses = emitted.map(
		(_, i): SubmissionStatus => (i < finished.fresh.length ? 'finished' : 'in_progress'),
	);
	return { emitted, statuses, next };
}

async function startOf(
	ctx: IPollFunctions,
	formId: string,
	settings: PollSettings,
	nowMs: number,
	stored: unknown,
): Promise<Start> {
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
	const form = await getFormMetadata(ctx, formId);
	const formName = typeof form.name === 'string' ? form.name : null;
	const firstStart = FIRST_START_MODES.has(ctx.getActivationMode());
	if (!firstStart && stored !== undefined) {
		ctx.logger.warn(
			`Fillout Polling Trigger "${ctx.getNode().name}": its stored cursor was unreadable; starting again from now (nothing older is emitted)`,
			{ workflowId: ctx.getWorkflow().id, formId },
		);
	} else if (!firstStart) {
		ctx.logger.warn(
			`Fillout Polling Trigger "${ctx.getNode().name}": no cursor was stored (it was lost, or never saved); starting again from now (nothing older is emitted)`,
			{ workflowId: ctx.getWorkflow().id, formId },
		);
	}
	if (firstStart && settings.startFrom !== 'now') {
		const fromMs = settings.startFrom === 'date' ? (settings.startMs ?? 0) : 0;
		return {
			kind: 'backfill',
			fromMs,
			state: startState(formId, formName, { fromMs, windowStartMs: fromMs }),
		};
	}
	return {
		kind: 'quiet',
		state: startState(formId, formName, {
			fromMs: nowMs,
			windowStartMs: nowMs - settings.overlapMs,
		}),
	};
}

/** Every in-progress submission (the list holds only those not finished yet). */
async function readInProgress(ctx: IPollFunctions, formId: string): Promise<Submission[]> {
	try {
		return await readSubmissions(ctx, formId, { sort: 'asc' }, { status: 'in_progress' });
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
	const newest = async (status: 'finished' | 'in_progress') =>
		(
			await readSubmissions(ctx, formId, { sort: 'desc', maxItems: 1 }, { status }).catch(
				(error: unknown) => {
					throw (status === 'in_progress' && inProgressRefused(ctx, error)) || error;
				},
			)
		)[0];
	const finished = await newest('finished');
	if (finished) return [await itemsOf(ctx, one(finished, 'finished', state), settings)];
	const started = settings.inProgress === 'ignore' ? undefined : await newest('in_progress');
	if (started) return [await itemsOf(ctx, one(started, 'in_progress', state), settings)];
	throw noSubmissionYet(ctx, form.name);
}

export type SubmissionStatus = 'finished' | 'in_progress';

function one(submission: Submission, status: SubmissionStatus, state: PollState): Taken {
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
	taken: Taken,
	settings: PollSettings,
	deadline?: FileFailureMode['deadline'],
): Promise<INodeExecutionData[]> {
	const { emitted: submissions, statuses, next: state } = taken;
	const files = fileSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	const form = { formId: state.formId, formName: state.formName };
	const jsons = submissions.map((submission, i) =>
		deliveryItem(
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
