/** Reads of an instant read by offset before giving up on it. */
const MAX_PASSES = 3;

/**
 * What the pager has seen of one instant (`submissionTime`) it reads by offset: when more
 * submissions share it than fit in a page, they can only be told apart by their position,
 * which holds only if the service lists them in the same order every time. A database
 * promises no order among equal values under LIMIT/OFFSET, so the pager reads such an
 * instant twice and compares every listing of it with every other: in a stable order,
 * any two submissions keep their relative order whatever is added or deleted meanwhile.
 */
export class InstantReading {
	/** Every submission listed at (or before) the instant, in this range. */
	readonly ids = new Set<string>();
	/** Each listing, in the order the service gave it. */
	private readonly listings: string[][] = [];
	/** 1 for the first read of the instant, 2 for the second, ... */
	pass = 1;

	constructor(
		readonly time: number,
		private readonly pageSize: number,
		/** Whether the instant filled a page, so it is being read by offset. */
		public spansPages: boolean,
	) {}

	/**
	 * Records one listing of the instant. Once the instant spans pages, fails when two
	 * submissions come in the opposite order from an earlier listing.
	 */
	record(ids: readonly string[]): void {
		for (const id of ids) this.ids.add(id);
		const swapped = this.spansPages ? this.swappedPair(ids) : undefined;
		this.listings.push([...ids]);
		if (swapped) throw this.unstableOrder(`${swapped[0]} came before ${swapped[1]}, then after it`);
	}

	/**
	 * At the page that passes the instant, which puts `listed` submissions at or before it:
	 * true to read it again from its start (always after the first read; after that, while
	 * it shows more of it than were read). Fails after the last read allowed.
	 */
	readAgain(listed: number, readAtTime: readonly string[]): boolean {
		const read = new Set([...this.ids, ...readAtTime]);
		if (this.pass > 1 && read.size >= listed) {
			// The instant is read: what follows in this range is paged as before.
			this.spansPages = false;
			return false;
		}
		if (this.pass >= MAX_PASSES)
			throw this.unstableOrder(`${listed - read.size} of them could not be read`);
		this.pass++;
		return true;
	}

	private unstableOrder(evidence: string): Error {
		return new Error(
			`More submissions share the time ${new Date(this.time).toISOString()} (or follow it with no readable time) than fit in one page (${this.pageSize}), and Fillout gave them in a different order from one request to the next (${evidence}). No exact read of that instant is possible by paging, so the read stopped rather than return an incomplete list. Try again; if this persists, set the date filters to leave that instant out, or narrow the read with Search.`,
		);
	}

	private swappedPair(ids: readonly string[]): [string, string] | undefined {
		for (const earlier of this.listings) {
			const positions = new Map(earlier.map((id, index) => [id, index]));
			let before: string | undefined;
			for (const id of ids) {
				const position = positions.get(id);
				if (position === undefined) continue;
				if (before !== undefined && position < positions.get(before)!) return [id, before];
				before = id;
			}
		}
		return undefined;
	}
}
