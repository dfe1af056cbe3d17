/**
 * Ids seen recently, to drop a second delivery of the same submission (two registrations
 * for one address, or a retry): each kept for `ttlMs`, at most `capacity`, oldest out first.
 */
export interface RecentIdsLimits {
	/** The most ids remembered at once. */
	capacity: number;
	/** How long an id is remembered, in milliseconds. */
	ttlMs: number;
}

export class RecentIds {
	/** id → when it was first seen; a Map keeps insertion order, which is the order of times. */
	private readonly seen = new Map<string, number>();

	constructor(readonly limits: RecentIdsLimits) {}

	get size(): number {
		return this.seen.size;
	}

	/**
	 * True the first time an id is seen within the window (and remembers it from `now`),
	 * false for a repeat. Checking and remembering happen together, so two deliveries
	 * handled concurrently in one process can never both get true.
	 */
	firstSighting(id: string, now: number): boolean {
		this.forgetOld(now);
		if (this.seen.has(id)) return false;
		this.seen.set(id, now);
		while (this.seen.size > this.limits.capacity) {
			this.seen.delete(this.seen.keys().next().value as string);
		}
		return true;
	}

	/** Forgets an id, so that its next sighting is a first one again. */
	forget(id: string): void {
		this.seen.delete(id);
	}

	clear(): void {
		this.seen.clear();
	}

	private forgetOld(now: number): void {
		for (const [id, at] of this.seen) {
			// Entries are in insertion order; a clock that went back keeps them a little longer.
			if (at > now - this.limits.ttlMs) break;
			this.seen.delete(id);
		}
	}
}
