/** What a page of Fillout's submission listing is: its query, its answer, and reading them. */

export type SortOrder = 'asc' | 'desc';

export interface PageQuery {
	limit: number;
	sort: SortOrder;
	offset?: number;
	afterDate?: string;
	beforeDate?: string;
}

export interface PagedSubmission {
	submissionId: string;
	submissionTime: string;
}

/** How one read goes: its order, its range, how many (SubmissionPager). */
export interface PagerOptions {
	sort: SortOrder;
	/** The user's own filters, as they are to be sent (ISO 8601 with an offset). */
	afterDate?: string;
	beforeDate?: string;
	/** Stop once this many submissions are read (the "Limit" option); all when undefined. */
	maxItems?: number;
	/** Only these are returned, and `maxItems` counts only these (the answer filter). */
	keep?: (item: PagedSubmission) => boolean;
	/** At most Fillout's maximum `limit`, 150. */
	pageSize?: number;
	/** Asked when a short page would end the read: while no, the read waits, then reads on. */
	mayEnd?: () => boolean;
	/** The range ends before this time: a page that reaches it ends the read (no instant of it is read). */
	endMs?: number;
}

export interface PageAnswer<T extends PagedSubmission> {
	responses: T[];
	totalResponses?: number;
}

/** Fillout's largest `limit`. */
export const MAX_PAGE_SIZE = 150;

export function timeOf(item: PagedSubmission): number | undefined {
	const ms = typeof item.submissionTime === 'string' ? Date.parse(item.submissionTime) : NaN;
	return Number.isNaN(ms) ? undefined : ms;
}

export function idOf(item: PagedSubmission): string {
	return item.submissionId;
}

export function isoOf(ms: number): string {
	return new Date(ms).toISOString();
}

export function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
	for (let i = items.length - 1; i >= 0; i--) if (test(items[i])) return i;
	return -1;
}

/** The time of the page's last submission whose time can be read. */
export function lastReadableTime(responses: readonly PagedSubmission[]): number | undefined {
	const last = findLastIndex(responses, (item) => timeOf(item) !== undefined);
	return last === -1 ? undefined : timeOf(responses[last]);
}

/** The index of the first submission later than the one before it (an instant's first), or -1. */
export function instantStart(responses: readonly PagedSubmission[]): number {
	for (let i = 1; i < responses.length; i++) {
		const before = timeOf(responses[i - 1]);
		const at = timeOf(responses[i]);
		if (before !== undefined && at !== undefined && at > before) return i;
	}
	return -1;
}

/** The error of a read whose short pages keep listing less than Fillout counts. */
export function countNotListed(query: PageQuery, total: number, listed: number, times: number) {
	const reached = (query.offset ?? 0) + listed;
	return `Fillout counted ${total} submissions in ${describeRange(query)} but listed only ${reached} (offset ${query.offset ?? 0}, ${listed} returned where ${query.limit} were asked for), ${times} times in a row; the read stopped rather than return an incomplete list. Try again; if this persists, narrow the date filters.`;
}

/** The error of a read whose answers keep bringing nothing new. */
export function nothingNew(query: PageQuery, times: number) {
	return `Fillout answered ${times} requests in a row with no submission not already read (last: offset ${query.offset ?? 0} in ${describeRange(query)}); the read stopped rather than loop. Try again.`;
}

/** The query's date range in words, for errors. */
function describeRange(query: PageQuery): string {
	const parts = [
		query.afterDate === undefined ? undefined : `after ${query.afterDate}`,
		query.beforeDate === undefined ? undefined : `before ${query.beforeDate}`,
	].filter((part) => part !== undefined);
	return parts.length === 0 ? 'the form' : `the range ${parts.join(' and ')}`;
}

export interface Entry<T> {
	item: T;
	/** Milliseconds, or undefined when `submissionTime` cannot be read. */
	time?: number;
	order: number;
}

/** The entries' items by time in `sort` order; one without a time stays after the one before it. */
export function byTime<T>(entries: ReadonlyArray<Entry<T>>, sort: SortOrder): T[] {
	const direction = sort === 'asc' ? 1 : -1;
	let carried = direction * Number.MIN_SAFE_INTEGER;
	const keyed = entries.map((entry) => {
		carried = entry.time ?? carried;
		return { entry, key: carried };
	});
	keyed.sort((a, b) => direction * (a.key - b.key) || a.entry.order - b.entry.order);
	return keyed.map(({ entry }) => entry.item);
}

/** The user's bounds, narrowed to start at `rangeTime` in the order read (1 ms outside it). */
export function rangeBounds(
	userAfter: string | undefined,
	userBefore: string | undefined,
	rangeTime: number | undefined,
	sort: SortOrder,
): { afterDate?: string; beforeDate?: string } {
	const bounds: { afterDate?: string; beforeDate?: string } = {};
	if (userAfter !== undefined) bounds.afterDate = userAfter;
	if (userBefore !== undefined) bounds.beforeDate = userBefore;
	if (rangeTime === undefined) return bounds;
	if (sort === 'asc') {
		const from = rangeTime - 1;
		if (!(Date.parse(userAfter ?? '') >= from)) bounds.afterDate = isoOf(from);
	} else {
		const from = rangeTime + 1;
		if (!(Date.parse(userBefore ?? '') <= from)) bounds.beforeDate = isoOf(from);
	}
	return bounds;
}
