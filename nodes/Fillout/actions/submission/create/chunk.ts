/** Splits a list into consecutive runs of at most `size` (the last may be shorter). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
	if (!Number.isInteger(size) || size < 1)
		throw new RangeError(`Chunk size must be a positive integer, got ${size}`);
	const chunks: T[][] = [];
	for (let start = 0; start < items.length; start += size) {
		chunks.push(items.slice(start, start + size));
	}
	return chunks;
}

/** Groups items by a key, keeping the first-seen order of keys and of items. */
export function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const item of items) {
		const key = keyOf(item);
		const group = groups.get(key);
		if (group) group.push(item);
		else groups.set(key, [item]);
	}
	return groups;
}
