/**
 * How messages name input items, the way n8n itself does: numbered from 0 (as the
 * error view's "Item Index" and `$itemIndex`) and named at the end, "… [item 3]". The
 * editor appends that same suffix to an error message that lacks it, so it is never
 * shown twice.
 */
export function atItem(message: string, itemIndex: number): string {
	return `${message} [item ${itemIndex}]`;
}

/** "0–3, 5, 7–8": item numbers, runs collapsed. */
export function itemRanges(indexes: readonly number[]): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const runs: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		runs.push(end === start ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	return runs.join(', ');
}

/** "item 5" or "items 0–3, 5". */
export function itemsNamed(indexes: readonly number[]): string {
	return `${new Set(indexes).size === 1 ? 'item' : 'items'} ${itemRanges(indexes)}`;
}
