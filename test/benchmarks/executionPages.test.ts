import type { ExecutionSummary } from '../e2e/support';
import { EXECUTION_PAGE_SIZE, readAllExecutions } from '../../benchmarks/executionPages';
import { prng } from '../nodes/unit/support/listModel';

/**
 * Model-based randomized test of reading n8n's execution list. The model is n8n's list
 * (2.41 and 1.123): newest start first, then the highest id; `startedBefore` inclusive;
 * 100 a page. Executions get ids in the order they are queued and start after a random
 * wait (several workers: out of id order, and some at the same millisecond).
 * Invariant: every execution is read exactly once.
 */
const BASE = Date.parse('2026-01-01T10:00:00.000Z');

function executionsOf(random: () => number, count: number, maxWaitMs: number): ExecutionSummary[] {
	return Array.from({ length: count }, (_, index) => {
		const created = BASE + index * Math.floor(1 + random() * 5);
		const started = created + Math.floor(random() * maxWaitMs);
		return {
			id: String(index + 1),
			workflowId: 'w',
			mode: 'webhook',
			status: 'success',
			createdAt: new Date(created).toISOString(),
			startedAt: new Date(started).toISOString(),
		};
	});
}

/** n8n's ordering: start time descending, then id descending. */
function newestFirst(rows: ExecutionSummary[]): ExecutionSummary[] {
	return [...rows].sort(
		(a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || Number(b.id) - Number(a.id),
	);
}

function listModel(all: ExecutionSummary[]) {
	return async (startedBefore?: string) =>
		newestFirst(
			all.filter((row) => startedBefore === undefined || (row.startedAt ?? '') <= startedBefore),
		).slice(0, EXECUTION_PAGE_SIZE);
}

/** n8n's own cursor: the next page is ids below the last row's, in the same order. */
function readByIdCursor(all: ExecutionSummary[]): ExecutionSummary[] {
	const read: ExecutionSummary[] = [];
	let beforeId = Infinity;
	for (;;) {
		const page = newestFirst(all.filter((row) => Number(row.id) < beforeId)).slice(
			0,
			EXECUTION_PAGE_SIZE,
		);
		read.push(...page);
		if (page.length < EXECUTION_PAGE_SIZE) return read;
		beforeId = Number(page[page.length - 1].id);
	}
}

const CASES = 200;

describe('reading every execution of a workflow (model of n8n’s list)', () => {
	it.each(Array.from({ length: CASES }, (_, index) => index + 1))(
		'seed %i: every execution exactly once',
		async (seed) => {
			const random = prng(seed);
			const count = Math.floor(random() * 700);
			const maxWaitMs = [1, 50, 2000][Math.floor(random() * 3)];
			const all = executionsOf(random, count, maxWaitMs);
			const read = await readAllExecutions(listModel(all));
			expect(read.map((row) => row.id).sort()).toEqual(all.map((row) => row.id).sort());
		},
	);

	it('n8n’s id cursor skips executions that started out of id order (why it is not used)', () => {
		let lost = 0;
		for (let seed = 1; seed <= 20; seed++) {
			const all = executionsOf(prng(seed), 505, 2000);
			lost += all.length - new Set(readByIdCursor(all).map((row) => row.id)).size;
		}
		expect(lost).toBeGreaterThan(0);
	});
});
