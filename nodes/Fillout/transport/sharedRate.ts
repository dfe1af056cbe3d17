/**
 * The request rate this process allows itself on one Fillout key that other processes may
 * share: additive increase, multiplicative decrease. A 429 cuts it by 30 % (60 % at the
 * ceiling; once per window); every answer served raises it by 0.3 % of the announced limit
 * (`ratelimit-limit`, the ceiling) per request its window had free (`ratelimit-remaining`).
 * One process alone draws no 429 but its pacer's lead's, which cut nothing, so it stays at
 * the ceiling. Why this converges, and what it cannot do: docs/rate-limits.md.
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

/** The service's documented limit, until an answer announces one. */
export const DEFAULT_LIMIT = 5;
/** A 429 keeps this share of the rate… */
export const DECREASE_FACTOR = 0.7;
/** …and this share of the limit the first time (at the limit: others just showed up). */
export const FIRST_DECREASE_FACTOR = 0.4;
/** Each answer adds this share of the limit for each request its window still had free. */
export const INCREASE_SHARE = 0.003;
/** The rate never falls below this share of the limit (a request every 20 s at 5/s). */
export const MIN_RATE_SHARE = 0.01;

export class SharedRate {
	/** Requests per window the service allows (announced in `ratelimit-limit`). */
	limit: number;
	/** Requests per window this process allows itself: at most `limit`. */
	rate: number;
	private lastCutAt = -Infinity;

	constructor(
		limit = DEFAULT_LIMIT,
		readonly windowMs = 1000,
	) {
		this.limit = limit;
		this.rate = limit;
	}

	/** The least time between two starts: none at the limit (the pacer keeps the limit). */
	get spacingMs(): number {
		return this.rate >= this.limit ? 0 : this.windowMs / this.rate;
	}

	/**
	 * Takes in one answer's rate-limit headers. `ownRefusal`: a 429 this process's pacer
	 * caused (docs/rate-limits.md, "The pacer"); it and the window's other 429s cut nothing.
	 */
	observe(signal: LimitSignal, now: number, ownRefusal = false): void {
		if (signal.limit !== undefined && signal.limit !== this.limit) {
			this.rate = Math.min(signal.limit, (this.rate * signal.limit) / this.limit);
			this.limit = signal.limit;
		}
		if (signal.rateLimited) {
			if (!isWindowRefusal(signal)) return;
			// One cut per window: the 429s of one overfull window are one signal.
			if (now - this.lastCutAt < this.windowMs) return;
			this.lastCutAt = now;
			if (ownRefusal) return;
			const keep = this.rate >= this.limit ? FIRST_DECREASE_FACTOR : DECREASE_FACTOR;
			this.rate = Math.max(MIN_RATE_SHARE * this.limit, this.rate * keep);
		} else {
			// Without the header (a service that sends none), as if one request were free.
			const free = signal.remaining ?? 1;
			this.rate = Math.min(this.limit, this.rate + INCREASE_SHARE * this.limit * free);
		}
	}
}
