/**
 * The filters Get Many and Count share (Search, Status, the dates, the answer filter) and
 * what they become: the query every page carries, the date bounds, and the answer filter
 * with the `search` text that narrows the listing to its candidates.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { formatInZone, isEmptyDate, parseDateInput } from '../../shared/dates';
import { answerMatches, searchTextOf, type AnswerFilter } from '../../shared/answerFilter';
import { answerFilterOption, readAnswerFilter } from '../../shared/answerFilterParameters';
import { itemProblem } from '../../shared/nodeErrors';
import { DATE_FORMAT } from '../../agentTool/toolMode';
import type { PagedSubmission } from '../../reading/pages';

const searchFilter: INodeProperties = {
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	description: 'Only submissions with this text in any of their answers',
};

const sharedFilters: INodeProperties[] = [
	answerFilterOption,
	searchFilter,
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Finished', value: 'finished' },
			{ name: 'In Progress', value: 'in_progress' },
		],
		default: 'finished',
		description:
			'Finished submissions, or ones started but not submitted (needs a paid Fillout plan)',
	},
	{
		displayName: 'Submitted After',
		name: 'afterDate',
		type: 'dateTime',
		default: '',
		description: `Only submissions made after this moment: ${DATE_FORMAT}`,
	},
	{
		displayName: 'Submitted Before',
		name: 'beforeDate',
		type: 'dateTime',
		default: '',
		description: `Only submissions made before this moment: ${DATE_FORMAT}`,
	},
];

/** The filters both operations show, with an operation's own, in the editor's (alphabetical) order. */
export function listFilterOptions(...own: INodeProperties[]): INodeProperties[] {
	return [...sharedFilters, ...own].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

const DATE_FILTERS: Record<string, string> = {
	afterDate: 'Submitted After',
	beforeDate: 'Submitted Before',
};

/** A date filter as Fillout wants it: ISO 8601 with the workflow zone's offset. */
function dateFilter(
	ctx: IExecuteFunctions,
	filters: IDataObject,
	name: string,
	itemIndex: number,
): string | undefined {
	const value = filters[name];
	if (isEmptyDate(value)) return undefined;
	const timeZone = ctx.getTimezone();
	const ms = parseDateInput(value, timeZone);
	if (ms === undefined) {
		throw itemProblem(
			ctx,
			`"${DATE_FILTERS[name]}" is not a readable date: ${JSON.stringify(String(value))}`,
			itemIndex,
			'Use a date such as 2024-05-01 or 2024-05-01T14:30:00 (with or without an offset), or a Luxon DateTime.',
		);
	}
	return formatInZone(ms, timeZone);
}

export interface ListFilters {
	afterDate?: string;
	beforeDate?: string;
	/** Sent with every page: status, search. */
	query: IDataObject;
	answer?: AnswerFilter;
	/** Keeps the submissions the answer filter matches; undefined without one. */
	keep?: (item: PagedSubmission) => boolean;
}

/** The item's filters, the answer filter checked against the form. */
export async function listFiltersOf(
	ctx: IExecuteFunctions,
	formId: string,
	filters: IDataObject,
	itemIndex: number,
): Promise<ListFilters> {
	const afterDate = dateFilter(ctx, filters, 'afterDate', itemIndex);
	const beforeDate = dateFilter(ctx, filters, 'beforeDate', itemIndex);
	const query: IDataObject = {};
	if (filters.status) query.status = filters.status;
	const search = typeof filters.search === 'string' ? filters.search : '';
	const answer = await readAnswerFilter(ctx, formId, filters.answer, itemIndex);
	// The user's own Search wins: Fillout takes one, and the filter is checked on each anyway.
	const narrowing = answer === undefined ? undefined : searchTextOf(answer);
	if (search !== '') query.search = search;
	else if (narrowing !== undefined) query.search = narrowing;
	return {
		afterDate,
		beforeDate,
		query,
		answer,
		keep: answer && ((item) => answerMatches(item, answer)),
	};
}
