import { sleep } from 'n8n-workflow';

import {
	SlidingWindowPacer,
	waitForTurn,
	type PacerSlot,
} from '../../../nodes/Fillout/transport/pacing';
import { SharedRate } from '../../../nodes/Fillout/transport/sharedRate';

/** Starts a request at `now` if the pacer allows it then, and returns its slot. */
function startAt(pacer: SlidingWindowPacer, now: number, spacingMs = 0): PacerSlot {
	expect(pacer.earliestStart(now, spacingMs)).toBe(now);
	return pacer.start(now);
}

/** Requests one after another, each answered `tripMs` after its start: their starts. */
function sequentialStarts(pacer: SlidingWindowPacer, trips: number[]): number[] {
	let now = 0;
	return trips.map((tripMs) => {
		now = pacer.earliestStart(now) ?? NaN;
		const slot = pacer.start(now);
		pacer.finish(slot, now + tripMs, true);
		const started = now;
		now += tripMs;
		return started;
	});
}

describe('SlidingWindowPacer', () => {
	it('lets the first 5 requests start at once, then waits for answers', () => {
		const pacer = new SlidingWindowPacer();
		for (let i = 0; i < 5; i++) startAt(pacer, 0);
		// In flight, a request may still be on its way: it holds its place until its answer.
		expect(pacer.earliestStart(5_000)).toBeUndefined();
	});

	it('counts a request from its start when its round trip is the quickest', () => {
		const pacer = new SlidingWindowPacer();
		const starts = sequentialStarts(pacer, Array(11).fill(40));
		// Once two warm round trips of 40 are known, 40 is the quickest: each request counts
		// from its start, the 1st too (its answer, 40, less 40).
		expect(starts).toEqual([0, 40, 80, 120, 160, 1010, 1050, 1090, 1130, 1170, 2020]);
		for (let i = 5; i < starts.length; i++)
			expect(starts[i] - starts[i - 5]).toBeGreaterThanOrEqual(1010);
	});

	it('counts a slower round trip later by as much as it was slower', () => {
		const pacer = new SlidingWindowPacer();
		const starts = sequentialStarts(pacer, [40, 40, 340, 40, 40, 40, 40, 40]);
		// The 3rd (start 80) took 300 more than the quickest: it counts from 380, so the
		// 8th waits for 380 + 1010, while the 6th and 7th wait only for the 1st and 2nd.
		expect(starts.slice(5)).toEqual([1010, 1050, 1390]);
	});

	it('counts requests started before any answer from their answers, and learns nothing from them', () => {
		const pacer = new SlidingWindowPacer();
		// Five at once, each setting up its own connection (300 ms), then warm ones of 40.
		const cold = Array.from({ length: 5 }, () => startAt(pacer, 0));
		cold.forEach((slot, i) => pacer.finish(slot, 300 + i, true));
		// Not from 300 less the quickest: none is known, and these are no measure of it.
		expect(pacer.earliestStart(300)).toBe(1310);
	});

	it('takes the quickest round trip less its lead over the second, once two warm ones are known', () => {
		const pacer = new SlidingWindowPacer();
		const cold = [startAt(pacer, 0), startAt(pacer, 0)];
		pacer.finish(cold[0], 300, true);
		pacer.finish(cold[1], 301, true);
		const warm = [startAt(pacer, 310), startAt(pacer, 310), startAt(pacer, 310)];
		pacer.finish(warm[0], 350, true);
		// One warm round trip (40) is no minimum yet: all count from their answers.
		expect(pacer.earliestStart(352)).toBe(300 + 1010);
		pacer.finish(warm[1], 355, true);
		// Two, 40 and 45: the quickest may still be 5 too slow, so each counts from its
		// answer less 35 (the cold ones too: their own slowness shows in their answers).
		expect(pacer.earliestStart(400)).toBe(265 + 1010);
	});

	it('counts from the answer, no later, while the quickest leads the second by more than itself', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 3;
		sequentialStarts(pacer, [40, 40, 100]);
		// Round trips of 40 and 100: nothing known to subtract, and nothing added either.
		expect(pacer.earliestStart(180)).toBe(40 + 1010);
	});

	it('never counts a request from before its start', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 3;
		pacer.finish(startAt(pacer, 0), 10, true);
		const warm = [startAt(pacer, 10), startAt(pacer, 10)];
		for (const slot of warm) pacer.finish(slot, 310, true);
		// A lead of 300 would put the first (answered at 10) at -290: it counts from 0.
		expect(pacer.earliestStart(310)).toBe(1010);
	});

	it('counts a request that failed without an answer from when it failed', () => {
		const pacer = new SlidingWindowPacer();
		sequentialStarts(pacer, [40, 40]);
		const lost = startAt(pacer, 80);
		pacer.finish(lost, 600, false);
		for (const now of [600, 640, 1010, 1050]) pacer.finish(startAt(pacer, now), now + 40, true);
		// The lost one may have arrived just before it failed: the 9th waits for 600 + 1010
		// (from its start, 80, it would be 1090).
		expect(pacer.earliestStart(1090)).toBe(1610);
	});

	it('keeps starts at least the spacing apart', () => {
		const pacer = new SlidingWindowPacer();
		startAt(pacer, 0, 400);
		expect(pacer.earliestStart(100, 400)).toBe(400);
		startAt(pacer, 400, 400);
		expect(pacer.earliestStart(2000, 400)).toBe(2000);
	});

	it('follows a limit changed after it was made (the service announces its own)', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 2;
		for (const slot of [startAt(pacer, 0), startAt(pacer, 0)]) pacer.finish(slot, 100, false);
		expect(pacer.earliestStart(100)).toBe(1110);
	});

	it('does not wait when requests are already spread out', () => {
		const pacer = new SlidingWindowPacer();
		for (const now of [0, 300, 600, 900, 1200, 1500, 1800, 2100]) {
			pacer.finish(startAt(pacer, now), now + 20, true);
		}
	});
});

describe('waitForTurn', () => {
	it('wakes a request waiting on the requests in flight when one is answered', async () => {
		// The pacer takes its limit from the rate (the limit the service announces): 2.
		const pacing = { pacer: new SlidingWindowPacer(5, 30), rate: new SharedRate(2) };
		const first = await waitForTurn(pacing);
		const second = await waitForTurn(pacing);
		let third: PacerSlot | undefined;
		const waiting = waitForTurn(pacing).then(({ slot }) => (third = slot));
		await sleep(50);
		expect(third).toBeUndefined();
		const answeredAt = performance.now();
		pacing.pacer.finish(first.slot, answeredAt, false);
		await waiting;
		// One window after the first answer, not before.
		expect(third!.start).toBeGreaterThanOrEqual(answeredAt + 30);
		pacing.pacer.finish(second.slot, performance.now(), true);
	});

	it('wakes a request waiting for a time when answers make it earlier', async () => {
		const pacing = { pacer: new SlidingWindowPacer(3, 1000), rate: new SharedRate(3) };
		const cold = await waitForTurn(pacing);
		const t0 = cold.slot.start;
		await sleep(500);
		pacing.pacer.finish(cold.slot, t0 + 500, true);
		const warm = [(await waitForTurn(pacing)).slot, (await waitForTurn(pacing)).slot];
		// Counted from its answer, the cold one holds the 4th back until t0 + 1500.
		const fourth = waitForTurn(pacing);
		await sleep(300);
		pacing.pacer.finish(warm[0], warm[0].start + 300, true);
		pacing.pacer.finish(warm[1], warm[1].start + 301, true);
		// Two warm round trips (300, 301): the cold one now counts from about t0 + 201.
		const { slot } = await fourth;
		expect(slot.start).toBeLessThan(t0 + 1400);
		expect(slot.start).toBeGreaterThanOrEqual(t0 + 1190);
	});

	it('learns nothing from a request that failed without an answer', () => {
		const pacer = new SlidingWindowPacer();
		sequentialStarts(pacer, [40, 40, 45]);
		pacer.finish(startAt(pacer, 125), 130, false);
		pacer.finish(startAt(pacer, 130), 170, true);
		// The quickest two are 40 and 40 (a failure after 5 ms is no round trip): the 1st
		// counts from its start, and the lost one from when it failed.
		expect(pacer.earliestStart(170)).toBe(1010);
	});

	it('slows down at once when the shared rate is cut while a request waits', async () => {
		const pacing = { pacer: new SlidingWindowPacer(5, 200), rate: new SharedRate(5, 1000) };
		const firsts = await Promise.all(Array.from({ length: 5 }, () => waitForTurn(pacing)));
		for (const { slot } of firsts) pacing.pacer.finish(slot, performance.now(), false);
		const waiting = waitForTurn(pacing);
		// Cut while the 6th waits for the window (200 ms): it starts at the new spacing.
		pacing.rate.observe({ limit: 5, remaining: 0, rateLimited: true }, performance.now());
		expect(pacing.rate.spacingMs).toBe(500);
		const { slot } = await waiting;
		expect(slot.start - firsts[4].slot.start).toBeGreaterThanOrEqual(499);
	});
});
