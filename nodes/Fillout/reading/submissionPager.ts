/**
 * Reads one time range of a form's submissions page by page. It does no I/O: the caller
 * asks `next()` for the query to send, sends it, and hands the answer to `receive()`
 * until `finished`; `results()` then lists each submission once, in the requested order.
 * Every submission that exists from the first request to the last is returned exactly
 * once, whatever changes in between, or the read fails saying why:
 * docs/reading-submissions.md gives the rules and the argument.
 */

import { InstantReading } from './instantReading';
import {
	MAX_PAGE_SIZE,
	countNotListed,
	nothingNew,
	findLastIndex,
	idOf,
	lastReadableTime,
	byTime,
	rangeBounds,
	type Entry,
	timeOf,
	type PageAnswer,
	type PageQuery,
	type PagedSubmission,
	type PagerOptions,
	type SortOrder,
} from './pages';

export type { PagerOptions };

/** Requests in a row with nothing new before giving up (deletions cost a few; loops more). */
const MAX_STALLED_REQUESTS = 30;
/** Short pages in a row below Fillout's count (taken apart from the page) before giving up. */
const MAX_SHORT_BELOW_COUNT = 5;

export class SubmissionPager<T extends PagedSubmission> {
	private readonly sort: SortOrder;
	/** The order read in: oldest first for Return All, since an edit can move a submission to the newest end. */
	private readonly readSort: SortOrder;
	private readonly pageSize: number;
	private readonly maxItems?: number;
	private readonly keep?: (item: PagedSubmission) => boolean;
	/** Entries `keep` keeps (all without it): what `maxItems` counts. */
	private kept = 0;
	private readonly userAfter?: string;
	private readonly userBefore?: string;
	private readonly mayEnd?: () => boolean;
	private readonly endMs: number;
	/** A short page came while `mayEnd` said no: read on from it once it says yes. */
	private held = false;
	/** Submissions from trusted pages, in the order first read. */
	private readonly entries = new Map<string, Entry<T>>();
	/** The range's first instant (the anchor's), or undefined for the user's whole range. */
	private rangeTime?: number;
	private offset = 0; // where the next page starts within the range
	/** Whether a trusted submission is expected in the next page (all pages but the first). */
	private anchored = false;
	/** How far the last dropped page stepped back; doubles while pages keep being dropped. */
	private stepBack = 0;
	private stalled = 0;
	private shortBelowCount = 0;
	private instant?: InstantReading; // what was seen of the range's first instant
	private done: boolean;
	private pending?: PageQuery;
	private requests = 0;
	private largestTotal = 0;

	constructor(options: PagerOptions) {
		this.sort = options.sort;
		this.readSort = options.maxItems === undefined ? 'asc' : options.sort;
		this.pageSize = Math.max(2, Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE));
		this.maxItems = options.maxItems;
		this.keep = options.keep;
		this.userAfter = options.afterDate;
		this.userBefore = options.beforeDate;
		this.mayEnd = options.mayEnd;
		this.endMs = options.endMs ?? Infinity;
		this.done = this.maxItems !== undefined && this.maxItems <= 0;
	}

	get finished(): boolean {
		return this.done;
	}

	/** The query to send next; undefined when finished or waiting for `mayEnd`. */
	next(): PageQuery | undefined {
		if (this.pending) throw new Error('The previous page has not been received yet');
		if (this.done || (this.held && !this.mayEnd!())) return undefined;
		this.held = false;
		this.requests++;
		// Far above what a correct service needs: this only stops a misbehaving one.
		const cap = 50 + 6 * Math.ceil(this.largestTotal / (this.pageSize - 1));
		if (this.requests > cap) throw new Error(`Paging did not finish after ${cap} requests`);
		// Ask for as many more as are read again: the anchor, or all read of an instant.
		const fromInstant = this.offset === 0 && this.instant !== undefined;
		const reread = !this.anchored ? 0 : fromInstant ? Math.max(1, this.instant!.ids.size) : 1;
		// With a filter, how many of a page are kept is unknown: full pages.
		const wanted =
			this.maxItems === undefined || this.keep ? Infinity : this.maxItems - this.entries.size;
		const query: PageQuery = {
			limit: Math.min(this.pageSize, Math.max(1 + reread, wanted + reread)),
			sort: this.readSort,
			...rangeBounds(this.userAfter, this.userBefore, this.rangeTime, this.readSort),
		};
		if (this.offset > 0) query.offset = this.offset;
		this.pending = query;
		return { ...query };
	}

	/** Takes a page read by someone else as this read's first: `query` is what it answered. */
	receiveFirst(query: PageQuery, answer: PageAnswer<T>): void {
		if (this.requests > 0) throw new Error('The read has already started');
		this.requests++;
		this.pending = { ...query };
		this.receive(answer);
	}

	receive(answer: PageAnswer<T>): void {
		const query = this.pending;
		if (!query) throw new Error('No page was requested');
		this.pending = undefined;
		const responses = Array.isArray(answer.responses) ? answer.responses : [];
		const total = typeof answer.totalResponses === 'number' ? answer.totalResponses : undefined;
		if (total !== undefined) this.largestTotal = Math.max(this.largestTotal, total);

		const offset = query.offset ?? 0;
		if (offset > 0 && !responses.some((item) => this.wasReadHere(item))) {
			// Positions moved down (deletions before the anchor): ask again from further back.
			this.stepBack = Math.max(1, this.stepBack * 2);
			this.offset = Math.max(0, offset - this.stepBack);
			this.noteProgress(false, query);
			return;
		}
		this.stepBack = 0;
		const added = this.add(responses);
		// A second read of an instant brings nothing new when all is well.
		this.noteProgress(added || (this.instant?.pass ?? 1) > 1, query);
		if (this.instantReadAgain(query, responses)) return;

		const reached = offset + responses.length;
		const short = responses.length < query.limit;
		const ended =
			(this.maxItems !== undefined && this.kept >= this.maxItems) ||
			(lastReadableTime(responses) ?? -Infinity) >= this.endMs;
		// A short page ends the read (reaching the count does not: it may come from another
		// statement), and so does one that reaches the range's end (inclusive bounds list it).
		this.shortBelowCount =
			short && total !== undefined && reached < total && !added ? this.shortBelowCount + 1 : 0;
		if (ended || (short && (total === undefined || reached >= total))) {
			if (ended || !this.mayEnd || this.mayEnd()) {
				this.done = true;
				return;
			}
			this.held = true;
		}
		if (this.shortBelowCount >= MAX_SHORT_BELOW_COUNT) {
			// Short pages below the count, and reading on from them brought nothing.
			throw new Error(countNotListed(query, total!, responses.length, this.shortBelowCount));
		}
		this.continueFrom(query, responses);
	}

	/** Everything read, each submission once, in the requested order (cut to the limit). */
	results(): T[] {
		const keep = this.keep;
		const entries = [...this.entries.values()];
		const items = byTime(keep ? entries.filter(({ item }) => keep(item)) : entries, this.readSort);
		if (this.readSort !== this.sort) items.reverse();
		return this.maxItems === undefined ? items : items.slice(0, this.maxItems);
	}

	/** Adds a trusted page; true when it held a submission not read before. */
	private add(items: readonly T[]): boolean {
		const before = this.entries.size;
		for (const item of items) {
			if (typeof item?.submissionId !== 'string' || this.entries.has(item.submissionId)) continue;
			this.entries.set(item.submissionId, { item, time: timeOf(item), order: this.entries.size });
			if (!this.keep || this.keep(item)) this.kept++;
		}
		return this.entries.size > before;
	}

	/** Whether it was read before at the same time (an edited one has moved: no landmark). */
	private wasReadHere(item: T): boolean {
		return this.entries.get(item?.submissionId)?.item.submissionTime === item.submissionTime;
	}

	private noteProgress(added: boolean, query: PageQuery): void {
		this.stalled = added ? 0 : this.stalled + 1;
		if (this.stalled < MAX_STALLED_REQUESTS) return;
		throw new Error(nothingNew(query, this.stalled));
	}

	/** The next page starts at this trusted page's last submission with a readable time (the anchor). */
	private continueFrom(query: PageQuery, responses: readonly T[]): void {
		this.anchored = true;
		const offset = query.offset ?? 0;
		const anchor = findLastIndex(responses, (item) => timeOf(item) !== undefined);
		const time = anchor === -1 ? undefined : timeOf(responses[anchor]);
		if (time === undefined || (this.rangeTime !== undefined && !this.isPast(time))) {
			// Same range: the last submission's position is known exactly.
			this.offset = offset + Math.max(0, responses.length - 1);
			// Only a full page shows that an instant goes on past it.
			const full = responses.length >= query.limit;
			const withinInstant = !responses.some((item) => this.isPastInstant(item));
			if (this.instant) this.instant.spansPages ||= full && withinInstant;
			return;
		}
		// A new range from the anchor's instant. When this page shows what comes before that
		// instant, the next starts at the instant's first submission (offset 0), so an instant
		// that fits in a page is read by one request, whatever order the service gives ties.
		const upToAnchor = responses.slice(0, anchor + 1);
		const spansPages =
			responses.length >= this.pageSize && upToAnchor.every((item) => timeOf(item) === time);
		this.rangeTime = time;
		this.instant = new InstantReading(time, this.pageSize, spansPages);
		this.instant.record(upToAnchor.filter((item) => timeOf(item) === time).map(idOf));
		this.offset = spansPages ? anchor : 0;
	}

	/** Records what this page shows of the range's first instant; true: read it again from its start. */
	private instantReadAgain(query: PageQuery, responses: readonly T[]): boolean {
		const instant = this.instant;
		if (!instant) return false;
		const past = responses.findIndex((item) => this.isPastInstant(item));
		const atOrBefore = past === -1 ? responses : responses.slice(0, past);
		instant.record(atOrBefore.map(idOf));
		const ended = past !== -1 || responses.length < query.limit;
		if (!ended || !instant.spansPages) return false;
		const listed = (query.offset ?? 0) + atOrBefore.length;
		const atTime = [...this.entries.values()].filter((entry) => entry.time === instant.time);
		const read = atTime.map(({ item }) => idOf(item));
		if (!instant.readAgain(listed, read)) return false;
		this.offset = 0;
		return true;
	}

	private isPastInstant(item: T): boolean {
		const time = timeOf(item);
		return time !== undefined && this.isPast(time);
	}

	/** Whether `time` comes after the range's first instant in the order read. */
	private isPast(time: number): boolean {
		if (this.rangeTime === undefined) return true;
		return this.readSort === 'asc' ? time > this.rangeTime : time < this.rangeTime;
	}
}
