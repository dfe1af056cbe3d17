/**
 * The Fillout Trigger in queue mode: the main registers the webhook (at the webhook
 * processor's address), the webhook processor receives the deliveries, and workers run
 * the executions. Publishing registers exactly one webhook; a delivery without the
 * secret starts nothing; restarting the main keeps exactly one webhook and loses no
 * later delivery; unpublishing removes it.
 */
import { http } from '../../support/http';
import type { Execution } from '../support/n8nClient';
import { sleep, waitFor } from '../support/processes';
import type { SandboxWebhook, Submission } from '../support/sandbox';
import { NODE_NAMES, productionWebhookUrl, triggerWorkflow } from '../support/workflows';
import {
	connectQueue,
	createTriggerFixture,
	expectRanOnOneWorker,
	restartProcess,
	settledWebhooks,
	unique,
	type QueueContext,
} from './support';

let queue: QueueContext;
let formId: string;
let formName: string;
let workflowId: string;
const webhookId = crypto.randomUUID();
let registered: SandboxWebhook;
let delivered: Submission;

beforeAll(async () => {
	queue = await connectQueue();
	({ formId, formName, workflowId } = await createTriggerFixture(
		queue,
		'queue trigger',
		(credential, form) =>
			triggerWorkflow({ name: unique('queue trigger'), credential, formId: form, webhookId }),
	));
});

afterAll(async () => {
	await queue.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
});

async function executionCount(): Promise<number> {
	return (await queue.n8n.listExecutions({ workflowId })).length;
}

/** The executions that ended, oldest first, once there are `count`. */
async function endedExecutions(count: number): Promise<Execution[]> {
	const summaries = await queue.n8n.waitForExecutions(workflowId, count, 60_000);
	const executions = await Promise.all(
		summaries.map(async (summary) => await queue.n8n.waitForExecution(summary.id)),
	);
	return executions.reverse();
}

it('publishing registers exactly one webhook, at the webhook processor’s address, with a secret', async () => {
	expect(await queue.sandbox.webhooksOf(formId)).toEqual([]);
	expect((await queue.n8n.activateWorkflow(workflowId)).active).toBe(true);
	const webhooks = await settledWebhooks(queue.sandbox, formId, 1);
	expect(webhooks).toHaveLength(1);
	[registered] = webhooks;
	const address = new URL(registered.url);
	expect(`${address.origin}${address.pathname}`).toBe(
		productionWebhookUrl(queue.state.webhook.url, webhookId),
	);
	expect(address.origin).not.toBe(new URL(queue.state.main.url).origin);
	expect(address.searchParams.get('secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

it('deliveries go to the webhook processor and each runs once, on a worker', async () => {
	const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
	const results = await Promise.all(
		names.map(async (name) => await queue.sandbox.respond(formId, { answers: { qName: name } })),
	);
	for (const { deliveries } of results) {
		expect(deliveries).toEqual([
			expect.objectContaining({ webhookId: registered.id, url: registered.url, statusCode: 200 }),
		]);
	}
	delivered = results[0].submission;

	const executions = await endedExecutions(names.length);
	expect(executions).toHaveLength(names.length);
	const seen = executions.map((execution) => {
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('webhook');
		return execution.items(NODE_NAMES.trigger)[0].submissionId;
	});
	expect(seen.sort()).toEqual(results.map((result) => result.submission.submissionId).sort());
	for (const execution of executions) expectRanOnOneWorker(queue.state, execution.id);
});

it('a delivery without the secret, or with a wrong one, gets 401 and starts nothing', async () => {
	const before = await executionCount();
	const body = { formId, formName, submission: delivered };
	const bare = productionWebhookUrl(queue.state.webhook.url, webhookId);
	expect((await http('POST', bare, { json: body })).status).toBe(401);
	expect((await http('POST', `${bare}?secret=${'x'.repeat(43)}`, { json: body })).status).toBe(401);
	await sleep(2_000);
	expect(await executionCount()).toBe(before);
});

it('restarting the main leaves exactly the one webhook, and a delivery after it is back runs once', async () => {
	const before = await executionCount();
	await restartProcess(queue, 'main');
	expect(await queue.n8n.hasSession()).toBe(true);
	const webhooks = await settledWebhooks(queue.sandbox, formId, 1);
	expect(webhooks).toEqual([expect.objectContaining({ id: registered.id, url: registered.url })]);

	const { submission, deliveries } = await queue.sandbox.respond(formId, {
		answers: { qName: 'After Restart' },
	});
	expect(deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
	const executions = await endedExecutions(before + 1);
	const newest = executions[executions.length - 1];
	expect(newest.items(NODE_NAMES.trigger)).toEqual([
		expect.objectContaining({ submissionId: submission.submissionId, Name: 'After Restart' }),
	]);
	expectRanOnOneWorker(queue.state, newest.id);
	await sleep(2_000);
	expect(await executionCount()).toBe(before + 1);
});

it('unpublishing removes the webhook; its address then starts nothing', async () => {
	const before = await executionCount();
	expect((await queue.n8n.deactivateWorkflow(workflowId)).active).toBe(false);
	expect(await settledWebhooks(queue.sandbox, formId)).toEqual([]);
	const body = { formId, formName, submission: delivered };
	// The webhook processor reads the registrations from the database: give it a moment.
	await waitFor(async () => (await http('POST', registered.url, { json: body })).status === 404, {
		timeoutMs: 15_000,
		description: 'the webhook processor to stop serving the address',
	});
	expect((await queue.sandbox.respond(formId, {})).deliveries).toEqual([]);
	await sleep(1_000);
	expect(await executionCount()).toBe(before);
});
