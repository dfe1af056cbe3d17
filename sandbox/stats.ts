/** Request counters for tests and benchmarks: per method + route template, and per key. */

export interface Counters {
	total: number;
	rateLimited: number;
	requests: Record<string, number>;
}

const emptyCounters = (): Counters => ({ total: 0, rateLimited: 0, requests: {} });

export class Stats {
	private all = emptyCounters();
	private byKey = new Map<string, Counters>();

	/** @param key bearer value, or `ip:<address>` for unauthenticated calls; none for OAuth routes */
	count(route: string, key?: string): void {
		for (const counters of this.targets(key)) {
			counters.total++;
			counters.requests[route] = (counters.requests[route] ?? 0) + 1;
		}
	}

	countRateLimited(key: string): void {
		for (const counters of this.targets(key)) counters.rateLimited++;
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
	}
}
