/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the main's log file (node:fs) */
/**
 * The workflow that broke the trigger in queue mode: Fillout Trigger → a Code node that
 * counts in `$getWorkflowStaticData('global')`. A worker starts each execution with
 * empty static data and, because the Code node writes some, saves what it holds over
 * the workflow's whole static data, so whatever the trigger keeps there is gone after
 * the first execution. Through deliveries, a main restart, a webhook-processor restart
 * and an unpublish: each submission gives exactly one execution, Fillout holds exactly
 * one live registration while the workflow is published, and after unpublishing nothing
 * starts. That the registration is also gone at Fillout is the last test (a known limit).
 */
import { readFileSync } from 'node:fs';

import type { WorkflowDefinition } from '../lib/n8nClient';
import { http } from '../../support/http';
import { sleep, waitFor } from '../lib/processes';
import { NODE_NAMES, triggerWorkflow, type CredentialRef } from '../lib/workflows';
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

it('publishing registers one webhook; deliveries each run once, again and again', async () => {
	await queue.n8n.activateWorkflow(workflowId);
	await expectOneLiveRegistration();
	await deliverAndCheck('first', 3);
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

it('unpublishing with the record lost: the main says, in its log, that nothing was removed at Fillout', async () => {
	const log = readFileSync(queue.state.main.logFile, 'utf8');
	expect(log).toContain(
		`Fillout Trigger: workflow ${workflowId} has no record of its Fillout webhook in static data`,
	);
});

/*
 * The issue asks that unpublishing remove the webhook at Fillout. Fillout removes one only
 * by its id and cannot list them; with the record lost and both the main and the webhook
 * processor restarted since, no process holds the id any more (the trigger's documented
 * limit, docs/trigger-static-data.md). `it.failing` passes while the webhook stays; once
 * the trigger removes it, this fails: then make it a plain `it`.
 */
it.failing('unpublishing removed the registration at Fillout', async () => {
	expect(await settledWebhooks(queue.sandbox, formId)).toEqual([]);
});
