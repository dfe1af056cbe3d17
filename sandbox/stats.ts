/** Request counters for tests and benchmarks: per method + route template, and per key. */

export interface Counters {
	total: number;
	rateLimited: number;
	/** Per method + route template: every request, refused ones included. */
	requests: Record<string, number>;
	/** Per method + route template: the requests answered 429. */
	refused: Record<string, number>;
	/** API requests being answered at once, at most (they overlap during the added latency). */
	mostAtOnce: number;
	/** When the first request since the last reset came in (ms since the epoch). */
	firstAt?: number;
}

const emptyCounters = (): Counters => ({
	total: 0,
	rateLimited: 0,
	requests: {},
	refused: {},
	mostAtOnce: 0,
});

/** When a key's request was counted against its rate limit (ms since the epoch), and whether it was refused. */
export type Counted = [at: number, refused: 0 | 1];

/** A key's timeline keeps at most this many requests (the oldest go first). */
const TIMELINE_LIMIT = 20_000;

export class Stats {
	private all = emptyCounters();
	private byKey = new Map<string, Counters>();
	private timelines = new Map<string, Counted[]>();

	/** @param key bearer value, or `ip:<address>` for unauthenticated calls; none for OAuth routes */
	count(route: string, key?: string): void {
		for (const counters of this.targets(key)) {
			counters.firstAt ??= Date.now();
			counters.total++;
			counters.requests[route] = (counters.requests[route] ?? 0) + 1;
		}
	}

	private atOnce = new Map<Counters, number>();

	/** Marks an API request as being answered until `leave`. */
	enter(key: string): void {
		for (const counters of this.targets(key)) {
			const now = (this.atOnce.get(counters) ?? 0) + 1;
			this.atOnce.set(counters, now);
			counters.mostAtOnce = Math.max(counters.mostAtOnce, now);
		}
	}

	leave(key: string): void {
		for (const counters of this.targets(key)) {
			this.atOnce.set(counters, Math.max(0, (this.atOnce.get(counters) ?? 0) - 1));
		}
	}

	/** The request was counted against the key's rate limit now (benchmarks place each in time). */
	counted(key: string, refused: boolean): void {
		let timeline = this.timelines.get(key);
		if (!timeline) this.timelines.set(key, (timeline = []));
		if (timeline.length >= TIMELINE_LIMIT) timeline.shift();
		timeline.push([Date.now(), refused ? 1 : 0]);
	}

	timeline(key: string): Counted[] {
		return [...(this.timelines.get(key) ?? [])];
	}

	countRateLimited(route: string, key: string): void {
		for (const counters of this.targets(key)) {
			counters.rateLimited++;
			counters.refused[route] = (counters.refused[route] ?? 0) + 1;
		}
	}

	private targets(key: string | undefined): Counters[] {
		if (key === undefined) return [this.all];
		let perKey = this.byKey.get(key);
		if (!perKey) {
			perKey = emptyCounters();
			this.byKey.set(key, perKey);
		}
		return [this.all, perKey];
	}

	snapshot(): Counters & { byKey: Record<string, Counters> } {
		return { ...structuredClone(this.all), byKey: structuredClone(Object.fromEntries(this.byKey)) };
	}

	reset(): void {
		this.all = emptyCounters();
		this.byKey.clear();
		this.atOnce.clear();
		this.timelines.clear();
	}
}
