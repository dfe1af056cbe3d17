import { sleep } from 'n8n-workflow';

import { SharedRate } from './sharedRate';

/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account
 * (docs/fillout-api.md, "Rate limit"). Fillout counts a request somewhere between its
 * start and its answer, so a request counts from its answer, and while in flight it holds
 * its place: no assumption about where in the round trip Fillout counts. Why no rule can
 * safely do better: docs/rate-limits.md, "The pacer".
 */
export const FILLOUT_REQUESTS_PER_WINDOW = 5;
export const FILLOUT_WINDOW_MS = 1000;
/** Rounding between our clock and the service's. */
export const CLOCK_MARGIN_MS = 10;

export interface PacerSlot {
	start: number;
	/** When its answer (or network failure) came back: undefined while in flight. */
	end?: number;
}

export class SlidingWindowPacer {
	private slots: PacerSlot[] = [];
	private lastStart = -Infinity;
	private answerWaiters: Array<() => void> = [];

	constructor(
		public limit = FILLOUT_REQUESTS_PER_WINDOW,
		readonly windowMs = FILLOUT_WINDOW_MS + CLOCK_MARGIN_MS,
	) {}

	/**
	 * The earliest start at or after `now` (a monotonic clock, performance.now()), at least
	 * `spacingMs` after the last start; undefined while requests in flight fill the window.
	 */
	earliestStart(now: number, spacingMs = 0): number | undefined {
		this.slots = this.slots.filter(
			(slot) => slot.end === undefined || slot.end > now - this.windowMs,
		);
		const answers = this.slots.flatMap((slot) => (slot.end === undefined ? [] : [slot.end]));
		const free = this.limit - (this.slots.length - answers.length);
		if (free <= 0) return undefined;
		answers.sort((a, b) => b - a);
		let start = Math.max(now, this.lastStart + spacingMs);
		if (answers.length >= free) start = Math.max(start, answers[free - 1] + this.windowMs);
		return start;
	}

	/** Records a request handed to n8n now. Call only when `earliestStart` allows `now`. */
	start(now: number): PacerSlot {
		const slot: PacerSlot = { start: now };
		this.slots.push(slot);
		this.lastStart = now;
		return slot;
	}

	/** Records when the request's answer (or network failure) came back. */
	finish(slot: PacerSlot, now: number): void {
		slot.end = Math.max(now, slot.start);
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}

	/** Resolves at the next `finish`: a start can only come earlier then. */
	async nextFinish(): Promise<void> {
		return await new Promise((resolve) => this.answerWaiters.push(resolve));
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

/**
 * Waits until a request may start within the announced limit and this process's
 * shared-key rate, and records its start. Decided when due, not when queued, so every
 * answer and every change of the shared rate counts.
 */
export async function waitForTurn({ pacer, rate }: Pacing) {
	const from = performance.now();
	for (;;) {
		pacer.limit = rate.limit;
		const now = performance.now();
		const at = pacer.earliestStart(now, rate.spacingMs);
		if (at !== undefined && at <= now) return { slot: pacer.start(now), waitMs: now - from };
		const answered = pacer.nextFinish();
		await (at === undefined ? answered : Promise.race([answered, sleep(at - now)]));
	}
}
