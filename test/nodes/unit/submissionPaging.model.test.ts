/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: PAGER_SEED from the environment replays one case */
import { SubmissionPager } from '../../../nodes/Fillout/helpers/submissionPaging';
import type { ListAnswer, ModelRow } from './support/listModel';
import { ListModel, prng } from './support/listModel';

/**
 * Model-based randomized test of the pager: thousands of seeded cases, each a random
 * table, service behaviour and read, with random inserts (now and back-dated), deletes
 * and no-ops between any two requests. Invariant: every submission present from the
 * first request to the last is returned exactly once, nothing is returned twice, nothing
 * is invented, the order is the requested one, and a correct service never makes the
 * read fail. Replay one case with PAGER_SEED=<seed> npx jest submissionPaging.model.
 */

const START = Date.UTC(2024, 0, 1);
const CASES = 3000;
type Ties = 'none' | 'all' | 'boundary' | 'random';

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
}

function caseOf(seed: number): Case {
	const random = prng(seed);
	const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
	const pageSize = pick([2, 3, 5, 10, 150]);
	return {
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
	};
}

function timesFor(c: Case, random: () => number): number[] {
	return Array.from({ length: c.count }, (_, i) => {
		if (c.ties === 'all') return START;
		if (c.ties === 'random') return START + Math.floor((random() * c.count) / 3) * 1000;
		// 'boundary': the two around each page boundary share an instant.
		const position = c.ties === 'boundary' && (i + 1) % c.pageSize === 0 ? i - 1 : i;
		return START + position * 1000;
	});
}

/** Between two requests: up to three inserts, deletes or no-ops, often near the last page. */
function churn(model: ListModel, last: ListAnswer, random: () => number, now: { ms: number }) {
	const deleted: string[] = [];
	for (let k = Math.floor(random() * 4); k > 0; k--) {
		const roll = random();
		const seen = last.responses.filter((row) => model.rows.includes(row));
		if (roll < 0.2) model.add((now.ms += 1000));
		else if (roll < 0.4) {
			// Back-dated: at an instant just read (a new tie) or anywhere in the past.
			const near = seen[Math.floor(random() * seen.length)];
			model.add(near && random() < 0.6 ? near.timeMs : START + Math.floor(random() * 400) * 1000);
		} else if (roll < 0.85) {
			const pool = seen.length > 0 && random() < 0.7 ? seen : model.rows;
			const victim = pool[Math.floor(random() * pool.length)];
			if (victim && model.remove(victim.submissionId)) deleted.push(victim.submissionId);
		}
	}
	return deleted;
}

function runCase(c: Case) {
	const random = prng(c.seed * 7 + 1);
	const model = new ListModel(c);
	for (const time of timesFor(c, random)) {
		model.add(time, c.garbledTimes && random() < 0.2 ? pickGarbage(random) : undefined);
	}
	const initial = model.rows.map((row) => row.submissionId);
	const byId = new Map<string, ModelRow>(model.rows.map((row) => [row.submissionId, row]));
	const deleted = new Set<string>();
	const now = { ms: START + 10_000_000 };
	const pager = new SubmissionPager<ModelRow>(c);
	let error: unknown;
	try {
		for (let query = pager.next(); query; query = pager.next()) {
			const answer = model.list(query);
			if (c.churn) for (const id of churn(model, answer, random, now)) deleted.add(id);
			for (const row of model.rows) byId.set(row.submissionId, row);
			pager.receive(answer);
		}
	} catch (caught) {
		error = caught;
	}
	return { model, initial, byId, deleted, error, result: error ? [] : pager.results() };
}

function pickGarbage(random: () => number): string {
	return ['', 'soon', '2024-13-45T99:00:00Z', 'yesterday at noon'][Math.floor(random() * 4)];
}

/** Requests a read of n submissions costs with nothing changing. */
function floorRequests(n: number, pageSize: number): number {
	return n <= pageSize ? 1 : 1 + Math.ceil((n - pageSize) / (pageSize - 1));
}

function check(c: Case): string | undefined {
	const { model, initial, byId, deleted, error, result } = runCase(c);
	if (error) return `failed: ${(error as Error).message}`;
	const ids = result.map((row) => row.submissionId);
	if (new Set(ids).size !== ids.length) return 'returned a submission twice';
	const invented = ids.filter((id) => !byId.has(id));
	if (invented.length > 0) return `returned unknown ${invented.join(', ')}`;
	const wanted = c.maxItems ?? Infinity;
	if (ids.length > wanted) return `returned ${ids.length}, more than the limit ${wanted}`;
	const got = new Set(ids);
	const throughout = initial.filter((id) => !deleted.has(id));
	const lost = throughout.filter((id) => !got.has(id));
	if (c.maxItems === undefined && lost.length > 0) return `lost ${lost.join(', ')}`;
	if (c.maxItems !== undefined && ids.length < Math.min(wanted, throughout.length)) {
		return `returned ${ids.length} of the ${Math.min(wanted, throughout.length)} wanted`;
	}
	const times = result.filter((row) => !Number.isNaN(Date.parse(row.submissionTime)));
	const sign = c.sort === 'asc' ? 1 : -1;
	for (let i = 1; i < times.length; i++) {
		if (sign * (times[i].timeMs - times[i - 1].timeMs) < 0) return `out of order at ${i}`;
	}
	if (!c.churn && !c.garbledTimes) {
		const n = Math.min(initial.length, wanted);
		const expected = model
			.matching(c)
			.slice(0, n)
			.map((row) => row.submissionId);
		if (ids.join() !== expected.join()) return 'not the service’s order';
		const requests = model.queries.length;
		if (requests > floorRequests(n, c.pageSize)) {
			return `${requests} requests where ${floorRequests(n, c.pageSize)} suffice`;
		}
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
		expect(failures.slice(0, 5)).toEqual([]);
	});

	it('covers every kind of case it claims to (ties, churn, both sorts and bounds, limits)', () => {
		const cases = seeds.length > 1 ? seeds.map(caseOf) : [];
		if (cases.length === 0) return;
		for (const ties of ['none', 'all', 'boundary', 'random'] as const) {
			expect(
				cases.filter((c) => c.ties === ties && c.churn && c.count > 2 * c.pageSize).length,
			).toBeGreaterThan(50);
		}
		expect(
			cases.filter((c) => c.inclusiveBounds && c.sort === 'desc' && c.churn).length,
		).toBeGreaterThan(100);
		expect(cases.filter((c) => c.maxItems !== undefined && c.churn).length).toBeGreaterThan(100);
		expect(cases.filter((c) => c.garbledTimes && c.churn).length).toBeGreaterThan(100);
	});

	it('really changes the table between requests (deletes at the page just read)', () => {
		let deletions = 0;
		for (let seed = 1; seed <= 200; seed++) {
			const c = { ...caseOf(seed), churn: true };
			deletions += runCase(c).deleted.size;
		}
		expect(deletions).toBeGreaterThan(500);
	});
});
