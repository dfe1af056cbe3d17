/**
 * Fillout allows 5 requests per second per key, and the sandbox enforces it. Two
 * executions of one credential running at the same time in one n8n must share the
 * node's pacing: both finish with every submission, and the sandbox refuses nothing but,
 * on a busy machine, the requests the pacer's lead had in flight when one window
 * overfilled (at most 5: docs/rate-limits.md, "The pacer").
 */
import { createApiKeyCredential } from './support/credentials';
import type { Execution } from './support/n8nClient';
import { actionWorkflow, formById, NODE_NAMES, type CredentialRef } from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

const SUBMISSIONS = 1_000;

let e2e: E2eContext;
let credential: CredentialRef;
let formId: string;
let apiKey: string;

beforeAll(async () => {
	e2e = await connectE2e();
	// A key of its own, so that only these executions count against its limit.
	const account = await e2e.sandbox.createAccount({ name: unique('e2e rate limit') });
	credential = await createApiKeyCredential(
		e2e.n8n,
		unique('rate limit key'),
		account.apiKey,
		e2e.state.sandbox.origin,
	);
	formId = (await e2e.sandbox.createForm({ name: unique('e2e many'), accountId: account.id })).id;
	await e2e.sandbox.generate(formId, { count: SUBMISSIONS });
	apiKey = account.apiKey;
});

it('two concurrent Return All runs (7 pages each) of one credential stay within 5 requests per second', async () => {
	const workflow = (label: string) =>
		actionWorkflow({
			name: unique(label),
			credential,
			parameters: {
				resource: 'submission',
				operation: 'getMany',
				form: formById(formId),
				returnAll: true,
				simplify: false,
			},
		});
	const before = (await e2e.sandbox.stats()).byKey[apiKey] ?? { total: 0, rateLimited: 0 };
	const started = Date.now();
	const [first, second] = await Promise.all([
		e2e.n8n.runOnce(workflow('paced one')),
		e2e.n8n.runOnce(workflow('paced two')),
	]);
	const elapsed = Date.now() - started;
	const after = (await e2e.sandbox.stats()).byKey[apiKey];

	for (const execution of [first, second] as Execution[]) {
		expect(execution.status).toBe('success');
		const ids = execution.items(NODE_NAMES.fillout).map((item) => item.submissionId);
		expect(ids).toHaveLength(SUBMISSIONS);
		expect(new Set(ids).size).toBe(SUBMISSIONS);
	}
	const refused = after.rateLimited - before.rateLimited;
	const requests = after.total - before.total - refused;
	expect(requests).toBeGreaterThanOrEqual(14);
	expect(refused).toBeLessThanOrEqual(5);
	// 5 per second: the requests cannot all have gone out in less than (n / 5 - 1) seconds.
	expect(elapsed).toBeGreaterThanOrEqual((requests / 5 - 1) * 1000);
});
