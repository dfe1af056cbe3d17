import type { IDataObject, INode } from 'n8n-workflow';

import { runsAsTool } from './toolMode';

/**
 * What Submission → Get Many answers an agent: one object with the submissions, how many
 * match in all (Fillout's count on the read's first page) and, when more match than were
 * read, a note saying so and how to narrow the request.
 */

/** Fillout's count of the submissions matching a read, from the first page answered. */
export class MatchCount {
	total?: number;

	readonly onPage = (answer: { totalResponses?: unknown }): void => {
		const { totalResponses } = answer;
		if (this.total === undefined && typeof totalResponses === 'number' && totalResponses >= 0) {
			this.total = totalResponses;
		}
	};
}

/** The ways to narrow a read, in the note: one entry per filter an agent can be given. */
export const NARROWING = [
	'Submitted After or Submitted Before (a date and time such as 2024-05-01T14:30:00Z)',
	'Search (text found in any answer)',
];

export interface ReadFacts {
	/** Fillout's count of the matching submissions, when it gave one. */
	total?: number;
	/** How many were asked for (undefined: all). */
	maxItems?: number;
	sort: 'asc' | 'desc';
}

/** "10 of 1,234 submissions shown, oldest first; …": undefined when all that match are shown. */
export function moreNote(submissions: IDataObject[], facts: ReadFacts): string | undefined {
	const shown = submissions.length;
	const { total, maxItems, sort } = facts;
	const more = total !== undefined ? total > shown : maxItems !== undefined && shown >= maxItems;
	if (!more) return undefined;
	const count =
		total === undefined
			? `${shown} submissions`
			: `${shown} of ${total.toLocaleString('en-US')} submissions`;
	const order = sort === 'desc' ? 'newest first' : 'oldest first';
	const last = submissions.at(-1)?.submissionTime;
	const next =
		typeof last === 'string'
			? `; for the next ones, ask again with Submitted ${sort === 'desc' ? 'Before' : 'After'} ${last}`
			: '';
	return `${count} shown, ${order}${total === undefined ? ' (more may match)' : ''}; narrow the request with ${NARROWING.join(', or ')}${next}.`;
}

/** Get Many's items, or as a tool the one object an agent reads. */
export function submissionsAnswer(
	ctx: { getNode(): INode },
	submissions: IDataObject[],
	facts: ReadFacts,
): IDataObject[] {
	if (!runsAsTool(ctx)) return submissions;
	const answer: IDataObject = { submissions, shown: submissions.length };
	if (facts.total !== undefined) answer.total = facts.total;
	const note = moreNote(submissions, facts);
	if (note !== undefined) answer.note = note;
	return [answer];
}
