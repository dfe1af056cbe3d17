import { NEVER, stopped, waitUntil, type Stop } from './deadline';
import { Lead } from './lead';
import { isWindowRefusal, SharedRate, type LimitSignal } from './sharedRate';

/**
 * Client-side pacing for Fillout's limit of 5 requests per second per account
 * (docs/fillout-api.md, "Rate limit"). An answered warm request counts from its answer less
 * the lead (lead.ts): the quickest warm round trip seen, less a margin each refusal it caused
 * widens for a while. A cold one, and any with no lead, from its answer, which holds wherever
 * in the round trip Fillout counts. While in flight, a request holds its place. Why:
 * docs/rate-limits.md, "The pacer".
 */
export const FILLOUT_REQUESTS_PER_WINDOW = 5;
export const FILLOUT_WINDOW_MS = 1000;
/** Rounding between our clock and the service's. */
export const CLOCK_MARGIN_MS = 10;

export interface PacerSlot {
	start: number;
	/** When its answer (or network failure) came back: undefined while in flight. */
	end?: number;
	/** Fillout answered (any HTTP status), rather than the network failing. */
	answered?: boolean;
	/** Started after an answer had come back: no connection to set up first. */
	warm: boolean;
	/** The lead let it start before counting from answers would have. */
	early: boolean;
}

export class SlidingWindowPacer {
	private slots: PacerSlot[] = [];
	private lastStart = -Infinity;
	private firstAnswerAt = Infinity;
	private readonly lead = new Lead();
	private answerWaiters: Array<() => void> = [];
	/** Requests behind the one waiting for its start, in the order they asked. */
	private line: Array<() => void> = [];
	private lineTaken = false;

	constructor(
		public limit = FILLOUT_REQUESTS_PER_WINDOW,
		readonly windowMs = FILLOUT_WINDOW_MS + CLOCK_MARGIN_MS,
	) {}

	/** How long before its answer a request is taken to have been counted, at `now`. */
	leadAt(now: number): number {
		return this.lead.at(now);
	}

	/**
	 * The latest moment Fillout is taken to have counted it: undefined while in flight. A
	 * cold request counts from its answer: it came back alone while the lead was learned
	 * from warm ones answered together, so the lead may overstate its way back.
	 */
	private countedBy(slot: PacerSlot, leadMs: number): number | undefined {
		if (slot.end === undefined) return undefined;
		return slot.answered && slot.warm ? slot.end - leadMs : slot.end;
	}

	/**
	 * The earliest start at or after `now` (a monotonic clock, performance.now()), at least
	 * `spacingMs` after the last start; undefined while requests in flight fill the window.
	 */
	earliestStart(now: number, spacingMs = 0, leadMs = this.leadAt(now)): number | undefined {
		this.slots = this.slots.filter(
			(slot) => slot.end === undefined || slot.end > now - this.windowMs,
		);
		const counted: number[] = [];
		for (const slot of this.slots) {
			const at = this.countedBy(slot, leadMs);
			if (at !== undefined) counted.push(at);
		}
		const free = this.limit - (this.slots.length - counted.length);
		if (free <= 0) return undefined;
		counted.sort((a, b) => b - a);
		let start = Math.max(now, this.lastStart + spacingMs);
		if (counted.length >= free) start = Math.max(start, counted[free - 1] + this.windowMs);
		return start;
	}

	/** Records a request handed to n8n now. Call only when `earliestStart` allows `now`. */
	start(now: number): PacerSlot {
		const early = now < (this.earliestStart(now, 0, 0) ?? Infinity);
		const slot: PacerSlot = { start: now, warm: now >= this.firstAnswerAt, early };
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
			if (slot.warm) this.lead.tookWarmTrip(slot.end - slot.start);
		}
		const waiters = this.answerWaiters;
		this.answerWaiters = [];
		for (const wake of waiters) wake();
	}

	/**
	 * Fillout refused a request for its window. True when the lead let that request start
	 * early, so it may be what overfilled the window: the lead narrows for a while. False:
	 * this process kept within the limit wherever Fillout counts, and others use the key.
	 */
	refusedForWindow(slot: PacerSlot): boolean {
		if (slot.early) this.lead.refused(slot.start, slot.end ?? slot.start);
		return slot.early;
	}

	/**
	 * True when the caller is first in line: requests start in the order they asked. False
	 * when it stopped first (cancelled, or out of time): it has left the line.
	 */
	async enterLine(stop: Stop = NEVER): Promise<boolean> {
		if (!this.lineTaken) {
			this.lineTaken = true;
			return true;
		}
		let place = () => {};
		const turn = new Promise<void>((resolve) => this.line.push((place = resolve)));
		if ((await waitUntil(Infinity, stop, turn)) === 'woken') return true;
		const at = this.line.indexOf(place);
		// Its turn came as it stopped: the next one goes on.
		if (at < 0) this.leaveLine();
		else this.line.splice(at, 1);
		return false;
	}

	/** The caller started (or gave up): the next in line goes on. */
	leaveLine(): void {
		const next = this.line.shift();
		if (next) next();
		else this.lineTaken = false;
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

/** The request's outcome, once its answer (or network failure) is recorded with its slot. */
export async function finishedWith<T>(
	pacer: SlidingWindowPacer,
	slot: PacerSlot,
	request: Promise<T>,
): Promise<T> {
	let answered = false;
	try {
		const answer = await request;
		answered = true;
		return answer;
	} finally {
		pacer.finish(slot, performance.now(), answered);
	}
}

/**
 * Takes in one answer's rate-limit headers. The first refusal after the pacer took a lead
 * costs the lead, not the shared rate: it says nothing of other processes.
 */
export function observeAnswer(
	{ pacer, rate }: Pacing,
	slot: PacerSlot,
	signal: LimitSignal,
	now: number,
): void {
	rate.observe(signal, now, isWindowRefusal(signal) && pacer.refusedForWindow(slot));
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
 * shared-key rate, and records its start; undefined when the request stopped first (it
 * never holds a place then). Requests start in the order they asked (a reader's pages in
 * the order it planned). Decided when due, not when queued, so every answer and every
 * change of the shared rate counts.
 */
export async function waitForTurn(pacing: Pacing): Promise<{ slot: PacerSlot }>;
export async function waitForTurn(
	pacing: Pacing,
	stop: Stop,
): Promise<{ slot: PacerSlot } | undefined>;
export async function waitForTurn({ pacer, rate }: Pacing, stop: Stop = NEVER) {
	if (!(await pacer.enterLine(stop))) return undefined;
	try {
		for (;;) {
			pacer.limit = rate.limit;
			const now = performance.now();
			if (stopped(stop, now)) return undefined;
			const at = pacer.earliestStart(now, rate.spacingMs);
			if (at !== undefined && at <= now) return { slot: pacer.start(now) };
			await waitUntil(at ?? Infinity, stop, pacer.nextFinish());
		}
	} finally {
		pacer.leaveLine();
	}
}
