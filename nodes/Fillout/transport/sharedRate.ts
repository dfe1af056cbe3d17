/**
 * The request rate this process allows itself on one Fillout key that other processes may
 * share: additive increase, multiplicative decrease. A 429 cuts it by 30 % (60 % at the
 * ceiling; once per window); every answer served raises it by 0.3 % of the limit per request
 * its window had free (`ratelimit-remaining`), and, once 30 s passed without a cut, every
 * second by 1 %. The limit (the ceiling) is the one announced in `ratelimit-limit`, never
 * above Fillout's documented 5. One process alone draws no 429 but its pacer's lead's, which
 * cut nothing, so it stays at the ceiling. Why: docs/rate-limits.md.
 */

export interface LimitSignal {
	/** `ratelimit-limit`: requests the account may make per window. */
	limit?: number;
	/** `ratelimit-remaining`: requests left in the account's current window (after this one). */
	remaining?: number;
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
	const limit = headerNumber(header('ratelimit-limit'));
	return {
		limit: limit !== undefined && limit >= 1 ? Math.floor(limit) : undefined,
		remaining: headerNumber(header('ratelimit-remaining')),
		rateLimited: statusCode === 429,
	};
}

/** A 429 about the account's window (one that leaves room in it is about something else). */
export function isWindowRefusal(signal: LimitSignal): boolean {
	return signal.rateLimited && !(signal.remaining !== undefined && signal.remaining > 0);
}

/**
 * Fillout's documented limit (docs/fillout-api.md, "Rate limit"): used until an answer
 * announces one, and never exceeded whatever an answer announces (a proxy may lie).
 */
export const DEFAULT_LIMIT = 5;
/** A 429 keeps this share of the rate… */
export const DECREASE_FACTOR = 0.7;
/** …and this share of the limit the first time (at the limit: others just showed up). */
export const FIRST_DECREASE_FACTOR = 0.4;
/** Each answer adds this share of the limit for each request its window still had free. */
export const INCREASE_SHARE = 0.003;
/** The rate never falls below this share of the limit (a request every 20 s at 5/s). */
export const MIN_RATE_SHARE = 0.01;
/** Once this long has passed without a cut, the rate climbs back with time… */
export const RECOVERY_AFTER_MS = 30_000;
/** …by this share of the limit a second: from the floor to the limit in 99 s. */
export const RECOVERY_SHARE_PER_S = 0.01;

export class SharedRate {
	/** Requests per window the service allows (announced in `ratelimit-limit`, at most 5). */
	limit: number;
	/** The rate at `settledAt`; it grows with time since then (`rate`). */
	private settled: number;
	private settledAt = 0;
	private lastCutAt = -Infinity;

	/** @param clock a monotonic clock in ms (performance.now()); tests pass their own. */
	constructor(
		limit = DEFAULT_LIMIT,
		readonly windowMs = 1000,
		private readonly clock: () => number = () => performance.now(),
	) {
		this.limit = limit;
		this.settled = limit;
	}

	/** Requests per window this process allows itself now: at most `limit`. */
	get rate(): number {
		return this.rateAt(this.clock());
	}

	/** The rate at `now`: as last settled, raised with the time since a cut that is past quiet. */
	private rateAt(now: number): number {
		const from = Math.max(this.settledAt, this.lastCutAt + RECOVERY_AFTER_MS);
		const seconds = Math.max(0, now - from) / 1000;
		return Math.min(this.limit, this.settled + RECOVERY_SHARE_PER_S * this.limit * seconds);
	}

	private settle(now: number, rate: number): void {
		this.settled = rate;
		this.settledAt = now;
	}

	/** The least time between two starts: none at the limit (the pacer keeps the limit). */
	get spacingMs(): number {
		const rate = this.rate;
		return rate >= this.limit ? 0 : this.windowMs / rate;
	}

	/**
	 * Takes in one answer's rate-limit headers. `ownRefusal`: a 429 this process's pacer
	 * caused (docs/rate-limits.md, "The pacer"); it and the window's other 429s cut nothing.
	 */
	observe(signal: LimitSignal, now: number, ownRefusal = false): void {
		let rate = this.rateAt(now);
		const limit = Math.min(signal.limit ?? this.limit, DEFAULT_LIMIT);
		if (limit !== this.limit) {
			rate = (rate * limit) / this.limit;
			this.limit = limit;
		}
		if (signal.rateLimited) {
			if (isWindowRefusal(signal) && now - this.lastCutAt >= this.windowMs) {
				// One cut per window: the 429s of one overfull window are one signal.
				this.lastCutAt = now;
				const keep = rate >= this.limit ? FIRST_DECREASE_FACTOR : DECREASE_FACTOR;
				if (!ownRefusal) rate = Math.max(MIN_RATE_SHARE * this.limit, rate * keep);
			}
		} else {
			// Without the header (a service that sends none), as if one request were free.
			const free = signal.remaining ?? 1;
			rate = Math.min(this.limit, rate + INCREASE_SHARE * this.limit * free);
		}
		this.settle(now, rate);
	}
}
