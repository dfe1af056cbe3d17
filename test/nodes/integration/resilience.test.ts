import { closedPortUrl } from '../../harness';
import {
	apiKeyCredentials,
	clearFaults,
	concurrentExports,
	control,
	DIRECT_KEY,
	formById,
	generate,
	LIST_ROUTE,
	listAllSubmissions,
	newForm,
	requestCounts,
	resetStats,
	runFillout,
	servedCount,
	setFaults,
	useSandbox,
} from './support';
import { sleep } from '../../../sandbox/timers';
import { HarnessCredentialsHelper } from '../../harness/credentials';

const sandbox = useSandbox();
afterEach(async () => await clearFaults(sandbox()));

let formId: string;
beforeAll(async () => {
	formId = (await newForm(sandbox())).id;
	await generate(sandbox(), formId, { count: 200 });
});

/** Return All over the form: `requests` counts every list request, refused ones too. */
async function listAll() {
	const { listRequests, rateLimited, ...rest } = await listAllSubmissions(sandbox(), formId);
	return { ...rest, requests: listRequests + rateLimited };
}

describe('GET: 429 storms and transient failures are retried (bounded)', () => {
	it('waits at least retry-after on each 429, more than the old fixed 5 times, then succeeds', async () => {
		await setFaults(sandbox(), { failNext: { count: 6, status: 429, method: 'GET' } });
		const { result, elapsed, requests } = await listAll();
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(200);
		expect(requests).toBe(2 + 6);
		expect(elapsed).toBeGreaterThanOrEqual(6000);
	}, 40_000);

	it('gives up at once with a clear error when retry-after asks for a minute or more', async () => {
		await setFaults(sandbox(), {
			failNext: { count: 20, status: 429, method: 'GET', retryAfter: '61' },
		});
		const { result, requests, elapsed } = await listAll();
		expect(result.error?.message).toBe(
			'Fillout’s rate limit (5 requests per second) was still exceeded after retrying',
		);
		expect(result.error?.description).toContain(
			'Gave up after 1 attempt: a request is sent only while that can happen within 2 minutes of when the node asked for it',
		);
		expect(result.error?.description).toContain(
			'A wait of a minute or more, when Fillout asks for it, is not retried.',
		);
		expect(requests).toBe(1);
		expect(elapsed).toBeLessThan(5000);
	});

	it.each([
		['502s', 2, { failNext: { count: 2, status: 502, method: 'GET' } }],
		['dropped connections', 3, { dropNext: { count: 3, method: 'GET' } }],
	])('retries %s with backoff, then succeeds', async (_, failures, faults) => {
		await setFaults(sandbox(), faults);
		const { result, requests } = await listAll();
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(200);
		expect(requests).toBe(2 + failures);
	});

	it('stops after 4 attempts of a lasting server error', async () => {
		await setFaults(sandbox(), { failNext: { count: 10, status: 500, method: 'GET' } });
		const { result, requests } = await listAll();
		expect(result.error?.message).toBe('Fillout failed to process the request (HTTP 500)');
		expect(requests).toBe(4);
	});
});

/** Resolves once the sandbox has counted `count` API requests since its stats were reset. */
async function requestsReached(count: number): Promise<void> {
	for (;;) {
		const stats = await control(sandbox(), 'GET', '/stats');
		if ((stats.total as number) >= count) return;
		await sleep(10);
	}
}

describe('A cancelled execution hands n8n nothing more to send', () => {
	const returnAll = {
		resource: 'submission',
		operation: 'getMany',
		form: {},
		returnAll: true,
		simplify: false,
	};
	/** Requests the node handed to n8n's request helper: each is authenticated first. */
	let handed = 0;
	beforeEach(() => {
		handed = 0;
		const authenticate = HarnessCredentialsHelper.prototype.authenticate;
		jest
			.spyOn(HarnessCredentialsHelper.prototype, 'authenticate')
			.mockImplementation(async function (this: HarnessCredentialsHelper, ...args) {
				handed++;
				return await authenticate.apply(this, args);
			});
	});
	afterEach(() => jest.restoreAllMocks());

	it('not the retry of a refused request', async () => {
		await setFaults(sandbox(), {
			failNext: { count: 3, status: 429, method: 'GET', retryAfter: '2' },
		});
		await resetStats(sandbox());
		await runFillout(
			sandbox(),
			{ ...returnAll, form: formById(formId) },
			{ cancelWhen: requestsReached(1) },
		);
		// The retry would have come 2 s (and some jitter) after the refusal.
		await sleep(3_500);
		expect(handed).toBe(1);
		expect((await requestCounts(sandbox()))[LIST_ROUTE]).toBe(1);
	}, 20_000);

	it('not the pages waiting for their turn', async () => {
		const big = (await newForm(sandbox())).id;
		await generate(sandbox(), big, { count: 3_000 });
		await setFaults(sandbox(), { latencyMs: 300 });
		await resetStats(sandbox());
		let handedAtCancel = 0;
		// 20 pages, 5 a second: past the first page, the reader keeps 5 pages asked for, those
		// over the window's 5 waiting for their turn.
		const cancelWhen = requestsReached(3).then(() => (handedAtCancel = handed));
		await runFillout(sandbox(), { ...returnAll, form: formById(big) }, { cancelWhen });
		await sleep(2_500);
		expect(handedAtCancel).toBeGreaterThanOrEqual(3);
		expect(handed).toBe(handedAtCancel);
		expect((await requestCounts(sandbox()))[LIST_ROUTE]).toBeLessThanOrEqual(handedAtCancel);
	}, 30_000);
});

describe('GET: a host that refuses connections', () => {
	it('is tried 4 times with backoff, then named in the error', async () => {
		const baseUrl = await closedPortUrl();
		const started = Date.now();
		const result = await runFillout(
			sandbox(),
			{ resource: 'form', operation: 'getMany', returnAll: true },
			{
				credentials: {
					filloutFormsApi: { apiKey: sandbox().demo.apiKey, region: 'custom', baseUrl },
				},
			},
		);
		// Backoff 250 + 500 + 1000 ms between the 4 attempts.
		expect(Date.now() - started).toBeGreaterThanOrEqual(1750);
		expect(result.error?.message).toBe(`Could not reach Fillout at ${baseUrl}/v1/api`);
		expect(result.error?.description).toMatch(/ECONNREFUSED.*Base URL/);
	});
});

describe('DELETE: transient failures are retried', () => {
	it.each([
		['a 503', { failNext: { count: 2, status: 503, method: 'DELETE' } }, 3],
		['a dropped connection', { dropNext: { count: 1, method: 'DELETE' } }, 2],
	])('after %s', async (_, faults, attempts) => {
		const { submission } = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {});
		await setFaults(sandbox(), faults);
		await resetStats(sandbox());
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'delete',
			form: formById(formId),
			submissionId: submission.submissionId,
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ deleted: true, submissionId: submission.submissionId });
		expect(
			(await requestCounts(sandbox()))['DELETE /v1/api/forms/:formId/submissions/:submissionId'],
		).toBe(attempts);
	});
});

describe('DELETE: a retry that finds nothing to delete', () => {
	const DELETE_ROUTE = 'DELETE /v1/api/forms/:formId/submissions/:submissionId';
	const deleteSubmission = async (submissionId: string) =>
		await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'delete',
			form: formById(formId),
			submissionId,
		});

	it('reports deleted when the first attempt deleted it but its answer was lost', async () => {
		const { submission } = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {});
		await setFaults(sandbox(), { dropAfterProcessingNext: { count: 1, method: 'DELETE' } });
		await resetStats(sandbox());
		const result = await deleteSubmission(submission.submissionId);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ deleted: true, submissionId: submission.submissionId });
		expect((await requestCounts(sandbox()))[DELETE_ROUTE]).toBe(2);
		const read = await fetch(
			`${sandbox().apiRoot}/forms/${formId}/submissions/${submission.submissionId}`,
			{ headers: { authorization: `Bearer ${DIRECT_KEY}` } },
		);
		expect(read.status).toBe(404);
	});

	it('still says not found when no earlier attempt can have deleted it (the first was a 429)', async () => {
		await setFaults(sandbox(), { failNext: { count: 1, status: 429, method: 'DELETE' } });
		await resetStats(sandbox());
		const result = await deleteSubmission('neverExisted');
		expect(result.error?.message).toBe(`Submission neverExisted not found in form ${formId}`);
		expect((await requestCounts(sandbox()))[DELETE_ROUTE]).toBe(2);
	});

	it('still says not found on a first attempt', async () => {
		const result = await deleteSubmission('neverExisted');
		expect(result.error?.message).toBe(`Submission neverExisted not found in form ${formId}`);
	});

	it('Webhook → Delete: reports deleted when the first attempt deleted it but its answer was lost', async () => {
		const created = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'create',
			form: formById(formId),
			url: 'https://example.com/hooks/lost-answer',
		});
		const webhookId = created.items[0].json.id as number;
		await setFaults(sandbox(), {
			dropAfterProcessingNext: { count: 1, method: 'POST', pathPattern: 'webhook/delete' },
		});
		const result = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'delete',
			webhookId: String(webhookId),
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ deleted: true, webhookId });
		const hooks = (await control(sandbox(), 'GET', '/webhooks')) as Array<{ id: number }>;
		expect(hooks.some((hook) => hook.id === webhookId)).toBe(false);
	});
});

describe('Pacing: 5 requests per second per credential, shared by concurrent executions', () => {
	it('three executions at once on one credential share 5 per second: 429s only from the lead', async () => {
		const big = (await newForm(sandbox())).id;
		await generate(sandbox(), big, { count: 700 });
		await resetStats(sandbox());
		const started = Date.now();
		const runs = await concurrentExports(sandbox(), big, 3);
		const elapsed = Date.now() - started;
		const stats = await control(sandbox(), 'GET', '/stats');
		expect(runs.every((run) => run.items.length === 700)).toBe(true);
		// 5 pages each, up to 2 more when the newest range's last page comes in first.
		expect(servedCount(stats, LIST_ROUTE)).toBeGreaterThanOrEqual(15);
		expect(servedCount(stats, LIST_ROUTE)).toBeLessThanOrEqual(3 * (Math.ceil(700 / 150) + 2));
		// None on a quiet machine. On a busy one the lead may overfill one window: at most the
		// 5 requests in flight then (docs/rate-limits.md, "The pacer"). Unshared: 10 at once.
		expect(stats.rateLimited).toBeLessThanOrEqual(5);
		// 15 requests at 5 per second: two full waits.
		expect(elapsed).toBeGreaterThanOrEqual(2000);
		expect(elapsed).toBeLessThan(10_000);
	});

	it('two credentials on one API root are paced apart: each has its own 5 per second', async () => {
		const big = (await newForm(sandbox())).id;
		await generate(sandbox(), big, { count: 3000 });
		await resetStats(sandbox());
		const parameters = {
			resource: 'submission',
			operation: 'getMany',
			form: formById(big),
			returnAll: true,
		};
		const keys = [sandbox().demo.apiKey, DIRECT_KEY];
		const runs = await Promise.all(
			keys.map(
				async (apiKey) =>
					await runFillout(sandbox(), parameters, {
						credentials: apiKeyCredentials(sandbox(), apiKey),
						credentialId: `credential of ${apiKey}`,
					}),
			),
		);
		expect(runs.map((run) => run.items.length)).toEqual([3000, 3000]);
		const counted: number[] = [];
		for (const key of keys) {
			const timeline = await control(sandbox(), 'GET', `/stats/timeline?key=${key}`);
			counted.push(...(timeline as Array<[number, number]>).map(([at]) => at));
		}
		// Paced as one credential, no second holds more than 5 of both keys' requests (6 if
		// the lead misjudges once); apart, each key reads for some 4 s at 5 a second, together.
		const busiestSecond = Math.max(
			...counted.map((from) => counted.filter((at) => at >= from && at < from + 1000).length),
		);
		expect(busiestSecond).toBeGreaterThanOrEqual(7);
	});
});
