/**
 * A second of the minute per trigger, so that triggers do not all check at once. A module
 * of its own, without imports, so that the end-to-end tests can place a workflow's checks
 * (they pick its node id) without loading the node's code.
 */
export function secondOf(text: string): number {
	let hash = 0;
	for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) % 60;
	return hash;
}
