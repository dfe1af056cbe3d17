import { concurrentExports, control, generate, newForm, resetStats, useSandbox } from './support';

/**
 * A proxy (or a misread plan) announces 1,000 requests per second in `ratelimit-limit`
 * while the service keeps to 5. The node believes an announced limit only up to Fillout's
 * documented 5 (docs/fillout-api.md, "Rate limit"), so three exports at once on one
 * credential keep within the true limit: 429s only from the pacer's lead, at most once per
 * window it overfilled (believing 1,000, most requests were refused).
 */
const sandbox = useSandbox({ rateLimit: 5, announcedLimit: 1000 });

let formId: string;
beforeAll(async () => {
	formId = (await newForm(sandbox())).id;
	await generate(sandbox(), formId, { count: 1500 });
});

it('three exports at once keep within the true limit of 5 though 1,000 is announced', async () => {
	await resetStats(sandbox());
	const runs = await concurrentExports(sandbox(), formId, 3);
	const stats = await control(sandbox(), 'GET', '/stats');
	expect(runs.map((run) => run.error)).toEqual([undefined, undefined, undefined]);
	expect(runs.map((run) => run.items.length)).toEqual([1500, 1500, 1500]);
	// Some 36 requests; the lead may overfill a window or two on a busy machine.
	expect(stats.rateLimited).toBeLessThanOrEqual(5);
}, 60_000);
