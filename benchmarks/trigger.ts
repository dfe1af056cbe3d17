/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: polls the sandbox's delivery records on a timer (setInterval) */
/**
 * Scenario 3: 500 simulated respondents, 20 at a time, on one form with two webhooks:
 * the Fillout Trigger's and an n8n Webhook node's (registered through the API like any
 * subscriber). Every respondent's submission is delivered to both at once, so both
 * see the same deliveries under the same load. Latency is from the start of the
 * sandbox's POST (its delivery record `at`) to n8n's `stoppedAt` of the execution that
 * carries that submission.
 */
import {
	http,
	NODE_NAMES,
	waitFor,
	type CredentialRef,
	type ExecutionSummary,
	type N8nClient,
	type RespondResult,
	type SandboxControl,
	type SandboxWebhook,
} from '../test/e2e/support';
import type { BenchContext, BenchRow, TriggerFigures } from './context';
import { benchAccount, filloutCredential, type BenchAccount } from './fixtures';
import { listAllExecutions, mapConcurrent } from './measure';
import { triggerFigures } from './triggerFigures';
import { BENCH_NODES, filloutTriggerWorkflow, webhookNodeUrl, webhookWorkflow } from './workflows';

const WARM_UP_RESPONDENTS = 5;
const RECORD_POLL_MS = 200;

export interface TriggerSetup {
	account: BenchAccount;
	credential: CredentialRef;
}

export async function prepareTrigger(ctx: BenchContext): Promise<TriggerSetup> {
	const account = await benchAccount(ctx.control, 'trigger', 0);
	return { account, credential: await filloutCredential(ctx.client, account) };
}

export interface Receiver {
	key: 'fillout' | 'webhook';
	label: string;
	workflowId: string;
	webhookId: number;
	/** The node whose output carries the delivery. */
	node: string;
	/** The submission id an execution carries. */
	submissionOf(items: Array<Record<string, unknown>>): string | undefined;
}

/** The Fillout Trigger's workflow as a receiver: its output item carries the submission id. */
export function filloutReceiver(label: string, workflowId: string, webhookId: number): Receiver {
	return {
		key: 'fillout',
		label,
		workflowId,
		webhookId,
		node: NODE_NAMES.trigger,
		submissionOf: (items) => items[0]?.submissionId as string | undefined,
	};
}

/** The start of every delivery, by webhook and submission, as the sandbox records them. */
export class DeliveryRecords {
	readonly at = new Map<string, number>();

	add(webhooks: SandboxWebhook[]): void {
		for (const webhook of webhooks) {
			for (const delivery of webhook.deliveries) {
				this.at.set(`${webhook.id}|${delivery.submissionId}`, Date.parse(delivery.at));
			}
		}
	}

	get(webhookId: number, submissionId: string): number | undefined {
		return this.at.get(`${webhookId}|${submissionId}`);
	}
}

export async function runTrigger(ctx: BenchContext, setup: TriggerSetup): Promise<BenchRow[]> {
	const { account, credential } = setup;
	const { client, control } = ctx;
	const total = ctx.sizes.triggerCount;

	// The Fillout Trigger: activation registers its webhook at the sandbox.
	const trigger = await client.createWorkflow(
		filloutTriggerWorkflow('bench trigger: Fillout Trigger', credential, account.formId),
	);
	await client.activateWorkflow(trigger.id);
	const triggerHooks = await waitFor(
		async () => {
			const hooks = await control.webhooksOf(account.formId);
			return hooks.length === 1 ? hooks : undefined;
		},
		{ description: 'the Fillout Trigger webhook at the sandbox' },
	);

	// n8n's Webhook node, subscribed through the API the way a user would (curl / HTTP Request).
	const { workflow, path } = webhookWorkflow('bench trigger: Webhook node');
	const hook = await client.createWorkflow(workflow);
	await client.activateWorkflow(hook.id);
	const url = webhookNodeUrl(ctx.n8n().url, path);
	const created = await http<{ id: number }>('POST', `${account.apiRoot}/webhook/create`, {
		headers: { authorization: `Bearer ${account.apiKey}` },
		json: { formId: account.formId, url },
	});
	if (created.status !== 200) {
		throw new Error(`webhook/create answered ${created.status}: ${created.text}`);
	}

	const receivers: Receiver[] = [
		filloutReceiver('Fillout Trigger', trigger.id, triggerHooks[0].id),
		{
			key: 'webhook',
			label: 'n8n Webhook node (POST, respond immediately)',
			workflowId: hook.id,
			webhookId: created.body.id,
			node: BENCH_NODES.webhook,
			submissionOf: (items) => {
				const body = items[0]?.body as { submission?: { submissionId?: string } } | undefined;
				return body?.submission?.submissionId;
			},
		},
	];

	await warmUpRespondents(client, control, account.formId, receivers);
	const deliveries = await deliverRespondents(
		control,
		account.formId,
		total,
		ctx.sizes.triggerConcurrency,
		ctx.log,
	);

	const rows: BenchRow[] = [];
	for (const receiver of receivers) {
		rows.push(await receiverRow(client, receiver, deliveries, ctx.log));
	}
	for (const receiver of receivers) await client.deactivateWorkflow(receiver.workflowId);
	return rows;
}

/** Waits for the receiver's executions (up to 3 minutes), then counts them: one row. */
export async function receiverRow(
	client: N8nClient,
	receiver: Receiver,
	deliveries: Deliveries,
	log: (line: string) => void,
): Promise<BenchRow> {
	const { results, records, sentAt } = deliveries;
	const total = results.length;
	const ended = await waitForEnded(
		client,
		receiver.workflowId,
		WARM_UP_RESPONDENTS + total,
		180_000,
	).catch(async () => await listAllExecutions(client, receiver.workflowId));
	log(`trigger: reading ${ended.length} executions of ${receiver.label}`);
	const figures = await figuresOf(client, receiver, results, ended, records, sentAt);
	return {
		scenario: 'trigger',
		variant: receiver.label,
		ok:
			figures.missing === 0 &&
			figures.duplicated === 0 &&
			figures.deliveryFailures === 0 &&
			figures.succeeded === total,
		status: figures.succeeded === figures.executions ? 'success' : 'some failed',
		items: figures.succeeded,
		expectedItems: total,
		trigger: figures,
		notes:
			figures.timedBySandbox < total
				? [
						`${total - figures.timedBySandbox} delivery starts from the benchmark's clock (sandbox record rolled over)`,
					]
				: [],
	};
}

/**
 * A few respondents one by one before the measured ones (n8n loads the node's code and
 * warms its database); their executions are left out of the figures.
 */
export async function warmUpRespondents(
	client: N8nClient,
	control: SandboxControl,
	formId: string,
	receivers: readonly Receiver[],
): Promise<void> {
	for (let index = 0; index < WARM_UP_RESPONDENTS; index++) await control.respond(formId);
	for (const receiver of receivers) {
		await waitForEnded(client, receiver.workflowId, WARM_UP_RESPONDENTS);
	}
}

export interface Deliveries {
	results: RespondResult[];
	records: DeliveryRecords;
	/** When the benchmark asked the sandbox for each respondent, by submission id. */
	sentAt: Map<string, number>;
}

/**
 * The measured respondents, `concurrency` at a time, while the delivery records are
 * collected (the sandbox keeps the last 100 per webhook).
 */
export async function deliverRespondents(
	control: SandboxControl,
	formId: string,
	total: number,
	concurrency: number,
	log: (line: string) => void,
): Promise<Deliveries> {
	log(`trigger: ${total} respondents, ${concurrency} at a time`);
	const records = new DeliveryRecords();
	let polling = Promise.resolve();
	const poller = setInterval(() => {
		polling = polling.then(async () => records.add(await control.webhooksOf(formId)));
	}, RECORD_POLL_MS);
	const sentAt = new Map<string, number>();
	let results: RespondResult[];
	try {
		results = await mapConcurrent(
			Array.from({ length: total }, (_, index) => index),
			concurrency,
			async () => {
				const before = Date.now();
				const result = await control.respond(formId);
				sentAt.set(result.submission.submissionId, before);
				return result;
			},
		);
	} finally {
		clearInterval(poller);
	}
	await polling;
	records.add(await control.webhooksOf(formId));
	log('trigger: all respondents answered; waiting for the executions');
	return { results, records, sentAt };
}

export async function waitForEnded(
	client: N8nClient,
	workflowId: string,
	count: number,
	timeoutMs = 60_000,
): Promise<ExecutionSummary[]> {
	return await waitFor(
		async () => {
			const list = await listAllExecutions(client, workflowId);
			const ended = list.filter(
				(summary) => !['new', 'running', 'waiting'].includes(summary.status),
			);
			return ended.length >= count ? ended : undefined;
		},
		{
			timeoutMs,
			intervalMs: 500,
			description: `${count} executions of workflow ${workflowId}`,
		},
	);
}

/** Reads which submission each execution carries, then counts (triggerFigures.ts). */
export async function figuresOf(
	client: N8nClient,
	receiver: Receiver,
	results: RespondResult[],
	executions: ExecutionSummary[],
	records: DeliveryRecords,
	sentAt: Map<string, number>,
): Promise<TriggerFigures> {
	const carried = await mapConcurrent(executions, 6, async (summary) => {
		const execution = await client.getExecution(String(summary.id));
		try {
			return execution ? receiver.submissionOf(execution.items(receiver.node)) : undefined;
		} catch {
			return undefined;
		}
	});
	return triggerFigures({
		results,
		executions: executions.map((summary, index) => ({ summary, submissionId: carried[index] })),
		webhookId: receiver.webhookId,
		deliveryStart: (submissionId) => {
			const recorded = records.get(receiver.webhookId, submissionId);
			if (recorded !== undefined) return { at: recorded, bySandbox: true };
			const sent = sentAt.get(submissionId);
			return sent === undefined ? undefined : { at: sent, bySandbox: false };
		},
	});
}
