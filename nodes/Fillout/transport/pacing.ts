import { sleep } from 'n8n-workflow';

import { SharedRate } from './sharedRate';

/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account
 * (docs/fillout-api.md, "Rate limit"). A request counts from when its answer came back
 * (the latest it can have arrived) or, in flight, from its start plus a margin: why, in
 * docs/rate-limits.md, "The pacer".
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

	/** Records when the request's answer (or failure) came back. */
	finish(slot: PacerSlot, now: number): void {
		slot.end = Math.max(now, slot.start);
	}
}

/**
 * How one credential's requests are paced in this process: the pacer keeps this process
 * within the limit, the rate slows it down when other processes use the same account.
 */
export interface Pacing {
	pacer: SlidingWindowPacer;
	rate: SharedRate;
}

/** One per credential and API root, shared by every execution in this process. */
const pacings = new Map<string, Pacing>();

export function pacingFor(credentialKey: string): Pacing {
	let pacing = pacings.get(credentialKey);
	if (!pacing) {
		pacing = { pacer: new SlidingWindowPacer(), rate: new SharedRate() };
		pacings.set(credentialKey, pacing);
	}
	return pacing;
}

/** Waits for a start within the announced limit and this process's shared-key rate. */
export async function waitForTurn({ pacer, rate }: Pacing) {
	pacer.limit = rate.limit;
	const { waitMs, slot } = pacer.reserve(performance.now(), rate.spacingMs);
	if (waitMs > 0) await sleep(waitMs);
	return { slot, waitMs };
}
