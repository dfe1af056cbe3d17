import { control, generate, jsonOf, listAllSubmissions, newForm, useSandbox } from './support';
import { caseCount } from '../../support/caseCount';

/**
 * The pager's invariant end to end: Return All in n8n-core over HTTP while the sandbox
 * inserts (now and back-dated, often at the instants being read) and deletes (often what
 * it just served) between every two list requests, seeded. Every submission that existed
 * throughout comes back exactly once, nothing comes back that never existed, in order.
 */

const sandbox = useSandbox();

type Layout = 'spread' | 'ties' | 'boundaryTies';

/** Batches for /generate: spread-out times, one big instant, or ties across each page end. */
function batchesFor(layout: Layout): Array<{ count: number; stepMs: number; startTime?: string }> {
	const start = { startTime: '2024-03-01T00:00:00.000Z' };
	if (layout === 'spread') return [{ count: 600, stepMs: 60_000, ...start }];
	if (layout === 'ties') {
		return [
			{ count: 100, stepMs: 60_000, ...start },
			{ count: 400, stepMs: 0 },
			{ count: 100, stepMs: 1 },
		];
	}
	// Two submissions share the instant at every page end (positions 149/150, 298/299, ...).
	return [
		{ count: 149, stepMs: 1000, ...start },
		...Array.from({ length: 3 }, () => [
			{ count: 2, stepMs: 0 },
			{ count: 147, stepMs: 1000 },
		]).flat(),
	];
}

/** The churn's seeds: the first in `npm test`, all three in `npm run test:all`. */
const SEEDS = ['seed-1', 'seed-2', 'seed-3'].slice(0, caseCount({ fast: 1, all: 3 }));

describe('Submission → Get Many while the sandbox changes submissions between requests', () => {
	// countFirst: the sandbox counts before it lists, with the changes in between.
	const cases = (['spread', 'ties', 'boundaryTies'] as const).flatMap((layout) =>
		(['asc', 'desc'] as const).flatMap((sort) =>
			SEEDS.flatMap((seed) =>
				[false, true].map((countFirst) => [layout, sort, seed, countFirst] as const),
			),
		),
	);

	it.each(cases)(
		'%s, %s, %s, count first: %s: each submission that existed throughout, once',
		async (layout, sort, seed, countFirst) => {
			const formId = (await newForm(sandbox())).id as string;
			const initial: string[] = [];
			for (const batch of batchesFor(layout)) {
				initial.push(...((await generate(sandbox(), formId, batch)).submissionIds as string[]));
			}
			await control(sandbox(), 'POST', `/forms/${formId}/churn`, {
				seed,
				changesPerList: 3,
				countFirst,
			});
			const { result, listRequests } = await listAllSubmissions(sandbox(), formId, {
				filters: { sort },
			});
			const churn = await control(sandbox(), 'GET', `/forms/${formId}/churn`);
			const stopped = await control(sandbox(), 'DELETE', `/forms/${formId}/churn`);
			expect(stopped.active).toBe(false);

			expect(result.error).toBeUndefined();
			const rows = jsonOf(result);
			const ids = rows.map((row) => String(row.submissionId));
			expect(new Set(ids).size).toBe(ids.length);
			const deleted = new Set(churn.deleted as string[]);
			const got = new Set(ids);
			expect(initial.filter((id) => !deleted.has(id) && !got.has(id))).toEqual([]);
			const known = new Set([...initial, ...(churn.inserted as string[])]);
			expect(ids.filter((id) => !known.has(id))).toEqual([]);
			const times = rows.map((row) => Date.parse(String(row.submissionTime)));
			const sign = sort === 'asc' ? 1 : -1;
			expect(times.every((time, i) => i === 0 || sign * (time - times[i - 1]) >= 0)).toBe(true);
			// The table really changed between the requests.
			expect(churn.lists).toBe(listRequests);
			expect(listRequests).toBeGreaterThanOrEqual(4);
			expect((churn.deleted as string[]).length).toBeGreaterThan(0);
			expect((churn.inserted as string[]).length).toBeGreaterThan(0);
		},
	);
});
