/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: PAGER_SEED from the environment replays one case */
import { probeOffsets } from '../../../nodes/Fillout/reading/rangeStarts';
import { SubmissionPager } from '../../../nodes/Fillout/reading/submissionPager';
import {
	MAX_RANGES,
	SubmissionReader,
	type ReaderRequest,
} from '../../../nodes/Fillout/reading/submissionReader';
import type { PageQuery } from '../../../nodes/Fillout/reading/pages';
import type { ListAnswer, ModelAnswer, ModelRow } from './support/listModel';
import { ListModel, prng } from './support/listModel';

/**
 * Model-based randomized test of the pager: thousands of seeded cases, each a random
 * table, service behaviour and read, with random inserts (now and back-dated), deletes,
 * edits that re-stamp `submissionTime` and no-ops between any two requests, and, for some
 * services, between the count and the page of one request; ties in a stable order or one
 * drawn anew by each request. Invariant: every submission present from the first request
 * to the last is returned exactly once, nothing is returned twice, nothing is invented,
 * the order is the requested one, and a correct service never makes the read fail, except
 * where no exact read exists (more ties than a page, in an unstable order): then the read
 * fails and says so. With an answer filter (some cases), the service lists only the search's
 * hits, churn also edits answers, and the invariant is on matches: every submission that
 * matches from the first request to the last is returned exactly once, every one returned
 * matches, and a Limit read returns as many matches as it asks for when there are.
 * Replay one case with PAGER_SEED=<seed> npx jest submissionPaging.model.
 */

const START = Date.UTC(2024, 0, 1);
const CASES = Number(process.env.PAGER_CASES ?? 3000);
/** 'rangeStarts': instants of more ties than a page where the parallel reader's ranges meet. */
type Ties = 'none' | 'all' | 'boundary' | 'random' | 'rangeStarts';

interface Case {
	seed: number;
	sort: 'asc' | 'desc';
	inclusiveBounds: boolean;
	reverseTiesWhenDesc: boolean;
	ties: Ties;
	count: number;
	pageSize: number;
	maxItems?: number;
	churn: boolean;
	garbledTimes: boolean;
	/** Ties in an order drawn anew by each request. */
	unstableTies: boolean;
	/** The count is taken before the page, and the table changes in between. */
	countFirst: boolean;
	/** Churn also re-stamps submissions (an edit moves one to the present). */
	edits: boolean;
	/** Read with several pages in flight (SubmissionReader), answered in a random order. */
	parallel: boolean;
	/** Some submissions are dated after the present, before and during the read. */
	futureDated: boolean;
	/** An answer filter: the listing narrowed by search, the pager keeping exact answers. */
	filter: boolean;
}

function caseOf(seed: number): Case {
	const random = prng(seed);
	const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
	const pageSize = pick([2, 3, 5, 10, 150]);
	const c: Case = {
		seed,
		sort: pick(['asc', 'desc'] as const),
		inclusiveBounds: random() < 0.5,
		reverseTiesWhenDesc: random() < 0.3,
		ties: pick(['none', 'all', 'boundary', 'random'] as const),
		count: Math.floor(random() * Math.min(400, pageSize * 25 + 5)),
		pageSize,
		maxItems: random() < 0.15 ? 1 + Math.floor(random() * 60) : undefined,
		churn: random() < 0.7,
		garbledTimes: random() < 0.1,
		unstableTies: random() < 0.3,
		countFirst: random() < 0.4,
		edits: random() < 0.4,
		parallel: random() < 0.6,
		futureDated: random() < 0.3,
		filter: false,
	};
	// Drawn last, so that the other cases stay what their seeds made them before.
	if (random() < 0.2) {
		c.ties = 'rangeStarts';
		// Half of them with the node's pages of 150, enough to split (600 to 1,800).
		if (random() < 0.5) c.pageSize = 150;
		const pages = 4 + Math.floor(random() * (c.pageSize === 150 ? 8 : 20));
		c.count = pages * (c.pageSize - 1) + Math.floor(random() * c.pageSize);
	}
	c.filter = random() < 0.3;
	return c;
}

function timesFor(c: Case, random: () => number): number[] {
	if (c.ties === 'rangeStarts') return rangeStartTimes(c, random);
	return Array.from({ length: c.count }, (_, i) => {
		if (c.ties === 'all') return START;
		if (c.ties === 'random') return START + Math.floor((random() * c.count) / 3) * 1000;
		// 'boundary': the two around each page boundary share an instant.
		const position = c.ties === 'boundary' && (i + 1) % c.pageSize === 0 ? i - 1 : i;
		return START + position * 1000;
	});
}

/**
 * One a second, but at the offsets where the reader probes (where a Limit read's pages
 * meet, for one that does not split), instants of more ties than a page: most start just
 * after the probe's first, so that a range starts, and the one before it ends, on them;
 * others start at the probe's first or around it.
 */
function rangeStartTimes(c: Case, random: () => number): number[] {
	const step = c.pageSize - 1;
	const ranges = Math.min(MAX_RANGES, Math.floor(c.count / (2 * step)));
	const offsets =
		ranges >= 2 && c.maxItems === undefined
			? probeOffsets(c.count, ranges, step)
			: Array.from({ length: Math.floor(c.count / step) }, (_, k) => (k + 1) * step);
	const instantOf = Array.from({ length: c.count }, (_, i) => i);
	let end = 0;
	for (const offset of offsets) {
		const size = c.pageSize + 1 + Math.floor(random() * 2 * c.pageSize);
		const shift = [1, 1, 1, 0, 2, 1 - Math.floor(size / 2)][Math.floor(random() * 6)];
		const from = Math.max(offset + shift, end);
		end = Math.min(c.count, from + size);
		for (let i = from; i < end; i++) instantOf[i] = from;
	}
	return instantOf.map((position) => START + position * 1000);
}

/**
 * Between two requests: up to three inserts, deletes, edits or no-ops, often near the last
 * page. An edit re-stamps a submission to the present, as editing it through its edit link
 * may do.
 */
function churn(
	model: ListModel,
	last: ListAnswer | undefined,
	random: () => number,
	now: { ms: number },
	edits: boolean,
	futureDated = false,
	answer?: () => ModelAnswer,
) {
	const deleted: string[] = [];
	/** Rows whose answer was edited (they may match at one request and not at another). */
	const reanswered: string[] = [];
	const editedBehindFuture: string[] = [];
	/** The instants that lost a submission (deleted, or re-stamped away). */
	const emptied: number[] = [];
	for (let k = Math.floor(random() * 4); k > 0; k--) {
		const roll = random();
		const seen = (last?.responses ?? []).filter((row) => model.rows.includes(row));
		if (answer && random() < 0.2) {
			const pool = seen.length > 0 && random() < 0.5 ? seen : model.rows;
			const edited = pool[Math.floor(random() * pool.length)];
			if (edited && model.reanswer(edited.submissionId, answer())) {
				reanswered.push(edited.submissionId);
			}
		} else if (edits && random() < 0.15) {
			const pool = seen.length > 0 && random() < 0.5 ? seen : model.rows;
			const edited = pool[Math.floor(random() * pool.length)];
			const editedAt = (now.ms += 1000);
			// Re-stamped to the present behind a submission dated later: docs/reading-submissions.md.
			const behindFuture = model.rows.some((row) => row.timeMs > editedAt);
			if (edited && model.restamp(edited.submissionId, editedAt)) {
				emptied.push(edited.timeMs);
				if (behindFuture) editedBehindFuture.push(edited.submissionId);
			}
		} else if (futureDated && roll < 0.1)
			model.add(now.ms + Math.floor(random() * 50) * 1000, undefined, answer?.());
		else if (roll < 0.2) model.add((now.ms += 1000), undefined, answer?.());
		else if (roll < 0.4) {
			// Back-dated: at an instant just read (a new tie) or anywhere in the past.
			const near = seen[Math.floor(random() * seen.length)];
			const at = near && random() < 0.6 ? near.timeMs : START + Math.floor(random() * 400) * 1000;
			model.add(at, undefined, answer?.());
		} else if (roll < 0.85) {
			const pool = seen.length > 0 && random() < 0.7 ? seen : model.rows;
			const victim = pool[Math.floor(random() * pool.length)];
			if (victim && model.remove(victim.submissionId)) {
				deleted.push(victim.submissionId);
				emptied.push(victim.timeMs);
			}
		}
	}
	return { deleted, emptied, editedBehindFuture, reanswered };
}

/** The answer filter of the model: rows answering `exact` match; `near` ones are search hits. */
const matchesFilter = (row: unknown) => (row as ModelRow).answer === 'exact';

function answerDrawer(c: Case, random: () => number): (() => ModelAnswer) | undefined {
	if (!c.filter) return undefined;
	return () => {
		const roll = random();
		return roll < 0.2 ? 'exact' : roll < 0.7 ? 'near' : 'other';
	};
}

function runCase(c: Case) {
	const random = prng(c.seed * 7 + 1);
	const model = new ListModel({
		...c,
		unstableTiesSeed: c.unstableTies ? c.seed : undefined,
		search: c.filter ? (row) => row.answer !== 'other' : undefined,
	});
	const answer = answerDrawer(c, random);
	const now = { ms: START + 10_000_000 };
	for (const time of timesFor(c, random)) {
		// Future-dated: a tenth of them after the present (an import may set any date).
		const at = c.futureDated && random() < 0.1 ? now.ms + 1000 + time - START : time;
		model.add(at, c.garbledTimes && random() < 0.2 ? pickGarbage(random) : undefined, answer?.());
	}
	const initial = model.rows.map((row) => row.submissionId);
	const initialTime = new Map(model.rows.map((row) => [row.submissionId, row.timeMs]));
	const initialRows = new Map(model.rows.map((row) => [row.submissionId, row]));
	const byId = new Map<string, ModelRow>(model.rows.map((row) => [row.submissionId, row]));
	const deleted = new Set<string>();
	const reanswered = new Set<string>();
	let error: unknown;
	const ties = new Map<number, number>();
	const emptied = new Set<number>();
	const editedBehindFuture = new Set<string>();
	const noteTies = () => {
		for (const [time, count] of tiesOf(model.rows)) {
			ties.set(time, Math.max(count, ties.get(time) ?? 0));
		}
	};
	noteTies();
	let last: ListAnswer | undefined;
	const change = () => {
		if (c.churn) {
			const changed = churn(model, last, random, now, c.edits, c.futureDated, answer);
			for (const id of changed.deleted) deleted.add(id);
			for (const id of changed.reanswered) reanswered.add(id);
			for (const time of changed.emptied) emptied.add(time);
			for (const id of changed.editedBehindFuture) editedBehindFuture.add(id);
		}
		for (const row of model.rows) byId.set(row.submissionId, row);
		noteTies();
	};
	const respond = (query: PageQuery) => {
		// Fillout may refuse a range that ends before it starts: none is ever asked for.
		if (query.afterDate !== undefined && query.beforeDate !== undefined) {
			if (Date.parse(query.afterDate) >= Date.parse(query.beforeDate))
				throw new Error(`asked for an empty range ${JSON.stringify(query)}`);
		}
		last = model.list(query, c.countFirst ? change : undefined);
		if (process.env.PAGER_TRACE) process.stdout.write(`${traceOf(query, last, model)}\n`);
		const answered = last;
		change();
		return answered;
	};
	let result: ModelRow[] = [];
	const options = { ...c, keep: c.filter ? matchesFilter : undefined };
	/** Where the parallel reader's ranges start, after the first. */
	const starts: number[] = [];
	try {
		result = c.parallel
			? readInParallel(options, respond, random, now, starts)
			: readInTurn(options, respond);
	} catch (caught) {
		error = caught;
	}
	// Instants with more submissions than a page, at some time during the read.
	const largeInstants = [...ties].filter(([, count]) => count >= c.pageSize).map(([t]) => t);
	return {
		...{ model, initial, initialTime, initialRows, byId, deleted, emptied, largeInstants },
		...{ error, result },
		...{ editedBehindFuture, starts, reanswered },
	};
}

type ReadOptions = Case & { keep?: (row: unknown) => boolean };

function readInTurn(c: ReadOptions, answer: (query: PageQuery) => ListAnswer): ModelRow[] {
	const pager = new SubmissionPager<ModelRow>(c);
	for (let query = pager.next(); query; query = pager.next()) pager.receive(answer(query));
	return pager.results();
}

/**
 * Several pages in flight, answered in a random order, each when it is answered (so one
 * sent earlier may see a later table); Fillout's `date` header is the present, in seconds.
 */
function readInParallel(
	c: ReadOptions,
	answer: (query: PageQuery) => ListAnswer,
	random: () => number,
	now: { ms: number },
	starts: number[],
): ModelRow[] {
	const reader = new SubmissionReader<ModelRow>(c);
	const { ranges } = reader as unknown as { ranges: Array<{ startMs?: number }> };
	const inFlight: ReaderRequest[] = [];
	try {
		while (!reader.finished) {
			inFlight.push(...reader.ready());
			if (inFlight.length === 0) throw new Error('The reader is waiting with nothing in flight');
			const [request] = inFlight.splice(Math.floor(random() * inFlight.length), 1);
			const served = now.ms - (now.ms % 1000);
			reader.receive(request.id, answer(request.query), served);
		}
		return reader.results();
	} finally {
		for (const { startMs } of ranges) if (startMs !== undefined) starts.push(startMs);
	}
}

function traceOf(query: object, answer: ListAnswer, model: ListModel): string {
	const rows = (list: readonly ModelRow[]) =>
		list.map((row) => `${row.submissionId}@${(row.timeMs - START) / 1000}`).join(' ');
	return `${JSON.stringify(query)} → ${answer.totalResponses}: ${rows(answer.responses)}\n  table: ${rows([...model.rows].sort((a, b) => a.timeMs - b.timeMs))}`;
}

/** How many submissions share each instant. */
function tiesOf(rows: readonly ModelRow[]): Map<number, number> {
	const counts = new Map<number, number>();
	for (const { timeMs } of rows) counts.set(timeMs, (counts.get(timeMs) ?? 0) + 1);
	return counts;
}

function pickGarbage(random: () => number): string {
	return ['', 'soon', '2024-13-45T99:00:00Z', 'yesterday at noon'][Math.floor(random() * 4)];
}

/**
 * Requests a read costs with nothing changing and no ties: the first page brings pageSize,
 * each later one pageSize - 1 (the anchor comes back first). A read that wants all there is
 * ends at a short page; one that stops at its limit, when it has that many.
 */
function floorRequests(available: number, pageSize: number, maxItems?: number): number {
	if (maxItems !== undefined && maxItems <= available) {
		return maxItems <= pageSize ? 1 : 1 + Math.ceil((maxItems - pageSize) / (pageSize - 1));
	}
	return available < pageSize ? 1 : 2 + Math.floor((available - pageSize) / (pageSize - 1));
}

/** The one failure allowed: more ties than fit in a page, listed in an unstable order. */
export const NO_EXACT_READ = /gave them in a different order from one request to the next/;

function check(c: Case): string | undefined {
	const run = runCase(c);
	const { model, initial, byId, deleted, largeInstants, error, result } = run;
	if (error) {
		const message = (error as Error).message;
		// With unreadable times next to ties, where an instant ends is unknown, too.
		const noExactRead = c.unstableTies && (largeInstants.length > 0 || c.garbledTimes);
		return noExactRead && NO_EXACT_READ.test(message) ? undefined : `failed: ${message}`;
	}
	const ids = result.map((row) => row.submissionId);
	if (new Set(ids).size !== ids.length) return 'returned a submission twice';
	const invented = ids.filter((id) => !byId.has(id));
	if (invented.length > 0) return `returned unknown ${invented.join(', ')}`;
	const unmatched = c.filter ? result.filter((row) => !matchesFilter(row)) : [];
	if (unmatched.length > 0) return `returned ${unmatched[0].submissionId}, which does not match`;
	const wanted = c.maxItems ?? Infinity;
	if (ids.length > wanted) return `returned ${ids.length}, more than the limit ${wanted}`;
	const got = new Set(ids);
	// With the filter: those matching from the first request to the last (answer never edited).
	const matchedThroughout = (id: string) =>
		!c.filter || (!run.reanswered.has(id) && matchesFilter(run.initialRows.get(id)));
	const throughout = initial.filter((id) => !deleted.has(id) && matchedThroughout(id));
	// The one loss a read may not see (docs/reading-submissions.md): more ties than a page,
	// in an order that changes, at an instant that lost submissions during the read, with
	// pages of 5 or fewer, too short to show the order changing.
	const unseeable = (id: string) => {
		const time = run.initialTime.get(id)!;
		const emptied = run.emptied.has(time);
		if (run.editedBehindFuture.has(id)) return true;
		// (With pages of 2, a deletion at the instant before it is enough: seed 9384.)
		const nearEmptied = emptied || (c.pageSize === 2 && run.emptied.size > 0);
		return c.unstableTies && c.pageSize <= 5 && largeInstants.includes(time) && nearEmptied;
	};
	const lost = throughout.filter((id) => !got.has(id) && !unseeable(id));
	if (c.maxItems === undefined && lost.length > 0) return `lost ${lost.join(', ')}`;
	if (c.maxItems !== undefined && ids.length < Math.min(wanted, throughout.length)) {
		return `returned ${ids.length} of the ${Math.min(wanted, throughout.length)} wanted`;
	}
	// In the order of the times returned (an edited one may show its time before the edit).
	const times = result.map((row) => Date.parse(row.submissionTime)).filter((ms) => !isNaN(ms));
	const sign = c.sort === 'asc' ? 1 : -1;
	for (let i = 1; i < times.length; i++) {
		if (sign * (times[i] - times[i - 1]) < 0) return `out of order at ${i}`;
	}
	if (!c.churn && !c.garbledTimes && !c.unstableTies) {
		const n = Math.min(initial.length, wanted);
		// Return All reads oldest first: newest first is that order reversed, ties included.
		const all = c.maxItems === undefined ? model.matching({ sort: 'asc' }) : model.matching(c);
		const listed = c.filter ? all.filter(matchesFilter) : all;
		if (c.maxItems === undefined && c.sort === 'desc') listed.reverse();
		const expected = listed.slice(0, Math.min(n, listed.length)).map((row) => row.submissionId);
		if (ids.join() !== expected.join()) return 'not the service’s order';
	}
	// A filtered Limit read asks for whole pages until it has its matches: no floor of its own.
	if (!c.churn && c.ties === 'none' && !c.garbledTimes && !(c.filter && c.maxItems !== undefined)) {
		const requests = model.queries.length;
		const hits = c.filter ? model.matching({ sort: 'asc' }).length : initial.length;
		const sequential = floorRequests(hits, c.pageSize, c.maxItems);
		// In parallel: the newest range's last page again, and two slots per range.
		const extra = c.parallel && c.maxItems === undefined ? 1 + Math.ceil(16 / (c.pageSize - 1)) : 0;
		const floor = sequential + extra;
		if (requests > floor) return `${requests} requests where ${floor} suffice`;
	}
	if (!c.churn && !c.unstableTies && !c.garbledTimes && c.inclusiveBounds) {
		// Inclusive bounds list each range's end too, which it does not read: no request more.
		const strict = runCase({ ...c, inclusiveBounds: false }).model.queries.length;
		const requests = model.queries.length;
		if (requests !== strict) return `${requests} requests, ${strict} with strict bounds`;
	}
	return undefined;
}

describe('SubmissionPager against a model of the list endpoint (randomized)', () => {
	const only = process.env.PAGER_SEED;
	const seeds = only ? [Number(only)] : Array.from({ length: CASES }, (_, i) => i + 1);

	it(`holds its invariant over ${seeds.length} seeded cases`, () => {
		const failures: string[] = [];
		for (const seed of seeds) {
			const c = caseOf(seed);
			const problem = check(c);
			if (problem) failures.push(`seed ${seed} ${JSON.stringify(c)}: ${problem}`);
		}
		expect(failures.slice(0, Number(process.env.PAGER_SHOW ?? 5))).toEqual([]);
	});

	it('covers every kind of case it claims to (ties, churn, both sorts and bounds, limits)', () => {
		const cases = seeds.length > 1 ? seeds.map(caseOf) : [];
		if (cases.length === 0) return;
		for (const ties of ['none', 'all', 'boundary', 'random', 'rangeStarts'] as const) {
			expect(
				cases.filter((c) => c.ties === ties && c.churn && c.count > 2 * c.pageSize).length,
			).toBeGreaterThan(50);
		}
		expect(
			cases.filter((c) => c.inclusiveBounds && c.sort === 'desc' && c.churn).length,
		).toBeGreaterThan(100);
		expect(cases.filter((c) => c.maxItems !== undefined && c.churn).length).toBeGreaterThan(100);
		expect(cases.filter((c) => c.garbledTimes && c.churn).length).toBeGreaterThan(100);
		expect(cases.filter((c) => c.filter && c.churn && c.parallel).length).toBeGreaterThan(300);
		expect(
			cases.filter((c) => c.filter && c.churn && c.maxItems !== undefined).length,
		).toBeGreaterThan(40);
		for (const kind of ['unstableTies', 'countFirst', 'edits'] as const) {
			expect(
				cases.filter((c) => c[kind] && c.churn && c.count > 2 * c.pageSize).length,
			).toBeGreaterThan(300);
		}
	});

	it('meets what it models: instants larger than a page in an unstable order, read to the end or refused', () => {
		let refused = 0;
		let exact = 0;
		for (let seed = 1; seed <= 800; seed++) {
			const c = caseOf(seed);
			if (!c.unstableTies || c.maxItems !== undefined) continue;
			const run = runCase(c);
			if (run.largeInstants.length === 0) continue;
			if (run.error) refused++;
			else exact++;
		}
		expect(refused).toBeGreaterThan(10);
		expect(exact).toBeGreaterThan(10);
	});

	it('puts instants of more than 150 ties where ranges meet, in stable and unstable orders', () => {
		const atRangeStart = { stable: 0, unstable: 0 };
		for (let seed = 1; seed <= 1200; seed++) {
			const c = caseOf(seed);
			if (c.ties !== 'rangeStarts' || c.pageSize !== 150 || !c.parallel) continue;
			const run = runCase(c);
			const ties = tiesOf([...run.byId.values()]);
			if (run.starts.some((ms) => (ties.get(ms) ?? 0) > 150)) {
				atRangeStart[c.unstableTies ? 'unstable' : 'stable']++;
			}
		}
		expect(atRangeStart.stable).toBeGreaterThan(10);
		expect(atRangeStart.unstable).toBeGreaterThan(3);
	});

	it('really changes the table between requests, and between a count and its page', () => {
		let deletions = 0;
		let countsOff = 0;
		let edits = 0;
		let answersEdited = 0;
		for (let seed = 1; seed <= 200; seed++) {
			const c = { ...caseOf(seed), churn: true, countFirst: true, edits: true };
			const { deleted, model, reanswered } = runCase(c);
			deletions += deleted.size;
			countsOff += model.countsOff;
			edits += model.restamps;
			answersEdited += reanswered.size;
		}
		expect(answersEdited).toBeGreaterThan(100);
		expect(deletions).toBeGreaterThan(500);
		expect(countsOff).toBeGreaterThan(200);
		expect(edits).toBeGreaterThan(100);
	});
});
