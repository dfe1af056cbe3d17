/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the n8n processes' log files (node:fs) */
/**
 * What every queue-mode test file starts with: the cluster the tier's global setup
 * started, an n8n session on the main, sandbox clients, restarts of one process, and
 * which worker ran an execution (from the workers' logs).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { attachN8n, connectionOf, type N8nConnection } from '../../support/n8n';
import { N8nClient } from '../../support/n8nClient';
import type { QueueState } from '../../support/queueMode';
import { FilloutApi, SandboxControl, type SandboxAccount } from '../../support/sandbox';
import { readState, writeState } from '../../support/state';
import type { NodeDefinition, WorkflowDefinition } from '../../support/n8nClient';
import { createApiKeyCredential } from '../../support/credentials';
import type { CredentialRef } from '../../support/workflows';
import { unique } from '../../support';

export interface QueueContext {
	state: QueueState;
	/** Signed in on the main. */
	n8n: N8nClient;
	sandbox: SandboxControl;
	demo: SandboxAccount;
	/** Reads the demo account's data with a key n8n does not use. */
	checkDemo: FilloutApi;
}

export async function connectQueue(): Promise<QueueContext> {
	const state = readState<QueueState>();
	const n8n = new N8nClient(state.main.url);
	n8n.useSession(state.sessionCookie);
	if (!(await n8n.hasSession())) await n8n.login(state.owner);
	const sandbox = new SandboxControl(state.sandbox.origin);
	const demo = (await sandbox.info()).accounts.find((account) => account.id === 'acct_demo');
	if (!demo) throw new Error('the sandbox has no demo account');
	return { state, n8n, sandbox, demo, checkDemo: new FilloutApi(demo.apiRoot, state.checkApiKey) };
}

/**
 * Restarts the main or the webhook processor (same ports, folders, database) and records
 * its new pid for the teardown.
 */
export async function restartProcess(
	context: QueueContext,
	role: 'main' | 'webhook',
	options: { kill?: boolean } = {},
): Promise<void> {
	const restarted = await attachN8n(context.state[role]).restart({ kill: options.kill });
	context.state = { ...context.state, [role]: connectionOf(restarted) };
	writeState(context.state);
}

/** The workers that logged "Worker started execution <id>", by index in `state.workers`. */
export function workersThatRan(state: QueueState, executionId: string): number[] {
	const line = new RegExp(`Worker started execution ${executionId} \\(job `);
	return state.workers.flatMap((worker: N8nConnection, index) =>
		line.test(readFileSync(worker.logFile, 'utf8')) ? [index] : [],
	);
}

/** Whether a process's log says it ran the execution (it must not, but on a worker). */
export function logMentionsRun(connection: N8nConnection, executionId: string): boolean {
	return new RegExp(`Worker started execution ${executionId} `).test(
		readFileSync(connection.logFile, 'utf8'),
	);
}

/** The execution ran on exactly one worker: neither the main nor the webhook processor. */
export function expectRanOnOneWorker(state: QueueState, executionId: string): void {
	const workers = workersThatRan(state, executionId);
	expect({ executionId, workers }).toEqual({ executionId, workers: [expect.any(Number)] });
	expect(logMentionsRun(state.main, executionId)).toBe(false);
	expect(logMentionsRun(state.webhook, executionId)).toBe(false);
}

export { unique };
export { settledWebhooks } from '../../support/sandbox';

export interface TriggerFixture {
	formId: string;
	formName: string;
	workflowId: string;
}

/**
 * A demo-account form with one "Name" question, an API-key credential, and the trigger
 * workflow `build` makes for them, saved (not yet published) in n8n.
 */
export async function createTriggerFixture(
	queue: QueueContext,
	label: string,
	build: (credential: CredentialRef, formId: string) => WorkflowDefinition,
): Promise<TriggerFixture> {
	const credential = await createApiKeyCredential(
		queue.n8n,
		unique(`${label} key`),
		queue.demo.apiKeys[0],
		queue.state.sandbox.origin,
	);
	const formName = unique(`${label} form`);
	const questions = [{ id: 'qName', name: 'Name', type: 'ShortAnswer' }];
	const formId = (await queue.sandbox.createForm({ name: formName, questions })).id;
	const workflowId = (await queue.n8n.createWorkflow(build(credential, formId))).id;
	return { formId, formName, workflowId };
}

/**
 * A Code node that counts the items it sees in `$getWorkflowStaticData('global')`: run
 * on a worker, it makes the worker save its partial static data over the workflow's.
 */
export function staticDataCounter(name: string, position: [number, number]): NodeDefinition {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position,
		parameters: {
			jsCode: [
				"const data = $getWorkflowStaticData('global');",
				'data.counted = (data.counted ?? 0) + $input.all().length;',
				'return $input.all();',
			].join('\n'),
		},
	};
}
