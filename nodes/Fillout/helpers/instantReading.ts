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
		/** Whether the instant filled a page, so it is being read by offset. */
		public spansPages: boolean,
	) {}

	/**
	 * Records one listing of the instant. Once the instant spans pages, returns two
	 * submissions this listing gives in the opposite order from an earlier one, if any.
	 */
	record(ids: readonly string[]): [string, string] | undefined {
		for (const id of ids) this.ids.add(id);
		const swapped = this.spansPages ? this.swappedPair(ids) : undefined;
		this.listings.push([...ids]);
		return swapped;
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
