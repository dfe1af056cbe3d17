/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: SHARED_SEED from the environment replays one case */
import { prng } from './support/listModel';
import { runSharedAccountModel, type ModelCase } from './support/sharedAccountModel';

/**
 * Model-based randomized test of pacing across processes: seeded cases of 1 to 4
 * processes reading from one account (fixed 1 s window, 5 requests), each with the
 * node's real pacer, shared-account gauge and 429 retry, running 1 to 3 exports at once
 * (as a worker runs several executions), random latency and start times. Invariants: no
 * request is ever given up on (every export completes) and a process alone draws no 429,
 * however many exports it runs. Bounds per case (what the model shows today): with up to
 * 5 exports on the key at most 20 % of requests draw a 429 in any case (short runs with
 * random latency and starts suffer most: the first windows, before anyone knows of the
 * others), with 6 or 7 at most 25 %. The case (3 × 67 requests at +80 ms), in 3
 * processes and in 2 (2 + 1, as on two queue-mode workers), is held to its goal on
 * average: at most 5 % 429s and 1.2× the shared floor. Replay one case with SHARED_SEED=<seed> npx jest sharedLimit.model.
 *
 * The queue-mode benchmark is judged run by run, so the spread matters as much as the
 * mean: over 100 seeded runs of the case, at most 1 run in 10 may draw more
 * than 5 % 429s. With the rule before, 2 + 1 failed that in about 1 run in 3: the
 * process with two exports filled each window alone in its first few hundred
 * milliseconds, the other's requests and retries landed in the full rest of it, 429
 * after 429, and the first never saw them.
 */

const CASES = 120;

function caseOf(seed: number): ModelCase {
	const random = prng(seed);
	const processes = 1 + Math.floor(random() * 4);
	return {
		// Up to 3 exports at once in a process, as on a worker running several executions.
		split: Array.from({ length: processes }, () => 1 + Math.floor(random() * random() * 3)),
		requestsEach: 20 + Math.floor(random() * 60),
		limit: 5,
		latencyMs: 20 + Math.floor(random() * 150),
		latencyJitterMs: Math.floor(random() * 40),
		serviceMs: 2 + Math.floor(random() * 30),
		startSpreadMs: Math.floor(random() * 2000),
		thinkMs: Math.floor(random() * 20),
	};
}

const seeds = process.env.SHARED_SEED
	? [Number(process.env.SHARED_SEED)]
	: Array.from({ length: CASES }, (_, index) => index + 1);

describe('several processes on one key (model)', () => {
	it.each(seeds)('seed %i: nothing is dropped, and 429s stay rare', (seed) => {
		const spec = caseOf(seed);
		const result = runSharedAccountModel(spec, prng(seed * 7919));
		const exports = spec.split.reduce((sum, one) => sum + one, 0);
		const expected = Array.from({ length: exports }, () => spec.requestsEach);
		expect(result.dropped).toBe(0);
		expect(result.answered).toEqual(expected);
		const share429 = result.rateLimited / result.total;
		if (spec.split.length === 1) expect(result.rateLimited).toBe(0);
		else if (exports <= 5) expect(share429).toBeLessThanOrEqual(0.2);
		else expect(share429).toBeLessThanOrEqual(0.25);
	});

	it.each([[[1, 1, 1]], [[2, 1]]])(
		'exports per process %j, 67 requests each at +80 ms: within 1.2× the shared floor, 429s at most 5 % (mean of 20 runs)',
		(split) => {
			let wall = 0;
			let share = 0;
			const runs = 20;
			for (let seed = 1; seed <= runs; seed++) {
				const spec: ModelCase = {
					split,
					requestsEach: 67,
					limit: 5,
					latencyMs: 80,
					latencyJitterMs: 20,
					serviceMs: 15,
					startSpreadMs: 50,
				};
				const result = runSharedAccountModel(spec, prng(seed));
				expect(result.dropped).toBe(0);
				wall += result.wallMs / ((3 * 67 * 1000) / 5) / runs;
				share += result.rateLimited / result.total / runs;
			}
			expect(wall).toBeLessThanOrEqual(1.2);
			expect(share).toBeLessThanOrEqual(0.05);
		},
	);
});

describe("the issue's case run by run (model)", () => {
	const runs = 100;
	const figuresOf = (split: number[], latencyJitterMs: number, thinkMs: number) => {
		let over5 = 0;
		let share = 0;
		let wall = 0;
		for (let seed = 1; seed <= runs; seed++) {
			const result = runSharedAccountModel(
				{
					split,
					requestsEach: 67,
					limit: 5,
					latencyMs: 80,
					latencyJitterMs,
					serviceMs: 15,
					startSpreadMs: 50,
					thinkMs,
				},
				prng(seed),
			);
			expect(result.dropped).toBe(0);
			const runShare = result.rateLimited / result.total;
			if (runShare > 0.05) over5++;
			share += runShare / runs;
			wall += result.wallMs / ((3 * 67 * 1000) / 5) / runs;
		}
		return { over5, share, wall };
	};

	// Latency +80 ms and up to 20 or 60 ms more; the next request at once, or up to 15 ms
	// after the answer (as traced in n8n: the node reads the page first).
	it.each([
		[[2, 1], 20, 0],
		[[2, 1], 60, 15],
		[[1, 1, 1], 20, 0],
		[[1, 1, 1], 60, 15],
	])(
		'exports per process %j, jitter %i ms, think %i ms: at most 10 of 100 runs above 5 % 429s, 2.5 % on average, within 1.25× the shared floor',
		(split, latencyJitterMs, thinkMs) => {
			const { over5, share, wall } = figuresOf(split, latencyJitterMs, thinkMs);
			expect(over5).toBeLessThanOrEqual(10);
			expect(share).toBeLessThanOrEqual(0.025);
			expect(wall).toBeLessThanOrEqual(1.25);
		},
	);

	it('two processes with two exports each (2 + 2): at most 5 % 429s on average', () => {
		expect(figuresOf([2, 2], 20, 15).share).toBeLessThanOrEqual(0.05);
	});
});
