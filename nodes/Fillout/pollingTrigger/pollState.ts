/**
 * The polling trigger's cursor, as pure functions (no I/O, no clock). Invariant: every
 * finished submission dated before `windowStartMs` counts as handled, and within the window
 * exactly the ids in `seen`; a poll handles only what is dated at or before its present.
 * docs/polling-trigger.md, "The cursor", says why and what it cannot catch.
 */
import type { Submission } from '../shared/interfaces';

export const POLL_STATE_VERSION = 1;
/** Ids remembered in the window; a burst sharing one millisecond may go over. */
export const MAX_SEEN = 5_000;

export interface PollState {
	version: typeof POLL_STATE_VERSION;
	formId: string;
	/** The form's name when the trigger started, for the items' `formName`. */
	formName: string | null;
	windowStartMs: number;
	/** The newest submission time handled (or the instant the trigger started from). */
	newestMs: number;
	/** Finished submissions handled inside the window: id → time in ms. */
	seen: Record<string, number>;
	/** In-progress submissions handled: id → the `lastUpdatedAt` emitted (or '' when none). */
	inProgress?: Record<string, string>;
	/**
	 * In-progress submissions dated before this are no longer watched: newer ones pushed
	 * them out of the newest `WATCHED_IN_PROGRESS` (0 or missing: all listed are watched).
	 */
	inProgressSinceMs?: number;
}

function isRecordOf(value: unknown, type: 'number' | 'string'): boolean {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		Object.values(value).every((entry) => typeof entry === type)
	);
}

/** The stored state, when it is one of ours for this form; undefined otherwise. */
export function readPollState(value: unknown, formId: string): PollState | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const state = value as Partial<PollState>;
	if (state.version !== POLL_STATE_VERSION || state.formId !== formId) return undefined;
	if (!Number.isFinite(state.windowStartMs) || !Number.isFinite(state.newestMs)) return undefined;
	if (!isRecordOf(state.seen, 'number')) return undefined;
	if (state.inProgress !== undefined && !isRecordOf(state.inProgress, 'string')) return undefined;
	const since = state.inProgressSinceMs;
	if (since !== undefined && !Number.isFinite(since)) return undefined;
	return state as PollState;
}

/**
 * The poll's present on Fillout's clock (which stamps the submissions): n8n's within the
 * second the earliest `date` header names, else that second's start; n8n's without a header.
 */
export function servicePresentMs(dateHeaderMs: number | undefined, n8nNowMs: number): number {
	if (dateHeaderMs === undefined || !Number.isFinite(dateHeaderMs)) return n8nNowMs;
	const agrees = n8nNowMs >= dateHeaderMs && n8nNowMs < dateHeaderMs + 1000;
	return agrees ? n8nNowMs : dateHeaderMs;
}

/** A submission's time in ms; one that cannot be read counts as `fallbackMs` (the poll's). */
export function submissionMs(submission: Submission, fallbackMs: number): number {
	const ms =
		typeof submission.submissionTime === 'string' ? Date.parse(submission.submissionTime) : NaN;
	return Number.isNaN(ms) ? fallbackMs : ms;
}

/** Oldest first; equal times by id, so the order is the same in every poll. */
export function bySubmissionOrder(a: Keyed, b: Keyed): number {
	return a.ms - b.ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

interface Keyed {
	ms: number;
	id: string;
}

/**
 * The `afterDate` that lists the window: 1 ms before it, right for strict and inclusive
 * bounds. None for a window open from the beginning.
 */
export function windowQueryStart(state: PollState): string | undefined {
	return state.windowStartMs > 0 ? new Date(state.windowStartMs - 1).toISOString() : undefined;
}

export interface FinishedResult {
	/** To emit, in submission order. */
	fresh: Submission[];
	/** Dated after the poll's present: not handled yet. */
	heldBack: Submission[];
	state: PollState;
}

/**
 * What a listing of the window brings: the submissions not handled yet, and the state
 * after emitting them. Those dated after `presentMs` are left for a later poll
 * (`heldBack`); `presentMs` also stands in for times that cannot be read.
 */
export function takeFinished(
	state: PollState,
	listed: readonly Submission[],
	overlapMs: number,
	presentMs: number,
): FinishedResult {
	const seen = { ...state.seen };
	const fresh: Array<Keyed & { submission: Submission }> = [];
	const heldBack: Submission[] = [];
	for (const submission of listed) {
		const id = submission?.submissionId;
		if (typeof id !== 'string' || id in seen) continue;
		const ms = submissionMs(submission, presentMs);
		if (ms < state.windowStartMs) continue;
		if (ms > presentMs) {
			heldBack.push(submission);
			continue;
		}
		seen[id] = ms;
		fresh.push({ ms, id, submission });
	}
	fresh.sort(bySubmissionOrder);
	const newestMs = Math.max(state.newestMs, ...fresh.map((entry) => entry.ms));
	const window = narrowWindow(seen, Math.max(state.windowStartMs, newestMs - overlapMs));
	return {
		fresh: fresh.map((entry) => entry.submission),
		heldBack,
		state: { ...state, newestMs, windowStartMs: window.startMs, seen: window.seen },
	};
}

/** Drops ids before the window's start, then closes in further while over `MAX_SEEN`. */
export function narrowWindow(
	seen: Record<string, number>,
	startMs: number,
	maxSeen = MAX_SEEN,
): { startMs: number; seen: Record<string, number> } {
	let kept = Object.entries(seen).filter(([, ms]) => ms >= startMs);
	if (kept.length > maxSeen) {
		const times = kept.map(([, ms]) => ms).sort((a, b) => a - b);
		// Keep every id at the cut's instant: a newer start would let them be emitted again.
		startMs = times[times.length - maxSeen];
		kept = kept.filter(([, ms]) => ms >= startMs);
	}
	return { startMs, seen: Object.fromEntries(kept) };
}

/** How in-progress submissions are emitted: each once, or again when `lastUpdatedAt` moves. */
export type InProgressMode = 'ignore' | 'once' | 'onUpdate';

/**
 * In-progress submissions watched: the newest this many, one list request. Older ones
 * (abandoned forms pile up) are not listed, so neither their number nor their age costs
 * requests or cursor space.
 */
export const WATCHED_IN_PROGRESS = 150;

export interface InProgressResult {
	fresh: Submission[];
	handled: Record<string, string>;
	sinceMs: number;
}

/**
 * In-progress submissions not emitted yet (or updated since, in 'onUpdate' mode). When the
 * listing is full, those dated before its oldest are no longer watched (`sinceMs` only moves
 * up), so none comes back; ids not listed are forgotten (`handled` stays bounded).
 */
export function takeInProgress(
	handled: Record<string, string>,
	listed: readonly Submission[],
	mode: Exclude<InProgressMode, 'ignore'>,
	presentMs: number,
	sinceMs = 0,
): InProgressResult {
	const times = listed.map((submission) => submissionMs(submission, presentMs));
	if (listed.length >= WATCHED_IN_PROGRESS) sinceMs = Math.max(sinceMs, Math.min(...times));
	const next: Record<string, string> = {};
	const fresh: Array<Keyed & { submission: Submission }> = [];
	listed.forEach((submission, i) => {
		const id = submission?.submissionId;
		if (typeof id !== 'string' || id in next || times[i] < sinceMs) return;
		const updated = typeof submission.lastUpdatedAt === 'string' ? submission.lastUpdatedAt : '';
		next[id] = updated;
		const before = handled[id];
		if (before === undefined || (mode === 'onUpdate' && before !== updated)) {
			fresh.push({ ms: times[i], id, submission });
		}
	});
	fresh.sort(bySubmissionOrder);
	return { fresh: fresh.map((entry) => entry.submission), handled: next, sinceMs };
}

/** A fresh state from a listing of everything at or after the start. */
export function startState(
	formId: string,
	formName: string | null,
	start: { fromMs: number; windowStartMs: number },
): PollState {
	return {
		version: POLL_STATE_VERSION,
		formId,
		formName,
		windowStartMs: start.windowStartMs,
		newestMs: start.fromMs,
		seen: {},
	};
}
