import {
	DECREASE_FACTOR,
	FIRST_DECREASE_FACTOR,
	INCREASE_SHARE,
	MIN_RATE_SHARE,
	readLimitSignal,
	SharedRate,
} from '../../../nodes/Fillout/transport/sharedRate';

const ok = (remaining: number) => ({ limit: 5, remaining, rateLimited: false });
const refused = { limit: 5, remaining: 0, rateLimited: true };

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
		const rate = new SharedRate();
		expect(rate.rate).toBe(5);
		expect(rate.spacingMs).toBe(0);
		// Answers that fill the window itself (remaining 0) never slow it down.
		for (let i = 0; i < 50; i++) rate.observe(ok(i % 5 === 4 ? 0 : 4 - (i % 5)), i * 200);
		expect(rate.rate).toBe(5);
		expect(rate.spacingMs).toBe(0);
	});

	it('cuts on a 429 by a constant factor (deeper at the ceiling), once per window however many 429s that window drew', () => {
		const rate = new SharedRate();
		expect(FIRST_DECREASE_FACTOR).toBeLessThan(DECREASE_FACTOR);
		expect(DECREASE_FACTOR).toBeLessThan(1);
		rate.observe(refused, 0);
		const first = 5 * FIRST_DECREASE_FACTOR;
		expect(rate.rate).toBeCloseTo(first, 10);
		expect(rate.spacingMs).toBeCloseTo(1000 / first, 6);
		rate.observe(refused, 500);
		rate.observe(refused, 999);
		expect(rate.rate).toBeCloseTo(first, 10);
		rate.observe(refused, 1000);
		expect(rate.rate).toBeCloseTo(first * DECREASE_FACTOR, 10);
	});

	it('adds a share of the limit for each request the window still had free', () => {
		const rate = new SharedRate();
		rate.observe(refused, 0);
		const cut = 5 * FIRST_DECREASE_FACTOR;
		const step = INCREASE_SHARE * 5;
		expect(step).toBeGreaterThan(0);
		rate.observe(ok(3), 10);
		expect(rate.rate).toBeCloseTo(cut + 3 * step, 10);
		rate.observe(ok(0), 20); // the window full: nothing added, nothing taken
		expect(rate.rate).toBeCloseTo(cut + 3 * step, 10);
		// No headers at all (a service that sends none): as if one request were free.
		rate.observe({ rateLimited: false }, 30);
		expect(rate.rate).toBeCloseTo(cut + 4 * step, 10);
		for (let i = 0; i < 1000; i++) rate.observe(ok(1), 40 + i);
		expect(rate.rate).toBe(5);
	});

	it("cuts nothing for the pacer's own refusal, nor for the other 429s of its window", () => {
		const rate = new SharedRate();
		rate.observe(refused, 0, true);
		rate.observe(refused, 300);
		rate.observe(refused, 999);
		expect(rate.rate).toBe(5);
		// A window later, a 429 is another process's doing.
		rate.observe(refused, 1000);
		expect(rate.rate).toBeCloseTo(5 * FIRST_DECREASE_FACTOR, 10);
	});

	it('leaves the rate alone on a 429 that says the window still has room (another limit)', () => {
		const rate = new SharedRate();
		rate.observe({ limit: 5, remaining: 3, rateLimited: true }, 0);
		expect(rate.rate).toBe(5);
		rate.observe(refused, 10);
		const cut = rate.rate;
		expect(cut).toBeLessThan(5);
		rate.observe({ limit: 5, remaining: 3, rateLimited: true }, 2000);
		expect(rate.rate).toBe(cut);
	});

	it('never falls below its floor, so a refused request is still tried again', () => {
		const rate = new SharedRate();
		for (let window = 0; window < 40; window++) rate.observe(refused, window * 1000);
		expect(rate.rate).toBe(MIN_RATE_SHARE * 5);
		expect(rate.spacingMs).toBe(20_000);
	});

	it('takes the limit the service announces as its ceiling, keeping its share of it', () => {
		const rate = new SharedRate();
		rate.observe(refused, 0);
		rate.observe({ limit: 10, remaining: 4, rateLimited: false }, 10);
		expect(rate.limit).toBe(10);
		// The same share of the new limit, then 4 free requests' worth of it.
		expect(rate.rate).toBeCloseTo(10 * FIRST_DECREASE_FACTOR + 4 * INCREASE_SHARE * 10, 10);
		for (let i = 0; i < 1000; i++)
			rate.observe({ limit: 10, remaining: 1, rateLimited: false }, 20 + i);
		expect(rate.rate).toBe(10);
		rate.observe({ limit: 2, remaining: 1, rateLimited: false }, 2000);
		expect(rate.limit).toBe(2);
		expect(rate.rate).toBe(2);
	});
});
