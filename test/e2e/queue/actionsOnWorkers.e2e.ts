/**
 * The Fillout node's bulk operations in queue mode, run by workers: an export of 10,000
 * submissions (every one exactly once) and an import of 1,000 rows (each exactly once),
 * each as a manual run (offloaded to a worker: OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS) and
 * as a production run (a Webhook node called at the webhook processor).
 */
import { randomUUID } from 'node:crypto';

import { QUESTIONS } from '../../../benchmarks/fixtures';
import { filloutExportWorkflow, filloutImportWorkflow } from '../../../benchmarks/workflows';
import { http } from '../../support/http';
import { createApiKeyCredential } from '../support/credentials';
import type { Execution, NodeDefinition, WorkflowDefinition } from '../support/n8nClient';
import { waitFor } from '../support/processes';
import { FilloutApi } from '../support/sandbox';
import { loadAnswerColumns, NODE_NAMES, type CredentialRef } from '../support/workflows';
import { connectQueue, logMentionsRun, unique, workersThatRan, type QueueContext } from './support';

const EXPORTED = 10_000;
const IMPORTED = 1_000;
const RUN_TIMEOUT_MS = 180_000;

let queue: QueueContext;
beforeAll(async () => {
	queue = await connectQueue();
});

/** A fresh sandbox account (its own rate-limit window) and a credential for it in n8n. */
async function freshAccount(
	label: string,
): Promise<{ accountId: string; credential: CredentialRef; api: FilloutApi }> {
	const account = await queue.sandbox.createAccount({ name: unique(label) });
	const credential = await createApiKeyCredential(
		queue.n8n,
		unique(`${label} key`),
		account.apiKey,
		queue.state.sandbox.origin,
	);
	return {
		accountId: account.id,
		credential,
		api: new FilloutApi(account.apiRoot, account.apiKey),
	};
}

/**
 * The same workflow started in production: its Manual Trigger replaced by a Webhook node
 * of the same name (POST, answers at once), so the run is a production execution.
 */
function asProduction(workflow: WorkflowDefinition, path: string): WorkflowDefinition {
	const webhook: NodeDefinition = {
		id: randomUUID(),
		name: NODE_NAMES.start,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => (node.name === NODE_NAMES.start ? webhook : node)),
		pinData: undefined,
	};
}

type RunMode = 'manual' | 'production';

/** Runs the workflow in the mode and returns the ended execution. */
async function runIn(mode: RunMode, workflow: WorkflowDefinition): Promise<Execution> {
	if (mode === 'manual') {
		const created = await queue.n8n.createWorkflow(workflow);
		const executionId = await queue.n8n.runWorkflow(created.id, NODE_NAMES.start);
		return await queue.n8n.waitForExecution(executionId, RUN_TIMEOUT_MS);
	}
	const path = randomUUID();
	const created = await queue.n8n.createWorkflow(asProduction(workflow, path));
	await queue.n8n.activateWorkflow(created.id);
	try {
		// The webhook processor may answer 404 for a moment after publishing (its cache).
		const status = await waitFor(
			async () => {
				const called = await http('POST', `${queue.state.webhook.url}/webhook/${path}`, {
					json: {},
				});
				return called.status === 404 ? undefined : called.status;
			},
			{
				timeoutMs: 30_000,
				intervalMs: 500,
				description: 'the webhook processor to serve the path',
			},
		);
		expect(status).toBe(200);
		const [summary] = await queue.n8n.waitForExecutions(created.id, 1, RUN_TIMEOUT_MS);
		return await queue.n8n.waitForExecution(summary.id, RUN_TIMEOUT_MS);
	} finally {
		await queue.n8n.deactivateWorkflow(created.id);
	}
}

/** The run succeeded, in the expected mode, on exactly one worker (not the main). */
function expectRanOnWorker(execution: Execution, mode: RunMode): void {
	if (execution.status !== 'success') {
		throw new Error(
			`execution ${execution.id} ended "${execution.status}": ${JSON.stringify(execution.error ?? {}).slice(0, 1500)}`,
		);
	}
	expect(execution.mode).toBe(mode === 'manual' ? 'manual' : 'webhook');
	expect(workersThatRan(queue.state, execution.id)).toEqual([expect.any(Number)]);
	expect(logMentionsRun(queue.state.main, execution.id)).toBe(false);
}

describe(`export of ${EXPORTED.toLocaleString('en')} submissions on a worker`, () => {
	let credential: CredentialRef;
	let formId: string;
	let generated: string[];

	beforeAll(async () => {
		const fresh = await freshAccount('queue export');
		credential = fresh.credential;
		formId = (
			await queue.sandbox.createForm({
				name: unique('queue export form'),
				accountId: fresh.accountId,
				questions: QUESTIONS,
			})
		).id;
		generated = (await queue.sandbox.generate(formId, { count: EXPORTED })).submissionIds;
		expect(generated).toHaveLength(EXPORTED);
	});

	it.each<RunMode>(['manual', 'production'])(
		'%s run: every submission exactly once',
		async (mode) => {
			const execution = await runIn(
				mode,
				filloutExportWorkflow(unique(`queue export ${mode}`), credential, formId),
			);
			expectRanOnWorker(execution, mode);
			const ids = execution.items(NODE_NAMES.fillout).map((item) => String(item.submissionId));
			expect(ids).toHaveLength(EXPORTED);
			expect(new Set(ids).size).toBe(EXPORTED);
			expect([...ids].sort()).toEqual([...generated].sort());
		},
	);
});

describe(`import of ${IMPORTED.toLocaleString('en')} rows on a worker`, () => {
	it.each<RunMode>(['manual', 'production'])('%s run: each row exactly once', async (mode) => {
		const { accountId, credential, api } = await freshAccount(`queue import ${mode}`);
		const formId = (
			await queue.sandbox.createForm({
				name: unique('queue import form'),
				accountId,
				questions: QUESTIONS,
			})
		).id;
		const columns = await loadAnswerColumns(queue.n8n, credential, formId);
		const execution = await runIn(
			mode,
			filloutImportWorkflow(unique(`queue import ${mode}`), credential, formId, IMPORTED, columns),
		);
		expectRanOnWorker(execution, mode);
		expect(execution.items(NODE_NAMES.fillout)).toHaveLength(IMPORTED);

		const stored = await api.allSubmissions(formId);
		const names = stored.map(
			(submission) => submission.questions.find((question) => question.id === 'qName')?.value,
		);
		expect(names).toHaveLength(IMPORTED);
		expect(new Set(names).size).toBe(IMPORTED);
		expect([...names].sort()).toEqual(
			Array.from({ length: IMPORTED }, (_, index) => `Person ${index}`).sort(),
		);
	});
});
