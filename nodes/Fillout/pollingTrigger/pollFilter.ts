/**
 * The polling trigger's answer filter: a poll emits only the submissions it matches. The
 * cursor is still moved over the others (they count as handled), so they are never
 * emitted later nor read again past the Late Submission Window.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { answerMatches, searchTextOf } from '../shared/answerFilter';
import { answerParameterOf, readAnswerFilter } from '../shared/answerFilterParameters';
import type { PagedSubmission } from '../reading/pages';
import type { PollOutcome } from './pollStep';

/** What is emitted of a poll; `positions[i]`: where item i is in the whole poll's `emitted`. */
export interface ShownOutcome extends PollOutcome {
	positions: number[];
}

/** The poll's outcome reduced to what the filter matches (all of it without a filter). */
export async function onlyMatching(
	ctx: IPollFunctions,
	formId: string,
	taken: PollOutcome,
	raw: unknown,
): Promise<ShownOutcome> {
	// The form is read only when a filter is set and the poll has something to emit.
	const filter =
		answerParameterOf(raw) && taken.emitted.length > 0
			? await readAnswerFilter(ctx, formId, raw)
			: undefined;
	return shownOf(taken, filter && ((submission) => answerMatches(submission, filter)));
}

/** The outcome's emitted submissions that `keep` keeps (all without it), with their positions. */
export function shownOf(taken: PollOutcome, keep?: (submission: unknown) => boolean): ShownOutcome {
	const all = taken.emitted.map((_, i) => i);
	const kept = keep ? all.filter((i) => keep(taken.emitted[i])) : all;
	return {
		...taken,
		emitted: kept.map((i) => taken.emitted[i]),
		statuses: kept.map((i) => taken.statuses[i]),
		positions: kept,
	};
}

/** For "Fetch Test Event": the newest matching submission's read (search, and what to keep). */
export async function newestMatching(
	ctx: IPollFunctions,
	formId: string,
	raw: unknown,
): Promise<{ keep?: (item: PagedSubmission) => boolean; query?: { search: string } }> {
	const filter = answerParameterOf(raw) ? await readAnswerFilter(ctx, formId, raw) : undefined;
	if (!filter) return {};
	const search = searchTextOf(filter);
	return {
		keep: (item) => answerMatches(item, filter),
		...(search === undefined ? {} : { query: { search } }),
	};
}
