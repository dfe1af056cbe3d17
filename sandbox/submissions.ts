/** Listing submissions: the query rules of endpoint 3, filtering, search, total order, paging. */
import type { FormSubmissions } from './store';
import type { StoredSubmission, Submission, SubmissionStatus } from './types';
import { booleanParam, dateParam, enumParam, integerParam, stringParam } from './validation';

export const LIMIT_MAX = 150;
export const LIMIT_DEFAULT = 50;

export interface ListQuery {
	limit: number;
	offset: number;
	/** Only submissions strictly after / before these instants (epoch ms). */
	afterMs?: number;
	beforeMs?: number;
	status: SubmissionStatus;
	includeEditLink: boolean;
	includePreview: boolean;
	sort: 'asc' | 'desc';
	search?: string;
}

export function parseListQuery(params: URLSearchParams): ListQuery {
	const search = stringParam(params, 'search');
	return {
		limit: integerParam(params, 'limit', 1, LIMIT_MAX, LIMIT_DEFAULT),
		offset: integerParam(params, 'offset', 0, undefined, 0),
		afterMs: dateParam(params, 'afterDate'),
		beforeMs: dateParam(params, 'beforeDate'),
		status: enumParam(params, 'status', ['finished', 'in_progress'] as const, 'finished'),
		includeEditLink: booleanParam(params, 'includeEditLink'),
		includePreview: booleanParam(params, 'includePreview'),
		sort: enumParam(params, 'sort', ['asc', 'desc'] as const, 'asc'),
		// An empty search matches everything, like no search at all.
		search: search ? search.toLowerCase() : undefined,
	};
}

/** Does any string or number inside `value` (arrays and objects included) contain the needle? */
function containsText(value: unknown, needle: string): boolean {
	if (typeof value === 'string') return value.toLowerCase().includes(needle);
	if (typeof value === 'number') return String(value).includes(needle);
	if (Array.isArray(value)) return value.some((item) => containsText(item, needle));
	if (value && typeof value === 'object')
		return Object.values(value).some((item) => containsText(item, needle));
	return false;
}

/** Search covers answer values, URL parameter values and the submission id. */
export function matchesSearch(submission: Submission, needle: string): boolean {
	return (
		submission.submissionId.toLowerCase().includes(needle) ||
		submission.questions.some((q) => containsText(q.value, needle)) ||
		submission.urlParameters.some((p) => containsText(p.value, needle))
	);
}

function matches(item: StoredSubmission, query: ListQuery): boolean {
	if (item.status !== query.status || item.hidden) return false;
	if (item.preview && !query.includePreview) return false;
	if (query.afterMs !== undefined && !(item.timeMs > query.afterMs)) return false;
	if (query.beforeMs !== undefined && !(item.timeMs < query.beforeMs)) return false;
	return query.search === undefined || matchesSearch(item.submission, query.search);
}

export interface Page {
	items: StoredSubmission[];
	totalResponses: number;
	pageCount: number;
}

export function listSubmissions(list: FormSubmissions, query: ListQuery): Page {
	const all = list.sorted().filter((item) => matches(item, query));
	if (query.sort === 'desc') all.reverse();
	return {
		items: all.slice(query.offset, query.offset + query.limit),
		totalResponses: all.length,
		pageCount: Math.ceil(all.length / query.limit),
	};
}

/** Where an edit link points: the sandbox's stand-in for forms.fillout.com/t/<formId>. */
export function editLinkFor(origin: string, formId: string, submissionId: string): string {
	return `${origin}/t/${encodeURIComponent(formId)}?session=${encodeURIComponent(submissionId)}`;
}

/** The public shape (a shallow copy: replies are serialized at once, never kept). */
export function presentSubmission(item: StoredSubmission, editLink?: string): Submission {
	return editLink ? { ...item.submission, editLink } : item.submission;
}
