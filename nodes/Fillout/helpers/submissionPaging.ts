/**
 * Planner for reading a form's submissions page by page, with no duplicates and no
 * losses while submissions arrive or are deleted between pages. It does no I/O: the
 * caller asks `next()` for the query to send, sends it, and hands the answer to
 * `receive()` until `next()` returns undefined.
 *
 * Why not offset paging: deleting an already-read submission shifts every later one
 * down, so the next offset skips one. Instead each page continues after the
 * submission time of the last one read (keyset paging on `submissionTime`), which
 * deletions before that point cannot shift, and offset 0 every time.
 *
 * Ties: submissions sharing the last time of a full page may continue past it.
 * `totalResponses` tells: page k+1 must count exactly `total(k) - size(k)` submissions
 * when nothing changed and no tie was cut. When it does not, or when a whole page
 * shares one time, that time is read again on its own ("tie scan", offset paging
 * within that one instant, each page re-reading its predecessor's last submission as
 * a sentinel so that a deletion inside the instant is noticed and the scan restarts).
 *
 * Strictness of `afterDate`/`beforeDate` is not documented: the planner first assumes
 * strict comparison (the cursor is the last time itself) and switches to the last
 * time ±1 ms once the service returns a submission lying exactly on the cursor.
 *
 * Cost with nothing changing: one request per 150 submissions, the last page known by
 * being short or by reaching `totalResponses` (so 150 submissions cost one request).
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
	/** Fillout's maximum `limit`. */
	pageSize?: number;
}

export const MAX_PAGE_SIZE = 150;
const MAX_TIE_RESTARTS = 5;
const MAX_STALLED_PAGES = 3;

interface TieScan {
	time: number;
	offset: number;
	sentinelId?: string;
	restarts: number;
}

interface MainPage {
	total?: number;
	count: number;
	lastTime: number;
}

interface Entry<T> {
	item: T;
	time: number;
	order: number;
}

type Pending =
	| { kind: 'main'; query: PageQuery }
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

export class SubmissionPager<T extends PagedSubmission> {
	private readonly sort: SortOrder;
	private readonly pageSize: number;
	private readonly maxItems?: number;
	private readonly userAfter?: { text: string; ms: number };
	private readonly userBefore?: { text: string; ms: number };

	private readonly entries = new Map<string, Entry<T>>();
	private readonly ties: TieScan[] = [];
	private readonly scannedTimes = new Set<number>();
	/** Whether the cursor-side bound turned out to include submissions at the bound. */
	private cursorInclusive = false;
	private cursor?: number;
	private previousMain?: MainPage;
	private mainDone = false;
	private stalledPages = 0;
	private pending?: Pending;
	private requests = 0;
	private largestTotal = 0;

	constructor(options: PagerOptions) {
		this.sort = options.sort;
		this.pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
		this.maxItems = options.maxItems;
		this.userAfter = SubmissionPager.bound(options.afterDate);
		this.userBefore = SubmissionPager.bound(options.beforeDate);
		if (this.maxItems !== undefined && this.maxItems <= 0) this.mainDone = true;
	}

	private static bound(text: string | undefined): { text: string; ms: number } | undefined {
		if (text === undefined) return undefined;
		return { text, ms: Date.parse(text) };
	}

	/** How many requests have been planned so far. */
	get requestCount(): number {
		return this.requests;
	}

	/** The query to send next, or undefined when everything has been read. */
	next(): PageQuery | undefined {
		if (this.pending) throw new Error('The previous page has not been received yet');
		const scan = this.ties[0];
		if (scan) {
			this.pending = { kind: 'tie', scan, query: this.tieQuery(scan) };
		} else if (!this.mainDone) {
			this.pending = { kind: 'main', query: this.mainQuery() };
		} else {
			return undefined;
		}
		this.requests++;
		// A bound that no correct service can reach: it only stops a misbehaving one.
		const cap = 50 + 4 * Math.ceil(this.largestTotal / (this.pageSize - 1 || 1));
		if (this.requests > cap) {
			throw new Error(`Paging did not finish after ${cap} requests`);
		}
		return { ...this.pending.query };
	}

	receive(answer: PageAnswer<T>): void {
		const pending = this.pending;
		if (!pending) throw new Error('No page was requested');
		this.pending = undefined;
		const responses = Array.isArray(answer.responses) ? answer.responses : [];
		const total = typeof answer.totalResponses === 'number' ? answer.totalResponses : undefined;
		if (total !== undefined) this.largestTotal = Math.max(this.largestTotal, total);
		if (pending.kind === 'main') this.receiveMain(pending.query, responses, total);
		else this.receiveTie(pending.scan, pending.query, responses, total);
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

	private get enough(): boolean {
		return this.maxItems !== undefined && this.entries.size >= this.maxItems;
	}

	private add(items: readonly T[]): Array<{ item: T; time: number }> {
		return items.map((item) => {
			const time = timeOf(item);
			if (!this.entries.has(item.submissionId)) {
				this.entries.set(item.submissionId, { item, time, order: this.entries.size });
			}
			return { item, time };
		});
	}

	/** Strictly before `b` in the requested order. */
	private before(a: number, b: number): boolean {
		return this.sort === 'asc' ? a < b : a > b;
	}

	private mainQuery(): PageQuery {
		const remaining =
			this.maxItems === undefined ? this.pageSize : this.maxItems - this.entries.size;
		const query: PageQuery = {
			limit: Math.max(1, Math.min(this.pageSize, remaining)),
			sort: this.sort,
		};
		let after = this.userAfter?.text;
		let before = this.userBefore?.text;
		if (this.cursor !== undefined) {
			// Only submissions past the cursor: the cursor itself when bounds are strict,
			// one millisecond further when they turned out to be inclusive.
			const step = this.cursorInclusive ? 1 : 0;
			if (this.sort === 'asc') after = this.tighter(after, this.cursor + step, 'after');
			else before = this.tighter(before, this.cursor - step, 'before');
		}
		if (after !== undefined) query.afterDate = after;
		if (before !== undefined) query.beforeDate = before;
		return query;
	}

	/** The stricter of the user's bound and a computed one. */
	private tighter(userText: string | undefined, ms: number, side: 'after' | 'before'): string {
		const user = side === 'after' ? this.userAfter : this.userBefore;
		if (user && userText !== undefined && !Number.isNaN(user.ms)) {
			if (side === 'after' ? user.ms >= ms : user.ms <= ms) return userText;
		}
		return isoOf(ms);
	}

	private tieQuery(scan: TieScan): PageQuery {
		// ±1 ms around the instant covers it whether bounds are strict or inclusive.
		const query: PageQuery = {
			limit: MAX_PAGE_SIZE,
			sort: this.sort,
			afterDate: this.tighter(this.userAfter?.text, scan.time - 1, 'after'),
			beforeDate: this.tighter(this.userBefore?.text, scan.time + 1, 'before'),
		};
		if (scan.offset > 0) query.offset = scan.offset;
		return query;
	}

	private scheduleTieScan(time: number): void {
		if (this.scannedTimes.has(time)) return;
		this.scannedTimes.add(time);
		const seenAtTime = [...this.entries.values()].filter((entry) => entry.time === time);
		const sentinel = seenAtTime[seenAtTime.length - 1];
		this.ties.push({
			time,
			// Re-read the last submission already seen at this instant, as a sentinel.
			offset: Math.max(0, seenAtTime.length - 1),
			sentinelId: seenAtTime.length > 1 ? sentinel.item.submissionId : undefined,
			restarts: 0,
		});
	}

	private receiveMain(query: PageQuery, responses: readonly T[], total: number | undefined): void {
		const read = this.add(responses);
		const cursor = this.cursor;

		let landedOnCursor = false;
		if (cursor !== undefined && !this.cursorInclusive) {
			landedOnCursor = read.some(({ time }) => time === cursor);
			if (landedOnCursor) this.cursorInclusive = true;
		}

		// Nothing changed and no tie was cut ⇔ this page's range lost exactly the
		// previous page. An inclusive bound re-reads the whole instant, so no check then.
		const previous = this.previousMain;
		if (previous && !landedOnCursor && previous.total !== undefined && total !== undefined) {
			if (total !== previous.total - previous.count) this.scheduleTieScan(previous.lastTime);
		}

		const full = responses.length >= query.limit;
		this.mainDone = !full || (total !== undefined && responses.length >= total) || this.enough;
		if (this.mainDone || read.length === 0) {
			this.previousMain = undefined;
			return;
		}

		const first = read[0].time;
		const last = read[read.length - 1].time;
		if (first === last) this.scheduleTieScan(last);

		if (cursor !== undefined && !this.before(cursor, last)) {
			// No progress past the cursor (only possible with an inclusive bound, now
			// known): the next query steps past it; give up if the service keeps stalling.
			this.stalledPages++;
			if (this.stalledPages > MAX_STALLED_PAGES) {
				throw new Error('Paging made no progress: the service keeps returning the same page');
			}
		} else {
			this.stalledPages = 0;
			this.cursor = last;
		}
		this.previousMain = { total, count: responses.length, lastTime: this.cursor ?? last };
	}

	private receiveTie(
		scan: TieScan,
		query: PageQuery,
		responses: readonly T[],
		total: number | undefined,
	): void {
		this.add(responses);
		if (
			scan.sentinelId !== undefined &&
			!responses.some((r) => r.submissionId === scan.sentinelId)
		) {
			// Something before the sentinel was deleted, so this page may have skipped a
			// submission: read the instant again from its start.
			scan.restarts++;
			if (scan.restarts > MAX_TIE_RESTARTS) {
				throw new Error(
					`Submissions at ${isoOf(scan.time)} kept changing while they were read; try again`,
				);
			}
			scan.offset = 0;
			scan.sentinelId = undefined;
			return;
		}
		const offset = query.offset ?? 0;
		const finished =
			responses.length < query.limit || (total !== undefined && offset + responses.length >= total);
		if (finished) {
			this.ties.shift();
			return;
		}
		scan.offset = offset + responses.length - 1;
		scan.sentinelId = responses[responses.length - 1].submissionId;
	}
}
