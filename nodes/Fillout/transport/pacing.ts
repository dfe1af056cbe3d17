import { sleep } from 'n8n-workflow';

import { SharedRate } from './sharedRate';

/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account
 * (docs/fillout-api.md, "Rate limit"). A request counts from its answer less the quickest
 * round trip seen (how much later than the quickest it came back); while in flight it
 * holds its place. Why that keeps within the limit: docs/rate-limits.md, "The pacer".
 */
export const FILLOUT_REQUESTS_PER_WINDOW = 5;
export const FILLOUT_WINDOW_MS = 1000;
/** Rounding between our clock and the service's, and the jitter of the quickest round trip. */
export const CLOCK_MARGIN_MS = 10;

export interface PacerSlot {
	start: number;
	end?: number;
	/** The service answered (an HTTP status, errors included), rather than the network failing. */
	answered?: boolean;
	/** Started after an earlier answer: its round trip had no connection to set up first. */
	warm: boolean;
}

export class SlidingWindowPacer {
	private slots: PacerSlot[] = [];
	private lastStart = -Infinity;
	private firstAnswerAt = Infinity;
	/** The two quickest round trips (start to answer) of warm requests. */
	private quickestTwo = [Infinity, Infinity];
	private answerWaiters: Array<() => void> = [];

	constructor(
		public limit = FILLOUT_REQUESTS_PER_WINDOW,
		readonly windowMs = FILLOUT_WINDOW_MS + CLOCK_MARGIN_MS,
	) {}

	/**
	 * The latest moment the service can have counted the request, less the quickest way
	 * there (which every request takes): undefined while it is in flight.
	 */
	private countedBy(slot: PacerSlot): number | undefined {
		if (slot.end === undefined) return undefined;
		if (!slot.answered) return slot.end;
		return Math.max(slot.start, slot.end - this.quickestLeadMs());
	}

	/**
	 * The quickest warm round trip, less the margin by which it beat the second quickest:
	 * the first round trips of a busy start are slow, and the quickest of few may still
	 * be well above what a request takes. Nothing before two are known.
	 */
	private quickestLeadMs(): number {
		const [quickest, second] = this.quickestTwo;
		return Number.isFinite(second) ? Math.max(0, 2 * quickest - second) : 0;
	}

	/**
	 * The earliest start at or after `now` (a monotonic clock, performance.now()), at least
	 * `spacingMs` after the last start; undefined while requests in flight fill the window.
	 */
	earliestStart(now: number, spacingMs = 0): number | undefined {
		this.slots = this.slots.filter(
			(slot) => slot.end === undefined || slot.end > now - 2 * this.windowMs,
		);
		const counted: number[] = [];
		let inFlight = 0;
		for (const slot of this.slots) {
			const at = this.countedBy(slot);
			if (at === undefined) inFlight++;
			else counted.push(at);
		}
		const free = this.limit - inFlight;
		if (free <= 0) return undefined;
		counted.sort((a, b) => b - a);
		let start = Math.max(now, this.lastStart + spacingMs);
		if (counted.length >= free) start = Math.max(start, counted[free - 1] + this.windowMs);
		return start;
	}

	/** Records a request handed to n8n now. Call only when `earliestStart` allows `now`. */
	start(now: number): PacerSlot {
		const slot: PacerSlot = { start: now, warm: now >= this.firstAnswerAt };
		this.slots.push(slot);
		this.lastStart = now;
		return slot;
	}

	/** Records when the request's answer (or network failure) came back. */
	finish(slot: PacerSlot, now: number, answered: boolean): void {
		slot.end = Math.max(now, slot.start);
		slot.answered = answered;
		if (answered) {
			this.firstAnswerAt = Math.min(this.firstAnswerAt, slot.end);
			if (slot.warm) {
				const trip = slot.end - slot.start;
				this.quickestTwo = [...this.quickestTwo, trip].sort((a, b) => a - b).slice(0, 2);
			}
		}
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
