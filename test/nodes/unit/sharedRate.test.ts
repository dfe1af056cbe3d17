import { readLimitSignal, SharedRate } from '../../../nodes/Fillout/transport/sharedRate';

const ok = (remaining: number) => ({ limit: 5, remaining, rateLimited: false });
const refused = { limit: 5, remaining: 0, rateLimited: true };

/** A shared rate on a fake clock: `at(ms)` sets it (the figures below are literal). */
function rateOnClock(limit = 5) {
	let clock = 0;
	const rate = new SharedRate(limit, 1000, () => clock);
	return {
		rate,
		at: (ms: number) => {
			clock = ms;
			return rate;
		},
		/** Observes at `ms` and leaves the clock there. */
		observe: (signal: Parameters<SharedRate['observe']>[0], ms: number, own = false) => {
			clock = ms;
			rate.observe(signal, ms, own);
		},
	};
}

describe('readLimitSignal', () => {
	it('reads the announced limit and what remains, and marks a 429', () => {
		const headers: Record<string, string> = {
			'ratelimit-limit': '10',
			'ratelimit-remaining': '2',
			'ratelimit-reset': '1',
		};
		expect(readLimitSignal((name) => headers[name], 200)).toEqual({
			limit: 10,
			remaining: 2,
			rateLimited: false,
		});
		expect(readLimitSignal(() => undefined, 429)).toEqual({
			limit: undefined,
			remaining: undefined,
			rateLimited: true,
		});
	});

	it('leaves out unreadable values and a limit below one request', () => {
		for (const [limit, remaining] of [
			['x', 'y'],
			['0', ''],
			['-3', ' '],
			['', '-1'],
		]) {
			const headers: Record<string, string> = {
				'ratelimit-limit': limit,
				'ratelimit-remaining': remaining,
			};
			expect(readLimitSignal((name) => headers[name], 200)).toEqual({
				limit: undefined,
				remaining: undefined,
				rateLimited: false,
			});
		}
	});
});

describe('SharedRate (additive increase, multiplicative decrease)', () => {
	it('starts at the limit with no spacing: one process alone is paced by the pacer only', () => {
		const { rate, observe } = rateOnClock();
		expect(rate.rate).toBe(5);
		expect(rate.spacingMs).toBe(0);
		// Answers that fill the window itself (remaining 0) never slow it down.
		for (let i = 0; i < 50; i++) observe(ok(i % 5 === 4 ? 0 : 4 - (i % 5)), i * 200);
		expect(rate.rate).toBe(5);
		expect(rate.spacingMs).toBe(0);
	});

	it('cuts on a 429 to 40 % at the limit, then by 30 %, once per window however many 429s that window drew', () => {
		const { rate, observe } = rateOnClock();
		observe(refused, 0);
		expect(rate.rate).toBeCloseTo(2, 10);
		expect(rate.spacingMs).toBeCloseTo(500, 6);
		observe(refused, 500);
		observe(refused, 999);
		expect(rate.rate).toBeCloseTo(2, 10);
		observe(refused, 1000);
		expect(rate.rate).toBeCloseTo(1.4, 10);
		expect(rate.spacingMs).toBeCloseTo(714.285714, 5);
	});

	it('adds 0.015 (0.3 % of 5) for each request the window still had free', () => {
		const { rate, observe } = rateOnClock();
		observe(refused, 0);
		observe(ok(3), 10);
		expect(rate.rate).toBeCloseTo(2.045, 10);
		observe(ok(0), 20); // the window full: nothing added, nothing taken
		expect(rate.rate).toBeCloseTo(2.045, 10);
		// No headers at all (a service that sends none): as if one request were free.
		observe({ rateLimited: false }, 30);
		expect(rate.rate).toBeCloseTo(2.06, 10);
		// 100 answers with one free: 1.5 more, then up to the limit and no further.
		for (let i = 0; i < 100; i++) observe(ok(1), 40 + i);
		expect(rate.rate).toBeCloseTo(3.56, 10);
		for (let i = 0; i < 100; i++) observe(ok(1), 300 + i);
		expect(rate.rate).toBe(5);
	});

	it("cuts nothing for the pacer's own refusal, nor for the other 429s of its window", () => {
		const { rate, observe } = rateOnClock();
		observe(refused, 0, true);
		observe(refused, 300);
		observe(refused, 999);
		expect(rate.rate).toBe(5);
		// A window later, a 429 is another process's doing.
		observe(refused, 1000);
		expect(rate.rate).toBeCloseTo(2, 10);
	});

	it('leaves the rate alone on a 429 that says the window still has room (another limit)', () => {
		const { rate, observe } = rateOnClock();
		observe({ limit: 5, remaining: 3, rateLimited: true }, 0);
		expect(rate.rate).toBe(5);
		observe(refused, 10);
		expect(rate.rate).toBeCloseTo(2, 10);
		observe({ limit: 5, remaining: 3, rateLimited: true }, 2000);
		expect(rate.rate).toBeCloseTo(2, 10);
		// Nor does such a 429 count as the window's cut: a refusal right after it cuts.
		observe(refused, 2500);
		expect(rate.rate).toBeCloseTo(1.4, 10);
	});

	it('never falls below its floor of 0.05 (a request every 20 s), so a refused request is still tried again', () => {
		const { rate, observe } = rateOnClock();
		for (let window = 0; window < 40; window++) observe(refused, window * 1000);
		expect(rate.rate).toBe(0.05);
		expect(rate.spacingMs).toBe(20_000);
	});

	it("believes an announced limit only up to Fillout's documented 5, and a lower one as it is", () => {
		const { rate, observe } = rateOnClock();
		observe({ limit: 1000, remaining: 990, rateLimited: false }, 0);
		expect(rate.limit).toBe(5);
		expect(rate.rate).toBe(5);
		observe(refused, 10);
		observe({ limit: 10, remaining: 4, rateLimited: false }, 20);
		expect(rate.limit).toBe(5);
		// 2 and 4 free requests' worth of 5: 0.06.
		expect(rate.rate).toBeCloseTo(2.06, 10);
		// A lower limit: the same share of it (2.06 of 5 is 0.824 of 2).
		observe({ limit: 2, remaining: 0, rateLimited: false }, 30);
		expect(rate.limit).toBe(2);
		expect(rate.rate).toBeCloseTo(0.824, 10);
		for (let i = 0; i < 1000; i++) observe({ limit: 2, remaining: 1, rateLimited: false }, 40 + i);
		expect(rate.rate).toBe(2);
		observe({ limit: 5, remaining: 0, rateLimited: false }, 2000);
		expect(rate.limit).toBe(5);
		expect(rate.rate).toBe(5);
	});
});

describe('SharedRate climbs back with time once the cuts stop', () => {
	/** Cut to the floor: a 429 in each of 40 windows, the last at 39 s. */
	function atFloor() {
		const clocked = rateOnClock();
		for (let window = 0; window < 40; window++) clocked.observe(refused, window * 1000);
		expect(clocked.rate.rate).toBe(0.05);
		return clocked;
	}

	it('after a quiet hour it is back at the limit (a read three hours later goes at full speed)', () => {
		const { at } = atFloor();
		expect(at(39_000 + 3_600_000).rate).toBe(5);
		expect(at(39_000 + 3 * 3_600_000).spacingMs).toBe(0);
	});

	it('stays put for 30 s after the last cut, then gains 0.05 a second (1 % of 5)', () => {
		const { at } = atFloor();
		expect(at(39_000 + 29_999).rate).toBe(0.05);
		expect(at(69_000).rate).toBeCloseTo(0.05, 10);
		expect(at(79_000).rate).toBeCloseTo(0.55, 10);
		expect(at(79_000).spacingMs).toBeCloseTo(1818.1818, 3);
		expect(at(69_000 + 99_000).rate).toBeCloseTo(5, 10);
		expect(at(69_000 + 200_000).rate).toBe(5);
	});

	it('keeps what time gave when an answer comes, and adds the answer to it', () => {
		const { rate, observe } = atFloor();
		observe(ok(2), 79_000);
		expect(rate.rate).toBeCloseTo(0.58, 10);
		observe(ok(0), 80_000);
		expect(rate.rate).toBeCloseTo(0.63, 10);
	});

	it("a steady stream of other processes' 429s (one every 20 s for an hour) keeps it at the floor", () => {
		const { rate, observe } = atFloor();
		for (let at = 59_000; at <= 39_000 + 3_600_000; at += 20_000) {
			observe(refused, at);
			expect(rate.rate).toBe(0.05);
		}
	});

	it("the pacer's own refusals hold it back for 30 s too, but cut nothing", () => {
		const { rate, observe, at } = atFloor();
		observe(refused, 60_000, true);
		expect(rate.rate).toBeCloseTo(0.05, 10);
		expect(at(90_000).rate).toBeCloseTo(0.05, 10);
		expect(at(100_000).rate).toBeCloseTo(0.55, 10);
	});
});
