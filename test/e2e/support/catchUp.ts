/**
 * The Fillout Trigger's catch-up in a real n8n, as steps that the regular and the
 * queue-mode files share: a form in an account of its own (so that the sandbox counts
 * exactly this trigger's list requests), a sampler of those requests over time, and the
 * executions' items counted by submission.
 */
import type { N8nClient } from './n8nClient';
import { createApiKeyCredential } from './credentials';
import { sleep, waitFor } from './processes';
import type { SandboxControl, Submission } from './sandbox';
import { NODE_NAMES, triggerWorkflow, type CredentialRef } from './workflows';

export const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';

export interface CatchUpFixture {
	apiKey: string;
	credential: CredentialRef;
	formId: string;
	workflowId: string;
	webhookId: string;
}

/** A new sandbox account, its key as a credential, a form, and the workflow (1-minute checks). */
export async function createCatchUpFixture(
	n8n: N8nClient,
	sandbox: SandboxControl,
	label: string,
): Promise<CatchUpFixture> {
	const unique = `${label} ${Date.now().toString(36)}`;
	const account = await sandbox.createAccount({ name: unique });
	const credential = await createApiKeyCredential(n8n, unique, account.apiKey, sandbox.origin);
	const questions = [{ id: 'qName', name: 'Name', type: 'ShortAnswer' }];
	const form = await sandbox.createForm({ name: unique, accountId: account.id, questions });
	const webhookId = crypto.randomUUID();
	const workflow = triggerWorkflow({
		name: unique,
		credential,
		formId: form.id,
		webhookId,
		parameters: { catchUp: true, catchUpMinutes: 1 },
	});
	const workflowId = (await n8n.createWorkflow(workflow)).id;
	return { apiKey: account.apiKey, credential, formId: form.id, workflowId, webhookId };
}

/** The list requests the sandbox counted for a key so far. */
export async function listRequests(sandbox: SandboxControl, apiKey: string): Promise<number> {
	return (await sandbox.stats()).byKey[apiKey]?.requests[LIST_ROUTE] ?? 0;
}

/** When the key's list request count went up, and by how much (sampled every 250 ms). */
export class ListSampler {
	readonly rises: Array<{ at: number; requests: number }> = [];

	private last = 0;

	private running = false;

	private loop?: Promise<void>;

	constructor(
		private readonly sandbox: SandboxControl,
		private readonly apiKey: string,
	) {}

	async start(): Promise<void> {
		this.last = await listRequests(this.sandbox, this.apiKey);
		this.running = true;
		this.loop = this.sample();
	}

	async stop(): Promise<void> {
		this.running = false;
		await this.loop;
	}

	private async sample(): Promise<void> {
		while (this.running) {
			await sleep(250);
			const now = await listRequests(this.sandbox, this.apiKey).catch(() => this.last);
			if (now > this.last) this.rises.push({ at: Date.now(), requests: now - this.last });
			this.last = now;
		}
	}

	/** The rises at or after `sinceMs`. */
	since(sinceMs: number): Array<{ at: number; requests: number }> {
		return this.rises.filter((rise) => rise.at >= sinceMs);
	}

	/** Waits for the first rise at or after `sinceMs` (a check listed). */
	async nextRise(sinceMs: number, timeoutMs: number): Promise<{ at: number; requests: number }> {
		return await waitFor(async () => this.since(sinceMs)[0], {
			timeoutMs,
			intervalMs: 250,
			description: 'a list request of the trigger',
		});
	}
}

export interface RunOfWorkflow {
	id: string;
	mode: string;
	status: string;
	startedAt?: string;
	/** The trigger's items' submission ids, in item order. */
	submissionIds: string[];
}

/** Every ended execution of the workflow, oldest first, with its trigger items' ids. */
export async function runsOf(n8n: N8nClient, workflowId: string): Promise<RunOfWorkflow[]> {
	const summaries = await n8n.listExecutions({ workflowId });
	const runs: RunOfWorkflow[] = [];
	for (const summary of summaries) {
		if (['new', 'running', 'waiting'].includes(summary.status)) continue;
		const execution = await n8n.waitForExecution(summary.id);
		runs.push({
			id: summary.id,
			mode: execution.mode,
			status: execution.status,
			submissionIds: execution.items(NODE_NAMES.trigger).map((item) => String(item.submissionId)),
		});
	}
	return runs.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits for an ended execution whose trigger items include `submissionId`. */
export async function waitForRunOf(
	n8n: N8nClient,
	workflowId: string,
	submissionIds: string[],
	timeoutMs: number,
): Promise<{ run: RunOfWorkflow; seenAt: number }> {
	const run = await waitFor(
		async () =>
			(await runsOf(n8n, workflowId)).find((candidate) =>
				submissionIds.every((id) => candidate.submissionIds.includes(id)),
			),
		{ timeoutMs, intervalMs: 500, description: `a run of ${submissionIds.join(', ')}` },
	);
	return { run, seenAt: Date.now() };
}

/** How many times each submission ran the workflow, over all its executions. */
export function runCounts(runs: RunOfWorkflow[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const run of runs) {
		for (const id of run.submissionIds) counts[id] = (counts[id] ?? 0) + 1;
	}
	return counts;
}

/** Submissions at the given times (ms ago), in the given order; what the sandbox answered. */
export async function submitAt(
	sandbox: SandboxControl,
	formId: string,
	agesMs: number[],
	name: string,
): Promise<Array<{ submission: Submission; statusCodes: Array<number | undefined> }>> {
	const made = [];
	const now = Date.now();
	for (const [index, ageMs] of agesMs.entries()) {
		const submissionTime = new Date(now - ageMs).toISOString();
		const { submission, deliveries } = await sandbox.respond(formId, {
			answers: { qName: `${name} ${index}` },
			submission: { submissionTime },
		});
		made.push({ submission, statusCodes: deliveries.map((delivery) => delivery.statusCode) });
	}
	return made;
}
