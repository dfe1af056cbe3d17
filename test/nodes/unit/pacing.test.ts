import { SlidingWindowPacer, type PacerSlot } from '../../../nodes/Fillout/transport/pacing';

describe('SlidingWindowPacer', () => {
	it('lets the first 5 requests start at once', () => {
		const pacer = new SlidingWindowPacer();
		expect(Array.from({ length: 5 }, () => pacer.reserve(0).waitMs)).toEqual([0, 0, 0, 0, 0]);
	});

	it('starts the 6th one window after the 1st request’s answer (sequential requests)', () => {
		const pacer = new SlidingWindowPacer();
		let now = 0;
		const starts: number[] = [];
		for (let i = 0; i < 11; i++) {
			const { waitMs, slot } = pacer.reserve(now);
			now += waitMs;
			starts.push(now);
			now += 40; // each answer takes 40 ms
			pacer.finish(slot, now);
		}
		// Each answer takes as long as the quickest: each request counts from its start.
		expect(starts).toEqual([0, 40, 80, 120, 160, 1010, 1050, 1090, 1130, 1170, 2020]);
		for (let i = 5; i < starts.length; i++) {
			// Arriving the same time after its start, any 1 s of arrivals holds ≤ 5.
			expect(starts[i] - starts[i - 5]).toBeGreaterThanOrEqual(1000);
		}
	});

	it('keeps starts at least the spacing apart, concurrent callers included', () => {
		const pacer = new SlidingWindowPacer();
		const waits = Array.from({ length: 4 }, () => pacer.reserve(0, 400).waitMs);
		expect(waits).toEqual([0, 400, 800, 1200]);
		// Spacing counts from the last start reserved, not from now.
		expect(pacer.reserve(2000, 400).waitMs).toBe(0);
		expect(pacer.reserve(2100, 400).waitMs).toBe(300);
	});

	it('follows a limit changed after it was made (the service announces its own)', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 2;
		expect(Array.from({ length: 3 }, () => pacer.reserve(0).waitMs)).toEqual([0, 0, 1110]);
	});

	it('counts a slow first request by when its answer came, not when it started', () => {
		const pacer = new SlidingWindowPacer();
		const first = pacer.reserve(0).slot;
		pacer.finish(first, 300); // e.g. connection set-up before it reached the service
		for (let i = 0; i < 4; i++) pacer.finish(pacer.reserve(300 + i).slot, 310 + i);
		// Its answer less the quickest answer (10 ms): taken to have arrived at 290.
		expect(pacer.reserve(400).waitMs).toBe(290 + 1010 - 400);
	});

	it('at 1 s per answer, counts each request near its start: 5 starts per 1,110 ms, not per 2,010', () => {
		const pacer = new SlidingWindowPacer();
		const starts: number[] = [];
		const pending: Array<{ slot: PacerSlot; end: number }> = [];
		let now = 0;
		for (let i = 0; i < 15; i++) {
			// Answers that came back by now are recorded before the next start is reserved.
			for (const done of pending.filter((p) => p.end <= now)) pacer.finish(done.slot, done.end);
			pending.splice(0, pending.length, ...pending.filter((p) => p.end > now));
			const { waitMs, slot } = pacer.reserve(now);
			now += waitMs;
			starts.push(now);
			pending.push({ slot, end: now + 1000 });
		}
		// While all five are in flight each counts from its start + 100 ms; before, each
		// counted from its answer, and 15 starts took 2 × 2,010 ms.
		expect(starts[5] - starts[0]).toBe(1110);
		expect(starts[14] - starts[0]).toBeLessThanOrEqual(2 * 1110 + 4 * 200);
		for (let i = 5; i < starts.length; i++)
			expect(starts[i] - starts[i - 5]).toBeGreaterThanOrEqual(1000);
	});

	it('gives concurrent callers different slots, counting in-flight requests by start + margin', () => {
		const pacer = new SlidingWindowPacer();
		const waits = Array.from({ length: 7 }, () => pacer.reserve(500).waitMs);
		expect(waits).toEqual([0, 0, 0, 0, 0, 1110, 1110]);
	});

	it('does not wait when requests are already spread out', () => {
		const pacer = new SlidingWindowPacer();
		const waits = [0, 300, 600, 900, 1200, 1500, 1800, 2100].map((now) => {
			const { waitMs, slot } = pacer.reserve(now);
			pacer.finish(slot, now + 20);
			return waitMs;
		});
		expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
	});
});
