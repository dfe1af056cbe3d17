/**
 * Cooperation with other processes that use the same Fillout key (n8n workers in queue
 * mode, several n8n instances). The pacer in pacing.ts keeps one process within 5
 * requests per second; it cannot see the others. The service tells every caller how much
 * of the account's window is left (`ratelimit-remaining`), so each process reads that on
 * every answer:
 *
 * - Its own requests are numbered as they leave: several executions of one process (a
 *   worker) share one gauge, so requests overlap and answers come back out of order.
 * - Per service window it counts its own requests (by those numbers) and the account's
 *   (limit − remaining). More on the account than its own means another process is sending.
 * - Between two of its own answers in one window, the account's count grows by one for
 *   each of its own requests sent in between and by one for each request of the others.
 *   That growth (the highest recent one, forgotten slowly) estimates how many others
 *   send "at the same time".
 * - Before each request leaves, when the account is shared and no more requests remain in
 *   the window, less all of its own still in flight, than the others are about to send,
 *   it leaves them to the others and sends nothing more until the window has surely
 *   ended, plus a random part so that processes holding together do not all come back at
 *   one instant. A process alone never holds (the pacer paces it).
 * - "Shared" lasts: for SHARED_MEMORY_MS after the last sign of another process it leaves
 *   at least one place in every window, also in windows where it sees no one else.
 *
 * Why each part (traced in n8n's queue mode, one worker running two exports, another one):
 * the worker with two exports filled windows alone in their first 200 ms; the other
 * worker's request, and then each of its retries, landed in the full rest of the window
 * and drew a 429, five times in a row, and the first worker, whose answers had all come
 * back before, never saw it. So the memory. And the two executions of one worker read
 * their answers (remaining 3, then 2) before either sent its next request, then both
 * sent: the decision is taken as a request leaves, not as an answer comes back, and every
 * request of ours still in flight counts, whatever its order (they overtake each other).
 *
 * With N processes this leaves about N − 1 of each window's requests to the others when
 * the window is nearly full, instead of all of them sending into a full window and
 * drawing 429s. The rule and its figures were chosen with the model in
 * test/nodes/unit/sharedLimit.model.test.ts (processes running one or several exports).
 * Pure: times are passed in (monotonic milliseconds) and randomness is injected.
 */

export interface LimitSignal {
	/** `ratelimit-remaining`: requests left in the account's current window (after this one). */
	remaining?: number;
	/** `ratelimit-reset`, in milliseconds: when the account's window ends, at the latest. */
	resetMs?: number;
	/** The answer was 429. */
	rateLimited: boolean;
}

/** A non-negative number from a header, or undefined. */
function headerNumber(value: string | undefined): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const number = Number(value);
	return Number.isFinite(number) && number >= 0 ? number : undefined;
}

/** The rate-limit headers of one answer (absent or unreadable ones are left out). */
export function readLimitSignal(
	header: (name: string) => string | undefined,
	statusCode: number | undefined,
): LimitSignal {
	const resetSeconds = headerNumber(header('ratelimit-reset'));
	return {
		remaining: headerNumber(header('ratelimit-remaining')),
		resetMs: resetSeconds === undefined ? undefined : resetSeconds * 1000,
		rateLimited: statusCode === 429,
	};
}

/** One of our requests, numbered in the order sent (arrival is assumed in that order). */
export interface SentRequest {
	seq: number;
	sentAt: number;
}

interface ObservedWindow {
	/** When the first of our answers in this window came back: it opened before that. */
	firstAnsweredAt: number;
	/** Our first request counted in it, and the last one answered in it. */
	firstSeq: number;
	lastSeq: number;
	/** By when it has surely ended: a window after our first answer in it (it opened before). */
	endsBy: number;
	/** The account's requests counted in it (limit − remaining): the highest seen… */
	used: number;
	/** …and the request whose answer said so. */
	usedSeq: number;
	/** More requests were counted in it than we sent: someone else is sending. */
	shared: boolean;
}

/**
 * The count of others keeps the highest recent sample and forgets it slowly (by this much
 * per answer): a process that holds sends nothing, so low samples are common and say
 * little, and forgetting too fast lets the processes fill the window again.
 */
export const OTHERS_DECAY = 0.02;
/** The random part of a hold, as a share of the window. */
export const HOLD_JITTER_SHARE = 0.05;
/**
 * How long after the last sign of another process (its requests counted between two of
 * ours, or a 429) a process still leaves a place in every window: long enough to outlast
 * the other's waits after a 429 (a second and more). A process alone by then loses a
 * fifth of its speed for that long.
 */
export const SHARED_MEMORY_MS = 10_000;

export class SharedAccountGauge {
	private window?: ObservedWindow;
	private others = 0;
	private holdUntil = -Infinity;
	/** When another process last showed itself. */
	private lastSharedAt = -Infinity;
	private sent = 0;
	/** Our requests sent and not yet answered (several executions share one gauge). */
	private readonly inFlight = new Set<number>();

	constructor(
		readonly limit = 5,
		readonly windowMs = 1000,
		private readonly random: () => number = Math.random,
	) {}

	/** How many requests of other processes come between two of ours (recent highest). */
	get othersEstimate(): number {
		return this.others;
	}

	/**
	 * The earliest moment the next request may start; call it again right before sending
	 * (it may start a hold). Requests of one process are paced further by the
	 * sliding-window pacer; this adds only what other processes cause.
	 */
	earliestStart(now: number): number {
		this.leaveRestToOthers(now);
		return Math.max(now, this.holdUntil);
	}

	/** Holds when what remains of a shared window, less ours on the way, is the others'. */
	private leaveRestToOthers(now: number): void {
		const window = this.window;
		if (!window || now >= window.endsBy) return;
		const recentlyShared = now - this.lastSharedAt < SHARED_MEMORY_MS;
		if (!window.shared && !recentlyShared) return;
		const othersComing = Math.max(recentlyShared ? 1 : 0, Math.round(this.others));
		if (this.limit - window.used - this.inFlight.size <= othersComing) {
			this.holdFor(now, window.endsBy - now);
		}
	}

	/** Call as a request leaves; pass the result to `observe` (or `abandon`). */
	send(now: number): SentRequest {
		const request = { seq: ++this.sent, sentAt: now };
		this.inFlight.add(request.seq);
		return request;
	}

	/** A request that ended without an answer to read. */
	abandon(request: SentRequest): void {
		this.inFlight.delete(request.seq);
	}

	/** Takes in one answer's rate-limit headers. */
	observe(signal: LimitSignal, request: SentRequest, answeredAt: number): void {
		this.inFlight.delete(request.seq);
		if (signal.remaining === undefined) {
			// A service that sends no headers: a 429 still means back off for a window.
			if (signal.rateLimited) this.holdFor(answeredAt, this.windowMs);
			return;
		}
		const used = Math.max(0, this.limit - signal.remaining);
		const window = this.windowFor(used, request, answeredAt);
		if (request.seq > window.usedSeq && !signal.rateLimited) {
			// Between that answer's request and this one: ours sent in between, and the others'.
			const othersBetween = Math.max(0, used - window.used - (request.seq - window.usedSeq));
			this.others = Math.max(othersBetween, this.others - OTHERS_DECAY);
			if (othersBetween >= 1) this.lastSharedAt = answeredAt;
		}
		if (signal.rateLimited) this.lastSharedAt = answeredAt;
		if (used > window.used || (used === window.used && request.seq > window.usedSeq)) {
			window.used = used;
			window.usedSeq = request.seq;
		}
		window.firstSeq = Math.min(window.firstSeq, request.seq);
		window.lastSeq = Math.max(window.lastSeq, request.seq);
		if (signal.resetMs !== undefined) {
			window.endsBy = Math.min(window.endsBy, answeredAt + signal.resetMs);
		}
		// Ours answered before this one in the window may have left after it and overtaken it.
		const mine = window.lastSeq - window.firstSeq + 1;
		window.shared ||= used > mine || signal.rateLimited;
	}

	/** Nothing starts for `waitMs`, plus a random part. */
	private holdFor(now: number, waitMs: number): void {
		const jitter = this.random() * this.windowMs * HOLD_JITTER_SHARE;
		this.holdUntil = Math.max(this.holdUntil, now + Math.max(0, waitMs) + jitter);
	}

	/**
	 * The window this answer was counted in. A request sent before one already counted in
	 * the window arrived before it: taken as the same window (an answer out of order, not a
	 * new window, although its count is lower). A later one adds to the count, so a
	 * count not above the last one seen means a new window (unless the window is full);
	 * so does a request sent a whole window after our first answer in the last one.
	 */
	private windowFor(used: number, request: SentRequest, answeredAt: number): ObservedWindow {
		const last = this.window;
		const sameWindow =
			last !== undefined &&
			request.sentAt < last.firstAnsweredAt + this.windowMs &&
			(request.seq < last.usedSeq ||
				used > last.used ||
				(used === last.used && used >= this.limit));
		if (sameWindow) return last;
		this.window = {
			firstAnsweredAt: answeredAt,
			endsBy: answeredAt + this.windowMs,
			firstSeq: request.seq,
			lastSeq: request.seq,
			used,
			usedSeq: request.seq,
			shared: false,
		};
		return this.window;
	}
}
