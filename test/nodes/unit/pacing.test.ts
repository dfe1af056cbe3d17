import { SlidingWindowPacer } from '../../../nodes/Fillout/transport/pacing';

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
		// The 6th waits for the 1st answer (40) + 1010; later ones likewise.
		expect(starts).toEqual([0, 40, 80, 120, 160, 1050, 1090, 1130, 1170, 1210, 2100]);
		for (let i = 5; i < starts.length; i++) {
			// A request cannot arrive before it starts nor after its answer: any 1 s holds ≤ 5.
			expect(starts[i] - (starts[i - 5] + 40)).toBeGreaterThanOrEqual(1000);
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
		expect(pacer.reserve(400).waitMs).toBe(300 + 1010 - 400);
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
