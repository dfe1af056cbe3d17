/**
 * Fixed-window rate limit per key, like the live service's 5 requests/second. A key's window
 * opens at its first request and lasts one second, so a burst is judged as a whole instead of
 * straddling a wall-clock second boundary.
 */

const WINDOW_MS = 1000;

interface Window {
	startMs: number;
	count: number;
}

export interface RateDecision {
	allowed: boolean;
	/** ratelimit-* headers (and retry-after when refused); empty when limiting is off. */
	headers: Record<string, string>;
}

export class RateLimiter {
	private windows = new Map<string, Window>();

	/**
	 * @param limit requests per window; 0 turns limiting off
	 * @param announced what `ratelimit-limit` says (default: `limit`); another figure
	 *   stands for a proxy or a misread plan that announces a limit the service does not keep
	 */
	constructor(
		readonly limit: number,
		private readonly now: () => number = Date.now,
		private readonly announced = limit,
	) {}

	private current(key: string): Window {
		const now = this.now();
		let window = this.windows.get(key);
		if (!window || now - window.startMs >= WINDOW_MS) {
			if (this.windows.size > 10_000) this.prune(now);
			window = { startMs: now, count: 0 };
			this.windows.set(key, window);
		}
		return window;
	}

	private prune(now: number): void {
		for (const [key, window] of this.windows)
			if (now - window.startMs >= WINDOW_MS) this.windows.delete(key);
	}

	private headers(window: Window): Record<string, string> {
		const resetSeconds = Math.max(1, Math.ceil((window.startMs + WINDOW_MS - this.now()) / 1000));
		return {
			'ratelimit-limit': String(this.announced),
			'ratelimit-remaining': String(Math.max(0, this.limit - window.count)),
			'ratelimit-reset': String(resetSeconds),
			'ratelimit-policy': `${this.announced};w=${WINDOW_MS / 1000}`,
		};
	}

	/** Counts one request for the key. */
	take(key: string): RateDecision {
		if (this.limit <= 0) return { allowed: true, headers: {} };
		const window = this.current(key);
		window.count++;
		const headers = this.headers(window);
		if (window.count <= this.limit) return { allowed: true, headers };
		return { allowed: false, headers: { ...headers, 'retry-after': headers['ratelimit-reset'] } };
	}

	/** The headers for the key without counting a request (for injected faults). */
	peek(key: string): Record<string, string> {
		return this.limit <= 0 ? {} : this.headers(this.current(key));
	}

	reset(): void {
		this.windows.clear();
	}
}
