/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the main's log file (node:fs) */
/**
 * The Fillout Polling Trigger in queue mode: the main polls (every minute, n8n's
 * shortest), workers run the executions. Two workflows side by side: one plain, and one
 * whose Code node counts in `$getWorkflowStaticData('global')`, so a worker saves its
 * partial static data over the workflow's. The cluster runs with n8n's durable poll
 * cursors (queueMode.ts), which keep the cursor in a table of its own: in both workflows
 * each submission starts exactly one execution, on a worker, over two poll cycles and a
 * restart of the main.
 */
import { readFileSync } from 'node:fs';

import { createApiKeyCredential } from '../support/credentials';
import { queryPostgres } from '../support/queueServices';
import type { WorkflowDefinition } from '../support/n8nClient';
import { sleep, waitFor } from '../support/processes';
import { NODE_NAMES, pollingTriggerWorkflow } from '../support/workflows';
import {
	connectQueue,
	restartProcess,
	staticDataCounter,
	unique,
	workersThatRan,
	type QueueContext,
} from './support';

/** n8n's shortest poll interval is a minute; allow for a slow machine. */
const POLL_WAIT_MS = 150_000;
const COUNTER = 'Count';

jest.setTimeout(10 * 60_000);

/** The polling workflow with its No Operation replaced by a Code node counting in static data. */
function withCounter(workflow: WorkflowDefinition): WorkflowDefinition {
	const counter = staticDataCounter(COUNTER, [220, 0]);
	return {
		...workflow,
		nodes: [workflow.nodes[0], counter],
		connections: {
			[NODE_NAMES.pollingTrigger]: { main: [[{ node: COUNTER, type: 'main', index: 0 }]] },
		},
	};
}

interface Polled {
	label: string;
	apiKey: string;
	formId: string;
	workflowId: string;
	made: string[];
}

let queue: QueueContext;
const polled: Polled[] = [];

beforeAll(async () => {
	queue = await connectQueue();
	for (const [label, counting] of [
		['plain', false],
		['counting in static data', true],
	] as const) {
		const account = await queue.sandbox.createAccount({ name: unique(`queue polling ${label}`) });
		const credential = await createApiKeyCredential(
			queue.n8n,
			unique('queue polling key'),
			account.apiKey,
			queue.state.sandbox.origin,
		);
		const formId = (
			await queue.sandbox.createForm({ name: unique('queue polled form'), accountId: account.id })
		).id;
		await queue.sandbox.generate(formId, { count: 2 });
		const workflow = pollingTriggerWorkflow({ name: unique('queue polling'), credential, formId });
		const workflowId = (await queue.n8n.createWorkflow(counting ? withCounter(workflow) : workflow))
			.id;
		polled.push({ label, apiKey: account.apiKey, formId, workflowId, made: [] });
	}
});

afterAll(async () => {
	for (const { workflowId } of polled) {
		await queue.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
});

/** List requests made with a workflow's key: one per poll. */
async function polls(apiKey: string): Promise<number> {
	const stats = await queue.sandbox.stats();
	return stats.byKey[apiKey]?.requests['GET /v1/api/forms/:formId/submissions'] ?? 0;
}

/** The submission ids of every execution of the workflow, one per item; each ran on a worker. */
async function emittedIds(workflowId: string): Promise<string[]> {
	const ids: string[] = [];
	for (const summary of await queue.n8n.listExecutions({ workflowId })) {
		const execution = await queue.n8n.waitForExecution(summary.id);
		expect({ id: execution.id, status: execution.status, mode: execution.mode }).toEqual({
			id: execution.id,
			status: 'success',
			mode: 'trigger',
		});
		expect(workersThatRan(queue.state, execution.id)).toHaveLength(1);
		for (const item of execution.items(NODE_NAMES.pollingTrigger)) {
			ids.push(String(item.submissionId));
		}
	}
	return ids.sort();
}

/** Waits until every workflow's executions carry its submissions, then checks each exactly once. */
async function expectEachOnce(): Promise<void> {
	for (const { label, workflowId, made } of polled) {
		await waitFor(
			async () => ((await emittedIds(workflowId)).length >= made.length ? true : undefined),
			{ timeoutMs: POLL_WAIT_MS, intervalMs: 2_000, description: `${label}: ${made.length}` },
		);
	}
	for (const { label, workflowId, made } of polled) {
		expect({ label, ids: await emittedIds(workflowId) }).toEqual({ label, ids: [...made].sort() });
	}
}

async function submitToEach(): Promise<void> {
	for (const entry of polled) {
		entry.made.push((await queue.sandbox.respond(entry.formId, {})).submission.submissionId);
	}
}

it('publishing polls once on the main and emits nothing that was already there', async () => {
	for (const { apiKey, workflowId } of polled) {
		expect((await queue.n8n.activateWorkflow(workflowId)).active).toBe(true);
		await waitFor(async () => ((await polls(apiKey)) >= 1 ? true : undefined), {
			timeoutMs: 30_000,
			intervalMs: 500,
			description: 'the activation poll',
		});
	}
	for (const { workflowId } of polled) expect(await emittedIds(workflowId)).toEqual([]);
});

it('two poll cycles: each new submission in exactly one execution, on a worker', async () => {
	await submitToEach();
	await submitToEach();
	await expectEachOnce();
	// The poll that brings the third must not bring the first two again.
	await submitToEach();
	await expectEachOnce();
});

/** What n8n stored for a workflow: its static data, and the poll cursor n8n keeps apart. */
async function storedState(workflowId: string): Promise<{ staticData: string; cursors: string[] }> {
	// A leading mark, so that NULL or an empty object still gives a row.
	const [[marked]] = await queryPostgres(
		queue.state.postgres,
		`SELECT 'static:' || COALESCE("staticData"::text, 'null') FROM workflow_entity WHERE id = '${workflowId}'`,
	);
	const staticData = marked.slice('static:'.length);
	const cursors = await queryPostgres(
		queue.state.postgres,
		`SELECT cursor::text FROM poller_state WHERE "workflowId" = '${workflowId}'`,
	);
	return { staticData, cursors: cursors.map(([cursor]) => cursor) };
}

it("the counting workflow: workers saved their static data over the workflow's, and the cursor is kept apart from it", async () => {
	const [plain, counting] = polled;
	const stored = await storedState(counting.workflowId);
	expect(stored.staticData).toMatch(/"counted":\s*\d+/);
	expect(stored.staticData).not.toContain('pollState');
	const cursors = stored.cursors.map(
		(text) => JSON.parse(text) as { pollState?: { formId?: string } },
	);
	expect(cursors.map((cursor) => cursor.pollState?.formId)).toEqual([counting.formId]);
	expect((await storedState(plain.workflowId)).cursors).toHaveLength(1);
});

it('a restart of the main between polls: each submission once, in both workflows', async () => {
	// Made while the main runs and while it is down: all must come, none twice.
	await submitToEach();
	await restartProcess(queue, 'main');
	expect(await queue.n8n.hasSession()).toBe(true);
	await submitToEach();
	await expectEachOnce();
	expect(readFileSync(queue.state.main.logFile, 'utf8')).not.toMatch(/no cursor was stored/);
});

it('unpublishing stops the polls', async () => {
	for (const { workflowId } of polled) await queue.n8n.deactivateWorkflow(workflowId);
	const before = await Promise.all(polled.map(async ({ apiKey }) => await polls(apiKey)));
	// Longer than a poll interval: an active poller would have asked again.
	await sleep(65_000);
	expect(await Promise.all(polled.map(async ({ apiKey }) => await polls(apiKey)))).toEqual(before);
});
