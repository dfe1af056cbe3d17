import {
	concurrentExports,
	control,
	generate,
	listAllSubmissions,
	newForm,
	resetStats,
	useSandbox,
} from './support';

/**
 * A plan with another rate limit: the sandbox announces 2 requests per second in
 * `ratelimit-limit` (and enforces it). The node takes the announced limit as its ceiling
 * instead of assuming 5, so an export, alone or three at once on one credential, keeps
 * within it (with 5 assumed, the third request of every second was refused). On a busy
 * machine the pacer's lead may overfill one window: at most the 2 requests in flight then.
 */
const sandbox = useSandbox({ rateLimit: 2 });

let formId: string;
beforeAll(async () => {
	formId = (await newForm(sandbox())).id;
	await generate(sandbox(), formId, { count: 700 });
});

it('an export follows the announced limit of 2 per second: every submission, 429s only from the lead', async () => {
	const { result, listRequests, rateLimited } = await listAllSubmissions(sandbox(), formId);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(700);
	expect(new Set(result.items.map((item) => item.json.submissionId)).size).toBe(700);
	// 5 pages; up to 2 more when the newest range's last page is answered before the other's.
	expect(listRequests).toBeGreaterThanOrEqual(5);
	expect(listRequests).toBeLessThanOrEqual(Math.ceil(700 / 150) + 2);
	expect(rateLimited).toBeLessThanOrEqual(2);
}, 30_000);

it('three executions at once on one credential share the announced limit: 429s only from the lead', async () => {
	await resetStats(sandbox());
	const runs = await concurrentExports(sandbox(), formId, 3);
	const stats = await control(sandbox(), 'GET', '/stats');
	expect(runs.map((run) => run.items.length)).toEqual([700, 700, 700]);
	expect(stats.rateLimited).toBeLessThanOrEqual(2);
}, 30_000);
