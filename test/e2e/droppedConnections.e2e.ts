/**
 * An export (Submission → Get Many, Return All) while Fillout's connections break: the
 * sandbox closes some list requests without an answer, spread over the export. n8n's
 * request helper reports a broken connection in its own way (n8n 1.x and 2.x differ);
 * the node must see it as worth retrying and finish with every submission once, in order.
 * With the API key and with OAuth2 (n8n sends OAuth2 requests down another path).
 */
import { createApiKeyCredential, createOAuth2Credential } from './support/credentials';
import { sandboxAccessToken } from './support/oauth';
import { sleep } from './support/processes';
import type { FilloutApi } from './support/sandbox';
import { actionWorkflow, formById, NODE_NAMES, type CredentialRef } from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

/** Three pages of 150 and some. */
const SUBMISSIONS = 420;
/** Connections closed in all: two in a row on the first request, then one at a time. */
const DROPS = 6;
/** How long the sandbox holds each request meanwhile. */
const LATENCY_MS = 150;

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

afterEach(async () => {
	await e2e.sandbox.clearFaults();
});

const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';

/** List requests the sandbox has received (dropped ones included). */
async function listRequests(): Promise<number> {
	return (await e2e.sandbox.stats()).requests[LIST_ROUTE] ?? 0;
}

/**
 * Closes the connection of some of the form's list requests while `running` lasts: the
 * first two, then each time the second request after the last drop arrives (the first
 * was the retry, which must get through: the node tries a request at most four times),
 * up to DROPS in all. The sandbox holds every request LATENCY_MS before answering, so a
 * drop set when a request arrives still catches it. Resolves with how many were closed.
 */
async function dropConnectionsDuring(formId: string, running: Promise<unknown>) {
	const dropNext = (count: number) => ({
		dropNext: { count, method: 'GET', pathPattern: `/forms/${formId}/submissions$` },
	});
	let done = false;
	void running.finally(() => (done = true)).catch(() => undefined);
	await e2e.sandbox.setFaults({ latencyMs: LATENCY_MS, ...dropNext(2) });
	let armed = 2;
	let lastDropAt: number | undefined;
	while (!done) {
		if ((await e2e.sandbox.faults()).dropNext.length === 0) {
			const requests = await listRequests();
			lastDropAt ??= requests;
			if (armed < DROPS && requests >= lastDropAt + 2) {
				await e2e.sandbox.setFaults(dropNext(1));
				armed++;
				lastDropAt = undefined;
			}
		}
		await sleep(10);
	}
	const left = (await e2e.sandbox.faults()).dropNext.reduce((sum, r) => sum + r.remaining, 0);
	return armed - left;
}

describe.each([
	{
		label: 'the API key',
		accountId: 'acct_demo',
		credential: async () =>
			await createApiKeyCredential(
				e2e.n8n,
				unique('dropped key'),
				e2e.demo.apiKeys[0],
				e2e.state.sandbox.origin,
			),
		check: () => e2e.checkDemo,
	},
	{
		label: 'OAuth2 (EU workspace)',
		accountId: 'acct_eu',
		credential: async () =>
			await createOAuth2Credential(
				e2e.n8n,
				unique('dropped oauth'),
				e2e.state.sandbox.origin,
				e2e.oauthClient,
				await sandboxAccessToken(e2e.state.sandbox.origin, e2e.oauthClient, {
					account: 'acct_eu',
				}),
			),
		check: () => e2e.checkEu,
	},
])('an export with $label while connections drop', ({ accountId, credential, check }) => {
	let formId: string;
	let using: CredentialRef;
	let checker: FilloutApi;

	beforeAll(async () => {
		using = await credential();
		checker = check();
		formId = (await e2e.sandbox.createForm({ name: unique('e2e dropped'), accountId })).id;
		await e2e.sandbox.generate(formId, { count: SUBMISSIONS });
	});

	it('retries the broken requests and returns every submission once, in order', async () => {
		const expected = (await checker.allSubmissions(formId)).map((s) => s.submissionId);
		expect(expected).toHaveLength(SUBMISSIONS);

		const running = e2e.n8n.runOnce(
			actionWorkflow({
				name: unique('export while dropping'),
				credential: using,
				parameters: {
					resource: 'submission',
					operation: 'getMany',
					form: formById(formId),
					returnAll: true,
					simplify: false,
				},
			}),
		);
		const dropped = await dropConnectionsDuring(formId, running);
		const execution = await running;

		expect(execution.error?.message).toBeUndefined();
		expect(execution.status).toBe('success');
		const ids = execution.items(NODE_NAMES.fillout).map((item) => item.submissionId);
		expect(ids).toEqual(expected);
		// The premise: connections did break, on more than the first request.
		expect(dropped).toBeGreaterThanOrEqual(3);
	});
});
