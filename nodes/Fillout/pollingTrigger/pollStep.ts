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

/**
 * `finished`: the listing of the window, or its prefix when the poll stopped early;
 * `inProgress`: the newest in-progress submissions (undefined: ignored). A cursor that did
 * not watch them yet only remembers them, as a start from now does.
 */
export function takePoll(
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
