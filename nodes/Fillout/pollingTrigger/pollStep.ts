/**
 * What one poll emits and the cursor after it, from what it listed (no I/O, no clock):
 * the polling trigger runs this, and the model test runs it against a simulated Fillout.
 */
import type { Submission } from '../shared/interfaces';
import {
	submissionMs,
	takeFinished,
	takeInProgress,
	type InProgressMode,
	type PollState,
} from './pollState';

/**
 * How this poll begins. 'resume' goes on from a cursor; 'quiet' starts at the present and
 * only remembers what is already there; 'backfill' emits everything from `fromMs` on.
 */
export interface Start {
	kind: 'resume' | 'quiet' | 'backfill';
	state: PollState;
	fromMs?: number;
}

export type SubmissionStatus = 'finished' | 'in_progress';

/** What one poll emits, with each one's status, and the cursor after it. */
export interface PollOutcome {
	emitted: Submission[];
	statuses: SubmissionStatus[];
	next: PollState;
	/** Finished submissions dated after the poll's present, left for a later poll. */
	heldBack?: Submission[];
}

export interface StepSettings {
	overlapMs: number;
	inProgress: InProgressMode;
}

/** How much of a poll holds: the listing may have stopped early, the files run out of time. */
export interface PollCut {
	/** False when the finished listing stopped before its end (n8n's budget). */
	complete?: boolean;
	/** Emit only the first this many: the files of the rest were not fetched in time. */
	emitAtMost?: number;
}

/**
 * `finished`: the listing of the window, or its prefix when the poll stopped early;
 * `inProgress`: the newest in-progress submissions (undefined: ignored). A cursor that did
 * not watch them yet only remembers them, as a start from now does. With `cut.emitAtMost`,
 * the outcome is that of emitting only that many, the rest left for the next poll.
 */
export function takePoll(
	start: Start,
	finished: readonly Submission[],
	inProgress: readonly Submission[] | undefined,
	settings: StepSettings,
	presentMs: number,
	cut: PollCut = {},
): PollOutcome {
	// A start from now that did not list its whole late window counts all before it as handled.
	const begun =
		cut.complete === false && start.kind === 'quiet'
			? { ...start, state: { ...start.state, windowStartMs: start.state.newestMs + 1 } }
			: start;
	const whole = takeAll(begun, finished, inProgress, settings, presentMs);
	const count = cut.emitAtMost ?? whole.emitted.length;
	if (count >= whole.emitted.length) return whole;
	// Cut by position: an id can be in both lists, once on each side of the cut.
	const after = (status: SubmissionStatus) =>
		new Set(whole.emitted.filter((_, i) => i >= count && whole.statuses[i] === status).map(idOf));
	const unseen = after('finished');
	const kept =
		unseen.size === 0
			? whole
			: takeAll(
					begun,
					finished.filter((s) => !unseen.has(idOf(s))),
					inProgress,
					settings,
					presentMs,
				);
	const next = { ...kept.next };
	if (next.inProgress !== undefined) {
		next.inProgress = { ...next.inProgress };
		for (const id of after('in_progress')) delete next.inProgress[id];
	}
	return {
		emitted: kept.emitted.slice(0, count),
		statuses: kept.statuses.slice(0, count),
		next,
		heldBack: kept.heldBack,
	};
}

/** Listed entries are hostile input: one may be null or carry no id (never emitted then). */
const idOf = (submission: Submission | null | undefined): string =>
	typeof submission?.submissionId === 'string' ? submission.submissionId : '';

function takeAll(
	start: Start,
	finished: readonly Submission[],
	inProgress: readonly Submission[] | undefined,
	settings: StepSettings,
	presentMs: number,
): PollOutcome {
	const done = takeFinished(start.state, finished, settings.overlapMs, presentMs);
	const next: PollState = { ...done.state };
	delete next.inProgress;
	delete next.inProgressSinceMs;
	let started: Submission[] = [];
	if (inProgress !== undefined && settings.inProgress !== 'ignore') {
		const taken = takeInProgress(
			start.state.inProgress ?? {},
			inProgress,
			settings.inProgress,
			presentMs,
			start.state.inProgressSinceMs,
		);
		next.inProgress = taken.handled;
		if (taken.sinceMs > 0) next.inProgressSinceMs = taken.sinceMs;
		const watched =
			start.kind === 'backfill' || (start.kind === 'resume' && start.state.inProgress);
		if (watched) {
			started = taken.fresh.filter((s) => submissionMs(s, presentMs) >= (start.fromMs ?? 0));
		}
	}
	const emitted = start.kind === 'quiet' ? [] : [...done.fresh, ...started];
	const statuses = emitted.map(
		(_, i): SubmissionStatus => (i < done.fresh.length ? 'finished' : 'in_progress'),
	);
	return { emitted, statuses, next, heldBack: done.heldBack };
}
