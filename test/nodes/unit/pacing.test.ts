import { sleep } from 'n8n-workflow';

import {
	SlidingWindowPacer,
	waitForTurn,
	type PacerSlot,
} from '../../../nodes/Fillout/transport/pacing';
import { SharedRate } from '../../../nodes/Fillout/transport/sharedRate';
import { prng } from './support/listModel';

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
		pacer.finish(slot, now + tripMs);
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

	it('counts each request from its answer', () => {
		const pacer = new SlidingWindowPacer();
		const starts = sequentialStarts(pacer, Array(11).fill(40));
		// The 6th waits for the 1st's answer (40) and a window: 1050, and so on.
		expect(starts).toEqual([0, 40, 80, 120, 160, 1050, 1090, 1130, 1170, 1210, 2100]);
	});

	it('counts a slower round trip from its later answer', () => {
		const pacer = new SlidingWindowPacer();
		const starts = sequentialStarts(pacer, [40, 40, 340, 40, 40, 40, 40, 40]);
		// The 3rd (start 80) was answered at 420: the 8th waits for 420 + 1010.
		expect(starts.slice(5)).toEqual([1050, 1090, 1430]);
	});

	it('waits for the fifth latest answer when several are in', () => {
		const pacer = new SlidingWindowPacer();
		const slots = Array.from({ length: 5 }, () => startAt(pacer, 0));
		[300, 100, 500, 200, 400].forEach((end, i) => pacer.finish(slots[i], end));
		// All five answered: the earliest answer (100) frees the 6th at 1110.
		expect(pacer.earliestStart(500)).toBe(1110);
		startAt(pacer, 1110);
		expect(pacer.earliestStart(1110)).toBe(1210);
	});

	it('counts a request that failed without an answer from when it failed', () => {
		const pacer = new SlidingWindowPacer();
		sequentialStarts(pacer, [40, 40]);
		const lost = startAt(pacer, 80);
		pacer.finish(lost, 600);
		for (const now of [600, 640, 1050, 1090]) pacer.finish(startAt(pacer, now), now + 40);
		// The lost one may have arrived just before it failed: the 8th waits for 600 + 1010
		// (from its start, 80, it would be 1090).
		expect(pacer.earliestStart(1130)).toBe(1610);
	});

	it('never counts an answer from before its start', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 100), 50);
		expect(pacer.earliestStart(100)).toBe(1110);
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
		for (const slot of [startAt(pacer, 0), startAt(pacer, 0)]) pacer.finish(slot, 100);
		expect(pacer.earliestStart(100)).toBe(1110);
	});

	it('does not wait when requests are already spread out', () => {
		const pacer = new SlidingWindowPacer();
		for (const now of [0, 300, 600, 900, 1200, 1500, 1800, 2100]) {
			pacer.finish(startAt(pacer, now), now + 20);
		}
	});

	it('forgets an answer a window after it, not before', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 0), 100);
		expect(pacer.earliestStart(1109)).toBe(1110);
		expect(pacer.earliestStart(1110)).toBe(1110);
	});

	/**
	 * Wherever in its round trip Fillout counts a request, no 1,000 ms holds more than 5
	 * counts. Randomized: seeded spells of round trips, each with its own length and its
	 * own share of the way there (a busy n8n holds requests before they leave for a while,
	 * then not), and any number in flight.
	 */
	it.each(Array.from({ length: 40 }, (_, index) => index + 1))(
		"seed %i: no window of Fillout's holds more than 5, wherever it counts",
		(seed) => {
			const random = prng(seed);
			const pacer = new SlidingWindowPacer();
			const counted: number[] = [];
			const inFlight: Array<{ slot: PacerSlot; end: number }> = [];
			let spell = { left: 0, tripMs: 0, there: 0 };
			let now = 0;
			while (counted.length < 80) {
				const at = pacer.earliestStart(now);
				const due = inFlight.sort((a, b) => a.end - b.end)[0];
				if (due && (at === undefined || at > due.end)) {
					inFlight.shift();
					now = due.end;
					pacer.finish(due.slot, due.end);
					continue;
				}
				if (spell.left-- <= 0) {
					const tripMs = random() < 0.2 ? random() * 1500 : random() * 150;
					spell = { left: 2 + Math.floor(random() * 12), tripMs, there: random() };
				}
				now = at!;
				const slot = pacer.start(now);
				const tripMs = spell.tripMs * (0.9 + 0.2 * random());
				counted.push(now + tripMs * Math.min(1, spell.there + 0.1 * random()));
				inFlight.push({ slot, end: now + tripMs });
			}
			counted.sort((a, b) => a - b);
			for (let i = 5; i < counted.length; i++)
				expect(counted[i] - counted[i - 5]).toBeGreaterThanOrEqual(1000);
		},
	);
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
		pacing.pacer.finish(first.slot, answeredAt);
		await waiting;
		// One window after the first answer, not before.
		expect(third!.start).toBeGreaterThanOrEqual(answeredAt + 30);
		pacing.pacer.finish(second.slot, performance.now());
	});

	it('wakes a request waiting for a time when an answer announces a higher limit', async () => {
		const pacing = { pacer: new SlidingWindowPacer(5, 1000), rate: new SharedRate(2) };
		const first = await waitForTurn(pacing);
		const second = await waitForTurn(pacing);
		pacing.pacer.finish(first.slot, performance.now());
		// Limit 2, one in flight, one answered: the third waits a window for the first.
		const third = waitForTurn(pacing);
		await sleep(50);
		pacing.rate.observe({ limit: 5, remaining: 3, rateLimited: false }, performance.now());
		pacing.pacer.finish(second.slot, performance.now());
		const { slot } = await third;
		expect(slot.start - first.slot.start).toBeLessThan(500);
	});

	it('slows down at once when the shared rate is cut while a request waits', async () => {
		const pacing = { pacer: new SlidingWindowPacer(5, 200), rate: new SharedRate(5, 1000) };
		const firsts = await Promise.all(Array.from({ length: 5 }, () => waitForTurn(pacing)));
		for (const { slot } of firsts) pacing.pacer.finish(slot, performance.now());
		const waiting = waitForTurn(pacing);
		// Cut while the 6th waits for the window (200 ms): it starts at the new spacing.
		pacing.rate.observe({ limit: 5, remaining: 0, rateLimited: true }, performance.now());
		expect(pacing.rate.spacingMs).toBe(500);
		const { slot } = await waiting;
		expect(slot.start - firsts[4].slot.start).toBeGreaterThanOrEqual(499);
	});
});
