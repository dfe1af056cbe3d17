import { SlidingWindowPacer } from '../../../nodes/Fillout/helpers/pacing';

/** Start times the pacer hands out for requests asked for at the given times. */
function starts(pacer: SlidingWindowPacer, askedAt: number[]): number[] {
	return askedAt.map((now) => now + pacer.reserve(now));
}

describe('SlidingWindowPacer', () => {
	it('lets the first 5 requests start at once, then one window (1 s + margin) later', () => {
		const pacer = new SlidingWindowPacer();
		expect(pacer.windowMs).toBe(1100);
		expect(starts(pacer, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])).toEqual([
			0, 0, 0, 0, 0, 1100, 1100, 1100, 1100, 1100, 2200,
		]);
	});

	it('never has more than 5 starts in any window', () => {
		const pacer = new SlidingWindowPacer();
		const asked = Array.from({ length: 60 }, (_, i) => Math.floor(i * 97.3) % 3000);
		asked.sort((a, b) => a - b);
		const given = starts(pacer, asked).sort((a, b) => a - b);
		for (let i = 5; i < given.length; i++) {
			expect(given[i] - given[i - 5]).toBeGreaterThanOrEqual(1100);
		}
		// And waits only as much as needed: a start is either when asked or forced by the window.
		given.forEach((start, i) => {
			expect(start === asked[i] || (i >= 5 && start === given[i - 5] + 1100)).toBe(true);
		});
	});

	it('gives concurrent callers different slots (reservations are taken at once)', () => {
		const pacer = new SlidingWindowPacer();
		const waits = Array.from({ length: 7 }, () => pacer.reserve(500));
		expect(waits).toEqual([0, 0, 0, 0, 0, 1100, 1100]);
		// At 1650 the window holds only the two started at 1600: three more may start.
		expect([1650, 1650, 1650, 1650].map((now) => pacer.reserve(now))).toEqual([
			0,
			0,
			0,
			2700 - 1650,
		]);
	});

	it('does not wait when requests are already spread out', () => {
		const pacer = new SlidingWindowPacer();
		expect(starts(pacer, [0, 300, 600, 900, 1200, 1500, 1800, 2100])).toEqual([
			0, 300, 600, 900, 1200, 1500, 1800, 2100,
		]);
	});
});
