import type { PageQuery, PagedSubmission } from '../../../../nodes/Fillout/reading/pages';

/**
 * A model of Fillout's list endpoint (`GET /forms/{id}/submissions`) over an in-memory
 * table, for testing the pager against every behaviour the service may have: date bounds
 * strict or inclusive, ties in insertion order (or reversed when sorting newest first, or
 * shuffled anew by every request), `limit`, `offset` and `totalResponses` counted over the
 * whole matching range (by the same statement as the page, or by one before it).
 */
export interface ModelOptions {
	inclusiveBounds?: boolean;
	/** Among equal times, newest first when sorting newest first (default: insertion order). */
	reverseTiesWhenDesc?: boolean;
	/** Among equal times, an order drawn anew for every request from this seed. */
	unstableTiesSeed?: number;
	/** Lists only these rows, as Fillout's `search` does (the answer filter's narrowing). */
	search?: (row: ModelRow) => boolean;
}

/** A row's answer to the filtered question: equal to the value, holding it as text, or neither. */
export type ModelAnswer = 'exact' | 'near' | 'other';

export interface ModelRow extends PagedSubmission {
	/** The time the service sorts and filters by (what `submissionTime` normally shows). */
	timeMs: number;
	seq: number;
	answer?: ModelAnswer;
}

export interface ListAnswer {
	responses: ModelRow[];
	totalResponses: number;
}

export class ListModel {
	rows: ModelRow[] = [];
	readonly queries: PageQuery[] = [];
	/** Answers whose count differed from the range they listed from; edits made. */
	countsOff = 0;
	restamps = 0;
	private nextSeq = 0;
	private readonly tieRandom?: () => number;

	constructor(private readonly options: ModelOptions = {}) {
		if (options.unstableTiesSeed !== undefined) this.tieRandom = prng(options.unstableTiesSeed);
	}

	/** Adds a submission at `timeMs`; `shownTime` overrides the text the service returns. */
	add(timeMs: number, shownTime?: string, answer?: ModelAnswer): ModelRow {
		const seq = this.nextSeq++;
		const row: ModelRow = {
			submissionId: `s${seq}`,
			submissionTime: shownTime ?? new Date(timeMs).toISOString(),
			timeMs,
			seq,
			...(answer === undefined ? {} : { answer }),
		};
		this.rows.push(row);
		return row;
	}

	addMany(count: number, startMs: number, stepMs: number): ModelRow[] {
		return Array.from({ length: count }, (_, i) => this.add(startMs + i * stepMs));
	}

	remove(id: string): boolean {
		const before = this.rows.length;
		this.rows = this.rows.filter((row) => row.submissionId !== id);
		return this.rows.length < before;
	}

	/** An edit that re-stamps `submissionTime`: a new row object, as the service would send. */
	restamp(id: string, timeMs: number): boolean {
		const index = this.rows.findIndex((row) => row.submissionId === id);
		if (index === -1) return false;
		const row = this.rows[index];
		this.restamps++;
		this.rows[index] = { ...row, timeMs, submissionTime: new Date(timeMs).toISOString() };
		return true;
	}

	/** An edit of the answer (its time kept): a new row object, as the service would send. */
	reanswer(id: string, answer: ModelAnswer): boolean {
		const index = this.rows.findIndex((row) => row.submissionId === id);
		if (index === -1 || this.rows[index].answer === answer) return false;
		this.rows[index] = { ...this.rows[index], answer };
		return true;
	}

	/** The whole range a query selects, in the order the service lists it. */
	matching(query: Pick<PageQuery, 'sort' | 'afterDate' | 'beforeDate'>): ModelRow[] {
		const inclusive = this.options.inclusiveBounds === true;
		const after = query.afterDate === undefined ? undefined : Date.parse(query.afterDate);
		const before = query.beforeDate === undefined ? undefined : Date.parse(query.beforeDate);
		const desc = query.sort === 'desc';
		const tieSign = desc && this.options.reverseTiesWhenDesc ? -1 : 1;
		const random = this.tieRandom;
		const tieKey = random ? new Map(this.rows.map((row) => [row, random()])) : undefined;
		const tieOf = (row: ModelRow) => tieKey?.get(row) ?? row.seq;
		const search = this.options.search ?? (() => true);
		return this.rows
			.filter(search)
			.filter(({ timeMs }) => after === undefined || (inclusive ? timeMs >= after : timeMs > after))
			.filter(
				({ timeMs }) => before === undefined || (inclusive ? timeMs <= before : timeMs < before),
			)
			.sort(
				(a, b) =>
					(desc ? b.timeMs - a.timeMs : a.timeMs - b.timeMs) || tieSign * (tieOf(a) - tieOf(b)),
			);
	}

	/**
	 * One list request. With `betweenCountAndList`, the count is taken first, as a statement
	 * of its own, and the table may change before the page is listed.
	 */
	list(query: PageQuery, betweenCountAndList?: () => void): ListAnswer {
		this.queries.push(query);
		if (!(query.limit >= 1 && query.limit <= 150)) throw new Error(`limit ${query.limit} refused`);
		const counted = betweenCountAndList ? this.matching(query).length : undefined;
		betweenCountAndList?.();
		const all = this.matching(query);
		const offset = query.offset ?? 0;
		const totalResponses = counted ?? all.length;
		if (totalResponses !== all.length) this.countsOff++;
		return { responses: all.slice(offset, offset + query.limit), totalResponses };
	}
}

/** Deterministic pseudo-random numbers (mulberry32), so a failing case replays from its seed. */
export function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
	};
}
