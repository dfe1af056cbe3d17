/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account.
 *
 * A sliding window: a request may start only if fewer than `limit` requests started
 * in the `windowMs` before it. The window is the service's 1 s plus a margin, so
 * that requests which start just inside our window but arrive late (network jitter)
 * still never make 6 in one of the service's fixed 1 s windows. The first `limit`
 * requests start at once.
 */
export const FILLOUT_REQUESTS_PER_WINDOW = 5;
export const FILLOUT_WINDOW_MS = 1000;
export const PACING_MARGIN_MS = 100;

export class SlidingWindowPacer {
	/** Start times handed out, ascending (some may lie in the future). */
	private readonly starts: number[] = [];

	constructor(
		readonly limit = FILLOUT_REQUESTS_PER_WINDOW,
		readonly windowMs = FILLOUT_WINDOW_MS + PACING_MARGIN_MS,
	) {}

	/**
	 * Reserves the earliest start allowed at or after `now` and returns how long to
	 * wait for it. Reserving synchronously is what keeps concurrent callers (several
	 * executions sharing one credential) from taking the same slot. `now` must come
	 * from a monotonic clock (performance.now()).
	 */
	reserve(now: number): number {
		while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
		let start = now;
		if (this.starts.length >= this.limit) {
			start = Math.max(now, this.starts[this.starts.length - this.limit] + this.windowMs);
		}
		this.starts.push(start);
		return start - now;
	}
}
