/**
 * Return All with several pages in flight. The first page gives Fillout's count; pages at
 * offsets spread over the count then split the submissions by time into ranges, each read
 * by its own SubmissionPager, side by side. Ranges meet at an instant's first submission,
 * so none shares an instant with another; the newest range ends last, so a submission an
 * edit moves to the present is still read. docs/reading-submissions.md gives the argument.
 * Planner only: the caller sends what `next()` (or, all at once, `ready()`) gives and hands
 * each answer to `receive()`.
 */

import {
	MAX_PAGE_SIZE,
	isoOf,
	timeOf,
	type PageAnswer,
	type PageQuery,
	type PagedSubmission,
} from './pages';
import { afterDateOf, probeOffsets, rangeStarts, responsesOf, type Probe } from './rangeStarts';
import { SubmissionPager, type PagerOptions } from './submissionPager';

/** Ranges at most: each has one page in flight at a time, so more than 5 keep 5 in flight. */
export const MAX_RANGES = 8;

export interface ReaderRequest {
	id: number;
	query: PageQuery;
	/** Lower first: the range with the fewest pages sent so far, then the oldest. */
	rank: number;
}

interface Range<T extends PagedSubmission> {
	/** The range holds the times from `startMs` (inclusive) to `endMs` (exclusive). */
	startMs?: number;
	endMs?: number;
	pager: SubmissionPager<T>;
	/** Pages asked for after its first: ranges take turns, so they end together. */
	sent: number;
	busy: boolean;
}

export class SubmissionReader<T extends PagedSubmission> {
	private readonly options: PagerOptions;
	private readonly pageSize: number;
	private readonly probes: Array<Probe<T>> = [];
	private readonly ranges: Array<Range<T>> = [];
	private readonly waiting = new Map<number, (answer: PageAnswer<T>) => void>();
	/** Requests made while handling an answer, sent with the next `ready()`. */
	private outbox: ReaderRequest[] = [];
	/** Requests `ready()` gave that `next()` has not handed out yet. */
	private queue: ReaderRequest[] = [];
	private lastId = 0;
	private started = false;
	/**
	 * Boundaries later than this are not used: an edit may move a submission to the present.
	 * The first answer's, so that ranges made as their probes come in agree.
	 */
	private presentMs = Infinity;

	/** `maySplit(count)`: whether a read of `count` submissions may be split into ranges. */
	constructor(
		options: PagerOptions,
		private readonly maySplit: (count: number) => boolean = () => true,
	) {
		this.options = options;
		this.pageSize = Math.max(2, Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE));
		// A Limit read stops at its limit: one pager, in the order asked for.
		if (options.maxItems !== undefined) this.addRange(new SubmissionPager<T>(options));
	}

	get finished(): boolean {
		if (this.options.maxItems === undefined && !this.started) return false;
		if (this.probes.some((probe) => !probe.answer)) return false;
		return this.ranges.length > 0 && this.ranges.every(isFinished);
	}

	/**
	 * The request to send next, or undefined while none can be sent: the lowest rank
	 * first, so that ranges take turns and end together, the newest last.
	 */
	next(): ReaderRequest | undefined {
		this.queue = [...this.queue, ...this.ready()].sort((a, b) => a.rank - b.rank);
		return this.queue.shift();
	}

	/** The queries that can be sent now (none while every range waits for an answer). */
	ready(): ReaderRequest[] {
		if (!this.started && this.options.maxItems === undefined) {
			this.started = true;
			const first: PageQuery = { limit: this.pageSize, sort: 'asc', ...this.userBounds() };
			return [this.request(first, 0, (answer) => this.receiveFirstPage(first, answer))];
		}
		const requests = this.outbox;
		this.outbox = [];
		for (const [index, range] of this.ranges.entries()) {
			if (range.busy || isFinished(range)) continue;
			const query = range.pager.next();
			if (!query) continue;
			range.busy = true;
			const rank = ++range.sent * MAX_RANGES + index;
			requests.push(
				this.request(query, rank, (answer) => {
					range.busy = false;
					range.pager.receive(answer);
				}),
			);
		}
		return requests;
	}

	/** `servedAtMs`: when Fillout answered (its `date` header), for the first page. */
	receive(id: number, answer: PageAnswer<T>, servedAtMs?: number): void {
		const handle = this.waiting.get(id);
		if (!handle) throw new Error(`No page ${id} was requested`);
		this.waiting.delete(id);
		if (servedAtMs !== undefined && this.presentMs === Infinity) this.presentMs = servedAtMs;
		handle(answer);
	}

	/** Everything read, each submission once, in the requested order. */
	results(): T[] {
		return this.inOrder(this.ranges);
	}

	/**
	 * What was read of the listing's start, in the requested order: the ranges read to
	 * their end, then what was read of the first that was not.
	 */
	prefix(): T[] {
		const first = this.probes[0]?.answer;
		if (this.ranges.length === 0 && first && this.options.maxItems === undefined) {
			// Still finding where ranges start: the first page is the listing's start.
			const keep = this.options.keep ?? (() => true);
			return responsesOf(first).filter(
				(item, index, all) =>
					all.findIndex((other) => other.submissionId === item.submissionId) === index &&
					keep(item),
			);
		}
		const open = this.ranges.findIndex((range) => !isFinished(range));
		return this.inOrder(open === -1 ? this.ranges : this.ranges.slice(0, open + 1));
	}

	private request(
		query: PageQuery,
		rank: number,
		handle: (answer: PageAnswer<T>) => void,
	): ReaderRequest {
		const id = ++this.lastId;
		this.waiting.set(id, handle);
		return { id, query: { ...query }, rank };
	}

	/** The first page: read on alone, or spread pages over Fillout's count to split by. */
	private receiveFirstPage(query: PageQuery, answer: PageAnswer<T>): void {
		this.probes.push({ query, answer });
		const count = typeof answer.totalResponses === 'number' ? answer.totalResponses : 0;
		const step = this.pageSize - 1;
		// A range takes at least two pages, each later one bringing pageSize - 1 new.
		const ranges = Math.min(MAX_RANGES, Math.floor(count / (2 * step)));
		const full = Array.isArray(answer.responses) && answer.responses.length >= this.pageSize;
		if (ranges >= 2 && full && this.maySplit(count)) {
			for (const [index, offset] of probeOffsets(count, ranges, step).entries()) {
				const k = index + 1;
				const probe: Probe<T> = { query: { ...query, offset } };
				this.probes.push(probe);
				this.outbox.push(
					this.request(probe.query, k, (probeAnswer) => {
						probe.answer = probeAnswer;
						this.createRanges();
					}),
				);
			}
		}
		this.createRanges();
	}

	/**
	 * Creates each range once its start and end are known (its probe and the next are in),
	 * the newest once every probe is.
	 */
	private createRanges(): void {
		const unanswered = this.probes.findIndex((probe) => !probe.answer);
		const probes = unanswered === -1 ? this.probes : this.probes.slice(0, unanswered);
		const starts = rangeStarts(probes, this.options, this.presentMs);
		const known = unanswered === -1 ? starts.length : starts.length - 1;
		for (let k = this.ranges.length; k < known; k++) {
			const start = starts[k];
			const endMs = starts[k + 1]?.timeMs;
			const top = k === starts.length - 1;
			const pager: SubmissionPager<T> = new SubmissionPager<T>({
				...this.options,
				sort: 'asc',
				pageSize: this.pageSize,
				afterDate: afterDateOf(start.timeMs, this.options.afterDate),
				// Strict or inclusive: with inclusive bounds the pager stops at the first of `endMs`.
				beforeDate: endMs === undefined ? this.options.beforeDate : isoOf(endMs),
				endMs,
				mayEnd: top ? (): boolean => this.othersFinished(pager) : undefined,
			});
			this.addRange(pager, start.timeMs, endMs);
			// Fillout's count is the first page's range's: it goes with that page alone.
			const total = k === 0 ? this.probes[0].answer?.totalResponses : undefined;
			pager.receiveFirst(start.query, { responses: start.responses, totalResponses: total });
		}
	}

	private othersFinished(pager: SubmissionPager<T>): boolean {
		return this.ranges.every((range) => range.pager === pager || isFinished(range));
	}

	private addRange(pager: SubmissionPager<T>, startMs?: number, endMs?: number): Range<T> {
		const range = { pager, startMs, endMs, sent: 0, busy: false };
		this.ranges.push(range);
		return range;
	}

	private userBounds(): Pick<PageQuery, 'afterDate' | 'beforeDate'> {
		const { afterDate, beforeDate } = this.options;
		return {
			...(afterDate === undefined ? {} : { afterDate }),
			...(beforeDate === undefined ? {} : { beforeDate }),
		};
	}

	/** The ranges' submissions, each range's own only, once each, in the requested order. */
	private inOrder(ranges: ReadonlyArray<Range<T>>): T[] {
		const seen = new Set<string>();
		const items: T[] = [];
		for (const range of ranges) {
			for (const item of range.pager.results()) {
				const time = timeOf(item);
				const outside =
					time !== undefined &&
					((range.startMs !== undefined && time < range.startMs) ||
						(range.endMs !== undefined && time >= range.endMs));
				if (outside || seen.has(item.submissionId)) continue;
				seen.add(item.submissionId);
				items.push(item);
			}
		}
		const limited = this.options.maxItems !== undefined;
		return !limited && this.options.sort === 'desc' ? items.reverse() : items;
	}
}

function isFinished<T extends PagedSubmission>(range: Range<T>): boolean {
	return range.pager.finished;
}
