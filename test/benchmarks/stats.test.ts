import { median, percentile, ratio, requestFloor } from '../../benchmarks/stats';
import { statsSince } from '../../benchmarks/fixtures';

describe('benchmark stats', () => {
	describe('requestFloor: fixed one-second windows of 5, the first opening at the first request', () => {
		it('the floors of issue 6 with no round trip: the last window opens after whole seconds', () => {
			// 67 requests: 13 full windows, then 2 more at 13 s; 100: the 20th window opens at 19 s.
			expect(requestFloor(10_000, 150)).toEqual({ requests: 67, seconds: 13 });
			expect(requestFloor(1_000, 10)).toEqual({ requests: 100, seconds: 19 });
			expect(requestFloor(5, 1)).toEqual({ requests: 5, seconds: 0 });
			expect(requestFloor(6, 1)).toEqual({ requests: 6, seconds: 1 });
		});

		it('requests one after another, each a round trip: the last window’s follow one another', () => {
			// The benchmark's 80 ms: 13 s + 2 round trips, 19 s + 5.
			expect(requestFloor(10_000, 150, { roundTripMs: 80 })).toEqual({
				requests: 67,
				seconds: 13.16,
			});
			expect(requestFloor(1_000, 10, { roundTripMs: 80 })).toEqual({
				requests: 100,
				seconds: 19.4,
			});
			expect(requestFloor(0, 150, { roundTripMs: 80 })).toEqual({ requests: 1, seconds: 0.08 });
		});

		it('round trips so slow that a window never fills: the round trips alone', () => {
			// 4 requests fit in each window (0, 0.3, 0.6, 0.9 s); the 5th opens the next one.
			expect(requestFloor(10, 1, { roundTripMs: 300 })).toEqual({ requests: 10, seconds: 3 });
			expect(requestFloor(10, 1, { roundTripMs: 1500 })).toEqual({ requests: 10, seconds: 15 });
		});

		it('another limit', () => {
			expect(requestFloor(100, 1, { perSecond: 10 })).toEqual({ requests: 100, seconds: 9 });
		});
	});

	it('median of odd and even counts, unsorted input, non-finite values ignored', () => {
		expect(median([3, 1, 2])).toBe(2);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([5, Number.NaN])).toBe(5);
		expect(median([])).toBeUndefined();
	});

	it('percentile by nearest rank', () => {
		const hundred = Array.from({ length: 100 }, (_, index) => 100 - index); // 100 … 1
		expect(percentile(hundred, 99)).toBe(99);
		expect(percentile(hundred, 100)).toBe(100);
		expect(percentile(hundred, 50)).toBe(50);
		expect(percentile(hundred, 1)).toBe(1);
		// 500 values: the 495th smallest
		const fiveHundred = Array.from({ length: 500 }, (_, index) => index + 1);
		expect(percentile(fiveHundred, 99)).toBe(495);
		expect(percentile([7], 99)).toBe(7);
		expect(percentile([], 99)).toBeUndefined();
		expect(() => percentile([1], 0)).toThrow(RangeError);
	});

	it('ratio is undefined without a divisor', () => {
		expect(ratio(3, 2)).toBe(1.5);
		expect(ratio(3, 0)).toBeUndefined();
		expect(ratio(undefined, 2)).toBeUndefined();
	});
});

describe('statsSince: only the requests a run made', () => {
	it('subtracts the counters read before the run, route by route', () => {
		const before = { total: 2, rateLimited: 1, requests: { 'GET /forms/:formId': 1, 'GET /x': 1 } };
		const after = {
			total: 104,
			rateLimited: 1,
			requests: { 'GET /forms/:formId': 1, 'GET /x': 1, 'POST /submissions': 100, 'GET /y': 2 },
		};
		expect(statsSince(after, before)).toEqual({
			total: 102,
			rateLimited: 0,
			requests: { 'POST /submissions': 100, 'GET /y': 2 },
		});
	});
});
