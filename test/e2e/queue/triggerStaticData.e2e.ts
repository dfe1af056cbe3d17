/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the main's log file (node:fs) */
/**
 * The workflow that broke the trigger in queue mode: Fillout Trigger → a Code node that
 * counts in `$getWorkflowStaticData('global')`. A worker starts each execution with
 * empty static data and, because the Code node writes some, saves what it holds over
 * the workflow's whole static data. The trigger's record rides with each execution, so
 * that save holds it too (nodes/Fillout/webhookTrigger/signedRecord.ts). Through deliveries, a
 * main restart, a webhook-processor restart and an unpublish: each submission gives
 * exactly one execution, Fillout holds exactly one live registration while the workflow
 * is published, and unpublishing removes it at Fillout.
 */
import { readFileSync } from 'node:fs';

import type { WorkflowDefinition } from '../support/n8nClient';
import { http } from '../../support/http';
import { queryPostgres } from '../support/queueServices';
import { sleep, waitFor } from '../support/processes';
import { NODE_NAMES, triggerWorkflow, type CredentialRef } from '../support/workflows';
import {
	connectQueue,
	createTriggerFixture,
	restartProcess,
	settledWebhooks,
	staticDataCounter,
	unique,
	workersThatRan,
	type QueueContext,
} from './support';

const COUNTER = 'Count';

/** Fillout Trigger → Code (counts deliveries in the workflow's global static data). */
function countingWorkflow(name: string, credential: CredentialRef, formId: string) {
	const base = triggerWorkflow({ name, credential, formId });
	const counter = staticDataCounter(COUNTER, [220, 0]);
	const workflow: WorkflowDefinition = {
		...base,
		nodes: [base.nodes[0], counter],
		connections: {
			[NODE_NAMES.trigger]: { main: [[{ node: COUNTER, type: 'main', index: 0 }]] },
		},
	};
	return workflow;
}

let queue: QueueContext;
let formId: string;
let workflowId: string;
const submitted: string[] = [];

beforeAll(async () => {
	queue = await connectQueue();
	({ formId, workflowId } = await createTriggerFixture(queue, 'static data', (credential, form) =>
		countingWorkflow(unique('counting'), credential, form),
	));
});

afterAll(async () => {
	await queue.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
});

/** The form's live registrations: webhooks at Fillout that still reach the workflow. */
async function expectOneLiveRegistration(): Promise<void> {
	const webhooks = await settledWebhooks(queue.sandbox, formId, 1);
	expect(webhooks.map((webhook) => new URL(webhook.url).origin)).toEqual([
		new URL(queue.state.webhook.url).origin,
	]);
}

/**
 * A respondent submits `count` times; every delivery is accepted and every submission
 * so far (`submitted`) has run exactly once, on a worker, through the counter.
 */
async function deliverAndCheck(label: string, count: number): Promise<void> {
	for (let index = 0; index < count; index++) {
		const { submission, deliveries } = await queue.sandbox.respond(formId, {
			answers: { qName: `${label} ${index + 1}` },
		});
		submitted.push(submission.submissionId);
		expect({ label, deliveries }).toEqual({
			label,
			deliveries: [expect.objectContaining({ statusCode: 200 })],
		});
	}
	const summaries = await queue.n8n.waitForExecutions(workflowId, submitted.length, 60_000);
	await sleep(1_500);
	const executions = await Promise.all(
		(await queue.n8n.listExecutions({ workflowId })).map(
			async (summary) => await queue.n8n.waitForExecution(summary.id),
		),
	);
	expect(executions.length).toBeGreaterThanOrEqual(summaries.length);
	const ran = executions.map((execution) => {
		expect({ id: execution.id, status: execution.status }).toEqual({
			id: execution.id,
			status: 'success',
		});
		expect(execution.nodesRun).toContain(COUNTER);
		expect(workersThatRan(queue.state, execution.id)).toHaveLength(1);
		return String(execution.items(NODE_NAMES.trigger)[0].submissionId);
	});
	expect(ran.sort()).toEqual([...submitted].sort());
}

/** The workflow's static data as n8n stored it. */
async function storedStaticData(): Promise<Record<string, unknown>> {
	const [[text]] = await queryPostgres(
		queue.state.postgres,
		`SELECT COALESCE("staticData"::text, '{}') FROM workflow_entity WHERE id = '${workflowId}'`,
	);
	return JSON.parse(text) as Record<string, unknown>;
}

it('publishing registers one webhook; deliveries each run once, again and again', async () => {
	await queue.n8n.activateWorkflow(workflowId);
	await expectOneLiveRegistration();
	await deliverAndCheck('first', 3);
});

it("the workers saved their static data over the workflow's, and it still holds the trigger's record", async () => {
	const [registered] = await queue.sandbox.webhooksOf(formId);
	const stored = await storedStaticData();
	// A worker counts from nothing: each execution saved {counted: 1} over the whole object.
	expect(stored.global).toEqual({ counted: 1 });
	const nodeData = stored[`node:${NODE_NAMES.trigger}`] as { catchUp?: { delivered?: object } };
	expect(nodeData).toEqual({
		production: expect.objectContaining({ webhookId: registered.id, formId }),
		catchUp: expect.objectContaining({ version: 1, formId }),
	});
	// Workers finish in any order, so the last save may carry an earlier delivery's record:
	// some of the deliveries, and none that was not made.
	const delivered = Object.keys(nodeData.catchUp?.delivered ?? {});
	expect(delivered.length).toBeGreaterThan(0);
	expect(delivered.filter((id) => !submitted.includes(id))).toEqual([]);
});

it('after a main restart: still one live registration, and deliveries each run once', async () => {
	await restartProcess(queue, 'main');
	await expectOneLiveRegistration();
	await deliverAndCheck('after main restart', 2);
});

it('after a webhook-processor restart: deliveries each run once', async () => {
	await restartProcess(queue, 'webhook');
	await expectOneLiveRegistration();
	await deliverAndCheck('after webhook restart', 2);
});

it('after unpublishing, a submission starts nothing', async () => {
	const [registered] = await queue.sandbox.webhooksOf(formId);
	await queue.n8n.deactivateWorkflow(workflowId);
	const before = (await queue.n8n.listExecutions({ workflowId })).length;
	// Without its secret the address starts nothing either way: 401 while the webhook
	// processor still serves it, 404 once it sees the workflow inactive.
	const address = new URL(registered.url);
	address.search = '';
	await waitFor(async () => (await http('POST', address.href, { json: {} })).status === 404, {
		timeoutMs: 15_000,
		description: 'the webhook processor to stop serving the address',
	});
	const { deliveries } = await queue.sandbox.respond(formId, {});
	expect(deliveries.filter((delivery) => delivery.statusCode === 200)).toEqual([]);
	await sleep(1_500);
	expect((await queue.n8n.listExecutions({ workflowId })).length).toBe(before);
});

it('unpublishing removed the registration at Fillout, and no process reported a lost record', async () => {
	expect(await settledWebhooks(queue.sandbox, formId)).toEqual([]);
	const log = readFileSync(queue.state.main.logFile, 'utf8');
	expect(log).not.toContain('lost the record of its Fillout webhook');
	expect(log).not.toContain(`workflow ${workflowId} has no record of its Fillout webhook`);
});
