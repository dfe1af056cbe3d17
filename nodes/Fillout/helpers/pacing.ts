/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account
 * (docs/fillout-api.md, "Rate limit").
 *
 * The service counts requests as they *arrive*, in a fixed 1 s window that opens at
 * a request. Arrival lies somewhere between when a request starts and when its answer
 * comes back, and the gap varies (the first request of a process may spend 100 ms
 * setting up before it leaves). So a sliding window of starts alone is not enough.
 * Each request is remembered by when its answer came back (the latest it can have
 * arrived), or, while still in flight, by its start plus a jitter margin; a request
 * may start only if fewer than 5 remembered times lie within the last second (plus a
 * few milliseconds for clock rounding). The first 5 requests start at once.
 */
export const FILLOUT_REQUESTS_PER_WINDOW = 5;
export const FILLOUT_WINDOW_MS = 1000;
/** Rounding between our clock and the service's millisecond timestamps. */
export const CLOCK_MARGIN_MS = 10;
/** Assumed delay between start and arrival for a request still in flight. */
export const IN_FLIGHT_MARGIN_MS = 100;

export interface PacerSlot {
	start: number;
	end?: number;
}

export class SlidingWindowPacer {
	private slots: PacerSlot[] = [];
	private lastStart = -Infinity;

	constructor(
		public limit = FILLOUT_REQUESTS_PER_WINDOW,
		readonly windowMs = FILLOUT_WINDOW_MS + CLOCK_MARGIN_MS,
		readonly inFlightMarginMs = IN_FLIGHT_MARGIN_MS,
	) {}

	/** The latest moment the request can have reached the service. */
	private latestArrival(slot: PacerSlot): number {
		return slot.end ?? slot.start + this.inFlightMarginMs;
	}

	/**
	 * Reserves the earliest start allowed at or after `now`, at least `spacingMs` after the
	 * last one reserved, and returns it with how long to wait. Reserving synchronously is
	 * what keeps concurrent callers (several executions sharing one credential) from taking
	 * the same slot. `now` comes from a monotonic clock (performance.now()).
	 */
	reserve(now: number, spacingMs = 0): { waitMs: number; slot: PacerSlot } {
		// Finished requests older than two windows no longer count; in-flight ones always do.
		this.slots = this.slots.filter(
			(slot) => slot.end === undefined || slot.end > now - 2 * this.windowMs,
		);
		let start = Math.max(now, this.lastStart + spacingMs);
		const latest = this.slots.map((slot) => this.latestArrival(slot)).sort((a, b) => b - a);
		if (latest.length >= this.limit)
			start = Math.max(start, latest[this.limit - 1] + this.windowMs);
		const slot: PacerSlot = { start };
		this.slots.push(slot);
		this.lastStart = start;
		return { waitMs: start - now, slot };
	}

	/** This process's requests in flight or answered after `since`. */
	ownSince(since: number): number {
		return this.slots.filter((slot) => slot.end === undefined || slot.end > since).length;
	}

	/** Records when the request's answer (or failure) came back. */
	finish(slot: PacerSlot, now: number): void {
		slot.end = Math.max(now, slot.start);
	}
}
