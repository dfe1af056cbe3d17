/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: LINE_SEED from the environment replays one case */
import { sleep } from 'n8n-workflow';

import { SlidingWindowPacer, waitForTurn } from '../../../nodes/Fillout/transport/pacing';
import { SharedRate } from '../../../nodes/Fillout/transport/sharedRate';
import { prng } from './support/listModel';

/**
 * Model-based randomized test of the credential's line with requests that stop (their
 * deadline, their execution cancelled), under jest's fake timers: seeded asks, deadlines,
 * cancels and round trips, on whole milliseconds so that events coincide. Invariants: every
 * request settles; a request starts only before its last start and while its execution
 * runs, and the requests that start do so in the order they asked; a request that stops
 * leaves at that moment; afterwards the line is free (a new request starts at once).
 * Replay one case with LINE_SEED=<seed> npx jest line.model.
 */

interface Asked {
	order: number;
	askedAt: number;
	lastStartAt: number;
	execution: number;
	startedAt?: number;
	settledAt?: number;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const seeds = process.env.LINE_SEED
	? [Number(process.env.LINE_SEED)]
	: Array.from({ length: 40 }, (_, index) => index + 1);

it.each(seeds)('seed %i: the line lets stopped requests go and never stalls', async (seed) => {
	const random = prng(seed);
	const int = (below: number) => Math.floor(random() * below);
	const pacing = { pacer: new SlidingWindowPacer(), rate: new SharedRate() };
	const began = performance.now();
	const executions = Array.from({ length: 3 }, () => new AbortController());
	const cancelAt = executions.map(() => (random() < 0.3 ? Infinity : int(4_000)));
	cancelAt.forEach((at, execution) => {
		if (at < Infinity) setTimeout(() => executions[execution].abort(), at);
	});
	const asked: Asked[] = [];
	const askTimes = Array.from({ length: 25 }, () => int(2_000)).sort((a, b) => a - b);
	const runs = askTimes.map(async (askAt) => {
		await sleep(askAt);
		const request: Asked = {
			order: asked.length,
			askedAt: performance.now() - began,
			lastStartAt: performance.now() - began + 200 + int(2_800),
			execution: int(3),
		};
		asked.push(request);
		const { signal } = executions[request.execution];
		const turn = await waitForTurn(pacing, { lastStartAt: began + request.lastStartAt, signal });
		request.settledAt = performance.now() - began;
		if (!turn) return;
		request.startedAt = request.settledAt;
		await sleep(int(400));
		pacing.pacer.finish(turn.slot, performance.now(), true);
	});
	await jest.advanceTimersByTimeAsync(10_000);
	await Promise.all(runs);

	expect(asked).toHaveLength(25);
	for (const request of asked) {
		const stopAt = Math.min(request.lastStartAt, cancelAt[request.execution]);
		expect(request.settledAt).toBeDefined();
		if (request.startedAt !== undefined) expect(request.startedAt).toBeLessThan(stopAt);
		else expect(request.settledAt).toBe(Math.max(request.askedAt, stopAt));
	}
	const started = asked.filter((request) => request.startedAt !== undefined);
	expect(started.map((request) => request.order)).toEqual(
		[...started].sort((a, b) => a.startedAt! - b.startedAt!).map((request) => request.order),
	);
	// The line is free: a request asked now, with the window long empty, starts at once.
	const now = performance.now();
	let turn: Awaited<ReturnType<typeof waitForTurn>> | undefined;
	void waitForTurn(pacing, { lastStartAt: now + 120_000 }).then((late) => (turn = late));
	await jest.advanceTimersByTimeAsync(0);
	expect(turn?.slot.start).toBe(now);
});
