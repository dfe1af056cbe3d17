/**
 * Planner for reading a form's submissions page by page, with no duplicates and no
 * losses while submissions arrive or are deleted between pages. It does no I/O: the
 * caller asks `next()` for the query to send, sends it, and hands the answer to
 * `receive()` until `next()` returns undefined; `results()` then lists each
 * submission once, in the requested order.
 *
 * Why not plain offset paging: deleting a submission already read shifts every later
 * one down, so the next offset skips one. Instead each page continues from the
 * submission time of the last one read (keyset paging on `submissionTime`, in the
 * direction of the sort, intersected with the user's own date filters), where
 * deletions further back cannot shift anything. Two ways to continue from the last
 * time L of a page:
 *
 * - Sentinel: ask for times from L on (`>= L`), skipping with `offset` the submissions
 *   at L already read except the last one, which must come back first. If it does not,
 *   something at L was deleted meanwhile, and the page is read again from the start
 *   of L (offset 0), so nothing is skipped. Submissions sharing L past the page end
 *   come next, so ties are never cut. This costs one re-read submission per page.
 * - Strictly after L (`> L`, offset 0): no re-read, used only where the sentinel would
 *   cost a whole extra request (e.g. 300 submissions: 150 + 150, not 150 + 149 + 1).
 *   Submissions sharing L past the page end would be missed, so the next answer is
 *   checked: its `totalResponses` must equal the previous total minus what the
 *   previous page covered. Any difference (a cut tie, or a change) makes the planner
 *   read instant L again on its own ("tie scan", offset paging with a sentinel).
 *
 * The end is known without an extra request: a short page, or a page reaching
 * `totalResponses`. So nothing changing, N submissions cost max(1, ceil(N / 150))
 * requests.
 *
 * Bounds: whether `afterDate`/`beforeDate` are strict is not documented. The planner
 * assumes strict (as the sandbox) and switches to inclusive the first time the service
 * returns a submission lying exactly on a bound it computed. Times are compared in
 * milliseconds, which is the precision Fillout's ISO timestamps carry.
 */

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

export interface PageAnswer<T extends PagedSubmission> {
	responses: T[];
	totalResponses?: number;
}

export interface PagerOptions {
	sort: SortOrder;
	/** The user's own filters, as they are to be sent (ISO 8601 with an offset). */
	afterDate?: string;
	beforeDate?: string;
	/** Stop once this many submissions are read (the "Limit" option); all when undefined. */
	maxItems?: number;
	/** At most Fillout's maximum `limit`, 150. */
	pageSize?: number;
}

export const MAX_PAGE_SIZE = 150;
/** Consecutive re-reads after a vanished sentinel before giving up. */
const MAX_RESTARTS = 5;
/** Consecutive full pages that bring nothing new before giving up. */
const MAX_STALLED_PAGES = 3;

/** Where the next main page starts. */
interface Cursor {
	time: number;
	/** Read from `time` on with a sentinel, or strictly after `time`. */
	mode: 'sentinel' | 'after';
	/** Sentinel mode: where the sentinel stands from the start of `time`, as last seen. */
	sentinelPosition: number;
	sentinelId?: string;
}

interface TieScan {
	time: number;
	offset: number;
	sentinelId?: string;
}

interface PageFacts {
	total?: number;
	covered: number;
	lastTime: number;
}

interface Entry<T> {
	item: T;
	time: number;
	order: number;
}

type Pending =
	| { kind: 'main'; query: PageQuery; cursor?: Cursor }
	| { kind: 'tie'; query: PageQuery; scan: TieScan };

function isoOf(ms: number): string {
	return new Date(ms).toISOString();
}

function timeOf(item: PagedSubmission): number {
	const ms = Date.parse(item.submissionTime);
	if (Number.isNaN(ms)) {
		throw new Error(
			`Submission ${item.submissionId} has an unreadable submissionTime "${item.submissionTime}"`,
		);
	}
	return ms;
}

interface Bound {
	text: string;
	ms: number;
}

function bound(text: string | undefined): Bound | undefined {
	return text === undefined ? undefined : { text, ms: Date.parse(text) };
}

export class SubmissionPager<T extends PagedSubmission> {
	private readonly sort: SortOrder;
	private readonly pageSize: number;
	private readonly maxItems?: number;
	private readonly userAfter?: Bound;
	private readonly userBefore?: Bound;

	private readonly entries = new Map<string, Entry<T>>();
	private readonly tieScans: TieScan[] = [];
	private readonly scannedTimes = new Set<number>();
	private inclusiveBounds = false;
	private cursor?: Cursor;
	/** Set after a strictly-after page, to check the next total against. */
	private check?: PageFacts;
	private mainDone = false;
	private restarts = 0;
	private stalledPages = 0;
	private pending?: Pending;
	private requests = 0;
	private largestTotal = 0;

	constructor(options: PagerOptions) {
		this.sort = options.sort;
		this.pageSize = Math.max(2, Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE));
		this.maxItems = options.maxItems;
		this.userAfter = bound(options.afterDate);
		this.userBefore = bound(options.beforeDate);
		if (this.maxItems !== undefined && this.maxItems <= 0) this.mainDone = true;
	}


	/** The query to send next, or undefined when everything has been read. */
	next(): PageQuery | undefined {
		if (this.pending) throw new Error('The previous page has not been received yet');
		const scan = this.tieScans[0];
		if (scan) {
			this.pending = { kind: 'tie', scan, query: this.tieQuery(scan) };
		} else if (!this.mainDone) {
			this.pending = { kind: 'main', query: this.mainQuery(), cursor: this.cursor };
		} else {
			return undefined;
		}
		this.requests++;
		// Far above what a correct service needs: this only stops a misbehaving one.
		const cap = 50 + 4 * Math.ceil(this.largestTotal / (this.pageSize - 1));
		if (this.requests > cap) throw new Error(`Paging did not finish after ${cap} requests`);
		return { ...this.pending.query };
	}

	receive(answer: PageAnswer<T>): void {
		const pending = this.pending;
		if (!pending) throw new Error('No page was requested');
		this.pending = undefined;
		const responses = Array.isArray(answer.responses) ? answer.responses : [];
		const total = typeof answer.totalResponses === 'number' ? answer.totalResponses : undefined;
		if (total !== undefined) this.largestTotal = Math.max(this.largestTotal, total);
		const known = this.entries.size;
		const times = this.add(responses);
		const brandNew = this.entries.size - known;
		const wasInclusive = this.inclusiveBounds;
		this.noticeInclusiveBounds(pending.query, times);
		// An inclusive bound included the cursor's whole instant: no tie can have been cut.
		if (this.inclusiveBounds !== wasInclusive) this.check = undefined;
		if (pending.kind === 'main') {
			this.receiveMain(pending.query, pending.cursor, responses, times, total);
			this.stalledPages = this.mainDone || brandNew > 0 ? 0 : this.stalledPages + 1;
			if (this.stalledPages > MAX_STALLED_PAGES) {
				throw new Error(
					'Paging made no progress: the service keeps returning submissions already read',
				);
			}
		} else this.receiveTie(pending.scan, pending.query, responses, total);
	}

	/** Everything read, each submission once, in the requested order (cut to the limit). */
	results(): T[] {
		const direction = this.sort === 'asc' ? 1 : -1;
		const sorted = [...this.entries.values()].sort(
			(a, b) => direction * (a.time - b.time) || a.order - b.order,
		);
		const items = sorted.map((entry) => entry.item);
		return this.maxItems === undefined ? items : items.slice(0, this.maxItems);
	}

	private add(items: readonly T[]): number[] {
		return items.map((item) => {
			const time = timeOf(item);
			if (!this.entries.has(item.submissionId)) {
				this.entries.set(item.submissionId, { item, time, order: this.entries.size });
			}
			return time;
		});
	}

	private readAt(time: number): Array<Entry<T>> {
		return [...this.entries.values()].filter((entry) => entry.time === time);
	}

	/** A submission exactly on a bound the planner computed proves bounds are inclusive. */
	private noticeInclusiveBounds(query: PageQuery, times: number[]): void {
		if (this.inclusiveBounds) return;
		for (const [text, user] of [
			[query.afterDate, this.userAfter],
			[query.beforeDate, this.userBefore],
		] as const) {
			if (text === undefined || text === user?.text) continue;
			const ms = Date.parse(text);
			if (times.includes(ms)) this.inclusiveBounds = true;
		}
	}

	/**
	 * The bound (ISO text) selecting times from `time` on (`from`) or strictly past it
	 * (`past`) in the sort direction, tightened by the user's own filter on that side.
	 */
	private cursorBound(
		time: number,
		kind: 'from' | 'past',
	): { afterDate?: string; beforeDate?: string } {
		const asc = this.sort === 'asc';
		// Strict bounds: `> t - 1ms` is `>= t`; inclusive bounds: `>= t + 1ms` is `> t`.
		let ms: number;
		if (kind === 'from') ms = this.inclusiveBounds ? time : asc ? time - 1 : time + 1;
		else ms = !this.inclusiveBounds ? time : asc ? time + 1 : time - 1;
		return asc
			? { afterDate: this.tighter(this.userAfter, ms, 'after'), beforeDate: this.userBefore?.text }
			: {
					afterDate: this.userAfter?.text,
					beforeDate: this.tighter(this.userBefore, ms, 'before'),
				};
	}

	/** The stricter of the user's bound and a computed one. */
	private tighter(user: Bound | undefined, ms: number, side: 'after' | 'before'): string {
		if (user && !Number.isNaN(user.ms) && (side === 'after' ? user.ms >= ms : user.ms <= ms)) {
			return user.text;
		}
		return isoOf(ms);
	}

	private remainingWanted(): number {
		return this.maxItems === undefined ? Infinity : this.maxItems - this.entries.size;
	}

	private mainQuery(): PageQuery {
		// A sentinel takes a slot of the page, so ask for one more (at least 2: progress).
		const sentinel =
			this.cursor?.mode === 'sentinel' && this.cursor.sentinelId !== undefined ? 1 : 0;
		const query: PageQuery = {
			limit: Math.max(1 + sentinel, Math.min(this.pageSize, this.remainingWanted() + sentinel)),
			sort: this.sort,
		};
		let bounds: { afterDate?: string; beforeDate?: string } = {
			afterDate: this.userAfter?.text,
			beforeDate: this.userBefore?.text,
		};
		const cursor = this.cursor;
		if (cursor?.mode === 'sentinel') {
			bounds = this.cursorBound(cursor.time, 'from');
			if (cursor.sentinelId !== undefined && cursor.sentinelPosition > 0)
				query.offset = cursor.sentinelPosition;
		} else if (cursor?.mode === 'after') {
			bounds = this.cursorBound(cursor.time, 'past');
		}
		if (bounds.afterDate !== undefined) query.afterDate = bounds.afterDate;
		if (bounds.beforeDate !== undefined) query.beforeDate = bounds.beforeDate;
		return query;
	}

	private tieQuery(scan: TieScan): PageQuery {
		const asc = this.sort === 'asc';
		const from = this.cursorBound(scan.time, 'from');
		const upTo = asc ? 'beforeDate' : 'afterDate';
		// The instant alone: from `time` on, and not past it.
		const past = asc ? scan.time + 1 : scan.time - 1;
		const end = this.inclusiveBounds ? scan.time : past;
		const query: PageQuery = {
			limit: MAX_PAGE_SIZE,
			sort: this.sort,
			...from,
			[upTo]: this.tighter(asc ? this.userBefore : this.userAfter, end, asc ? 'before' : 'after'),
		};
		if (scan.offset > 0) query.offset = scan.offset;
		return query;
	}

	private restart(): void {
		this.restarts++;
		if (this.restarts > MAX_RESTARTS) {
			throw new Error('Submissions kept changing while they were read; try again');
		}
	}

	private receiveMain(
		query: PageQuery,
		cursor: Cursor | undefined,
		responses: readonly T[],
		times: number[],
		total: number | undefined,
	): void {
		// Sentinel missing: something at the cursor's instant was deleted, so this page
		// may start too late. Read the instant again from its start (offset 0).
		if (
			cursor?.sentinelId !== undefined &&
			!responses.some((r) => r.submissionId === cursor.sentinelId)
		) {
			this.restart();
			this.cursor = { ...cursor, sentinelId: undefined };
			this.check = undefined;
			return;
		}

		// After a strictly-after page, the range must have lost exactly what that page
		// covered; otherwise submissions may share its last instant past the page end.
		if (
			this.check &&
			cursor?.mode === 'after' &&
			total !== undefined &&
			this.check.total !== undefined
		) {
			if (total !== this.check.total - this.check.covered)
				this.scheduleTieScan(this.check.lastTime);
		}
		this.check = undefined;
		this.restarts = 0;

		const offset = query.offset ?? 0;
		const covered = offset + responses.length;
		const full = responses.length >= query.limit;
		if (!full || (total !== undefined && covered >= total) || this.remainingWanted() <= 0) {
			this.mainDone = true;
			return;
		}

		const last = times[times.length - 1];
		// Positions count from the start of the instant `last`, as this page shows it now.
		const sameInstant = cursor?.mode === 'sentinel' && cursor.time === last;
		const atLast = times.filter((time) => time === last).length;
		const sentinelPosition = sameInstant ? offset + responses.length - 1 : atLast - 1;
		const sharesLast = atLast > 1 || sameInstant;
		const rest = total === undefined ? Infinity : total - covered;
		const left = Math.min(rest, this.remainingWanted());
		// The sentinel re-reads one submission per page; take it when that costs no
		// extra request, or when ties at the last instant make it necessary.
		const sentinelIsFree =
			Math.ceil(left / (this.pageSize - 1)) === Math.ceil(left / this.pageSize);
		if (sharesLast || sentinelIsFree) {
			this.cursor = {
				time: last,
				mode: 'sentinel',
				sentinelPosition,
				sentinelId: responses[responses.length - 1].submissionId,
			};
		} else {
			this.cursor = { time: last, mode: 'after', sentinelPosition: 0 };
			this.check = { total, covered, lastTime: last };
		}
	}

	private scheduleTieScan(time: number): void {
		if (this.scannedTimes.has(time)) return;
		this.scannedTimes.add(time);
		const readAtTime = this.readAt(time);
		this.tieScans.push({
			time,
			// Re-read the last submission already read at this instant, as a sentinel.
			offset: Math.max(0, readAtTime.length - 1),
			sentinelId:
				readAtTime.length > 1 ? readAtTime[readAtTime.length - 1].item.submissionId : undefined,
		});
	}

	private receiveTie(
		scan: TieScan,
		query: PageQuery,
		responses: readonly T[],
		total: number | undefined,
	): void {
		if (
			scan.sentinelId !== undefined &&
			!responses.some((r) => r.submissionId === scan.sentinelId)
		) {
			this.restart();
			scan.offset = 0;
			scan.sentinelId = undefined;
			return;
		}
		this.restarts = 0;
		const offset = query.offset ?? 0;
		if (
			responses.length < query.limit ||
			(total !== undefined && offset + responses.length >= total)
		) {
			this.tieScans.shift();
			return;
		}
		scan.offset = offset + responses.length - 1;
		scan.sentinelId = responses[responses.length - 1].submissionId;
	}
}
