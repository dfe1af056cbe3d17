/**
 * Reading every execution of a workflow from n8n's list. n8n orders the list by start
 * time (newest first, then by id) but its own cursor continues below the last row's
 * *id*. With several workers executions start out of id order, so that cursor skips
 * some: with 2 workers one of 505 was never listed. Each next page here asks instead for
 * the executions started at or before the oldest start seen so far (n8n's
 * `startedBefore` filter, inclusive), and drops repeats. Pure: the page reader is passed in.
 */
import type { ExecutionSummary } from '../test/e2e/support';

export const EXECUTION_PAGE_SIZE = 100;

/** One page of n8n's list: at most 100, newest start first, started at or before `startedBefore`. */
export type ExecutionPageReader = (startedBefore?: string) => Promise<ExecutionSummary[]>;

const startOf = (summary: ExecutionSummary) => summary.startedAt ?? summary.createdAt;

export async function readAllExecutions(
	readPage: ExecutionPageReader,
	maxPages = 1000,
): Promise<ExecutionSummary[]> {
	const byId = new Map<string, ExecutionSummary>();
	let before: string | undefined;
	for (let page = 0; page < maxPages; page++) {
		const rows = await readPage(before);
		let added = 0;
		for (const row of rows) {
			if (!byId.has(String(row.id))) added++;
			byId.set(String(row.id), row);
		}
		// A short page is the last; a page of repeats only means more than a page share one
		// start time, which the inclusive filter cannot get past.
		if (rows.length < EXECUTION_PAGE_SIZE || added === 0) break;
		before = rows.map(startOf).reduce((oldest, start) => (start < oldest ? start : oldest));
	}
	return [...byId.values()];
}
