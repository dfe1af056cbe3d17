/**
 * Cooperation with other processes that use the same Fillout key (n8n workers in queue
 * mode, several n8n instances). The pacer in pacing.ts keeps one process within 5
 * requests per second; it cannot see the others. The service tells every caller how much
 * of the account's window is left (`ratelimit-remaining`), so each process reads that on
 * every answer and slows down when others use the account too:
 *
 * - Per service window it counts its own requests and the account's (limit − remaining).
 *   More on the account than its own means another process is sending.
 * - Its allowance (requests per window it lets itself send) is halved when the account
 *   is full while shared (remaining 0, or a 429), at most once per window, and grows back
 *   by a small step with every answer that leaves room: additive increase,
 *   multiplicative decrease. Processes that know nothing of each other settle on shares
 *   whose sum is about the limit. A process alone never cuts, so it keeps the full rate.
 * - Below the full limit its requests are spaced evenly (a window divided by the
 *   allowance), except right after a window it opened itself (nobody else in it yet).
 * - When the account is full while shared, nothing is sent until that window has surely
 *   ended, plus a random part so that processes do not all come back at one instant.
 *
 * The figures were chosen with the model in test/nodes/unit/sharedLimit.model.test.ts.
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

interface ObservedWindow {
	/** When the first of our answers in this window came back: it opened before that. */
	firstAnsweredAt: number;
	/** Our requests counted in it. */
	mine: number;
	/** The account's requests counted in it (limit − remaining), as last seen. */
	used: number;
	/** The allowance was already cut in this window. */
	cut: boolean;
}

/** How much the allowance grows per answer that leaves room, in requests per window. */
export const ALLOWANCE_STEP = 0.1;
/** The smallest allowance: one request per window keeps every process moving. */
export const MIN_ALLOWANCE = 1;
/** The random part of a hold, as a share of the window. */
const HOLD_JITTER_SHARE = 0.1;

export class SharedAccountGauge {
	private window?: ObservedWindow;
	private allowance: number;
	private holdUntil = -Infinity;
	private lastStart = -Infinity;

	constructor(
		readonly limit = 5,
		readonly windowMs = 1000,
		private readonly random: () => number = Math.random,
	) {
		this.allowance = limit;
	}

	/** Requests per window this process currently lets itself send (the limit when alone). */
	get currentAllowance(): number {
		return this.allowance;
	}

	/**
	 * The earliest moment the next request may start. Requests of one process are paced
	 * further by the sliding-window pacer; this adds only what other processes cause.
	 */
	earliestStart(now: number): number {
		const spacing =
			this.allowance >= this.limit || this.openedByUs(now) ? 0 : this.windowMs / this.allowance;
		return Math.max(now, this.holdUntil, this.lastStart + spacing);
	}

	/** Our last answer opened the current window: nobody else has sent in it yet. */
	private openedByUs(now: number): boolean {
		const window = this.window;
		return window !== undefined && window.used <= 1 && now < window.firstAnsweredAt + this.windowMs;
	}

	/** Records that a request starts now (after waiting for `earliestStart`). */
	started(now: number): void {
		this.lastStart = Math.max(this.lastStart, now);
	}

	/** Takes in one answer's rate-limit headers. `sentAt`/`answeredAt` bound its arrival. */
	observe(signal: LimitSignal, sentAt: number, answeredAt: number): void {
		if (signal.remaining === undefined) {
			// A service that sends no headers: a 429 still means back off for a window.
			if (signal.rateLimited) this.backOff(answeredAt, this.windowMs);
			return;
		}
		const used = Math.max(0, this.limit - signal.remaining);
		const window = this.windowFor(used, sentAt, answeredAt);
		window.used = Math.max(window.used, used);
		if (!signal.rateLimited) window.mine++;
		const shared = window.used > window.mine || signal.rateLimited;
		const full = signal.remaining === 0;
		if (full && shared) {
			if (!window.cut) {
				this.allowance = Math.max(MIN_ALLOWANCE, this.allowance / 2);
				window.cut = true;
			}
			// The window opened before our first answer in it, so it ends a window later.
			const windowEnd = window.firstAnsweredAt + this.windowMs;
			this.backOff(answeredAt, Math.min(signal.resetMs ?? this.windowMs, windowEnd - answeredAt));
		} else if (!full) {
			// Rounded so that steps of 0.1 reach the limit exactly.
			this.allowance = Math.min(
				this.limit,
				Math.round((this.allowance + ALLOWANCE_STEP) * 1000) / 1000,
			);
		}
	}

	/** Nothing starts for `waitMs`, plus up to a tenth of a window at random. */
	private backOff(now: number, waitMs: number): void {
		const jitter = this.random() * this.windowMs * HOLD_JITTER_SHARE;
		this.holdUntil = Math.max(this.holdUntil, now + Math.max(0, waitMs) + jitter);
	}

	/**
	 * The window this answer was counted in. Within one window `used` only grows, and our
	 * own request adds one, so a count not above the last one seen means a new window; so
	 * does a request sent a whole window after our first answer in the last one.
	 */
	private windowFor(used: number, sentAt: number, answeredAt: number): ObservedWindow {
		const last = this.window;
		const sameWindow =
			last !== undefined &&
			sentAt < last.firstAnsweredAt + this.windowMs &&
			(used > last.used || (used === last.used && used >= this.limit));
		if (sameWindow) return last;
		this.window = { firstAnsweredAt: answeredAt, mine: 0, used: 0, cut: false };
		return this.window;
	}
}
