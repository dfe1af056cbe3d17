/**
 * Small statistics for the benchmark table: the request floor the rate limit sets,
 * and median / percentiles of latencies (nearest-rank, so every figure is one that
 * was measured).
 */

/** Requests per second Fillout allows, per account. */
export const REQUESTS_PER_SECOND = 5;

const WINDOW_MS = 1000;

export interface FloorOptions {
	/** Requests a window holds. */
	perSecond?: number;
	/** The least a request takes from its start to its answer. */
	roundTripMs?: number;
}

/**
 * The least requests and time a transfer of `count` records, `perRequest` at a time,
 * needs. Fillout counts requests in fixed one-second windows: the first opens at the
 * first request, the next at the first request after it ends. The requests go one after
 * another (a page needs the previous answer; an import sends one request at a time),
 * each taking `roundTripMs`. So the time is not requests / 5: the last window opens
 * after whole seconds and need not be waited out (67 requests: 13 s and two round
 * trips, not 13.4 s).
 */
export function requestFloor(
	count: number,
	perRequest: number,
	{ perSecond = REQUESTS_PER_SECOND, roundTripMs = 0 }: FloorOptions = {},
): { requests: number; seconds: number } {
	const requests = Math.max(1, Math.ceil(count / perRequest));
	let now = 0;
	let windowStart = 0;
	let inWindow = 0;
	for (let request = 0; request < requests; request++) {
		if (now - windowStart >= WINDOW_MS) {
			windowStart = now;
			inWindow = 0;
		} else if (inWindow === perSecond) {
			now = windowStart + WINDOW_MS;
			windowStart = now;
			inWindow = 0;
		}
		inWindow++;
		now += roundTripMs;
	}
	return { requests, seconds: now / 1000 };
}

/**
 * The p-th percentile (0 < p ≤ 100) by nearest rank: the smallest value with at least
 * p% of the values at or below it. Undefined for no values.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
	if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
	const finite = values.filter((value) => Number.isFinite(value));
	if (!finite.length) return undefined;
	const sorted = [...finite].sort((a, b) => a - b);
	const rank = Math.ceil((p / 100) * sorted.length);
	return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** The median: the middle value, or the mean of the two middle values. */
export function median(values: readonly number[]): number | undefined {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
	if (!sorted.length) return undefined;
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function max(values: readonly number[]): number | undefined {
	return values.length ? values.reduce((a, b) => (b > a ? b : a)) : undefined;
}

/** a / b, or undefined when either is missing or b is 0. */
export function ratio(a: number | undefined, b: number | undefined): number | undefined {
	if (a === undefined || b === undefined || b === 0) return undefined;
	return a / b;
}
