/**
 * Queue mode, scenario 2: 500 simulated respondents, 20 at a time, delivered to the
 * Fillout Trigger's webhook at the webhook processor, which queues each execution for
 * the workers. The same counting as the single-process trigger scenario (trigger.ts):
 * one execution per submission, latency from the delivery's start to `stoppedAt`.
 */
import {
	http,
	waitFor,
	workerOfExecutions,
	type N8nClient,
	type N8nConnection,
	type SandboxControl,
} from '../test/e2e/support';
import type { BenchRow, BenchSizes } from './context';
import { benchAccount, filloutCredential } from './fixtures';
import { listAllExecutions } from './measure';
import { deliverRespondents, filloutReceiver, receiverRow, warmUpRespondents } from './trigger';
import { filloutTriggerWorkflow } from './workflows';

export interface QueueTriggerFigures {
	workers: number;
	row: BenchRow;
	/** The registered webhook's address (it must be the webhook processor's). */
	webhookUrl: string;
	/** Executions of the workflow each worker's log says it ran (warm-ups included). */
	perWorker: number[];
	/** Executions no worker's log mentions. */
	onNoWorker: number;
}

interface TriggerContext {
	client: N8nClient;
	control: SandboxControl;
	/** The workers running now. */
	workers: readonly N8nConnection[];
	sizes: BenchSizes;
	log(line: string): void;
}

/** After publishing, the webhook processor may answer 404 for a moment (its cache). */
async function waitUntilServed(url: string): Promise<void> {
	await waitFor(
		async () => ((await http('POST', url, { json: {} })).status === 404 ? undefined : true),
		{ timeoutMs: 30_000, intervalMs: 500, description: `the webhook processor to serve ${url}` },
	);
}

export async function runQueueTrigger(ctx: TriggerContext): Promise<QueueTriggerFigures> {
	const { client, control } = ctx;
	const label = `${ctx.workers.length} worker${ctx.workers.length === 1 ? '' : 's'}`;
	const account = await benchAccount(control, `queue trigger ${label}`, 0);
	const credential = await filloutCredential(client, account);
	const workflow = await client.createWorkflow(
		filloutTriggerWorkflow(`bench queue trigger, ${label}`, credential, account.formId),
	);
	await client.activateWorkflow(workflow.id);
	const [hook] = await waitFor(
		async () => {
			const hooks = await control.webhooksOf(account.formId);
			return hooks.length === 1 ? hooks : undefined;
		},
		{ description: 'the Fillout Trigger webhook at the sandbox' },
	);
	// Without the secret the trigger refuses it (401), and nothing runs.
	await waitUntilServed(hook.url);

	const receiver = filloutReceiver(`Fillout Trigger, ${label}`, workflow.id, hook.id);
	await warmUpRespondents(client, control, account.formId, [receiver]);
	const deliveries = await deliverRespondents(
		control,
		account.formId,
		ctx.sizes.triggerCount,
		ctx.sizes.triggerConcurrency,
		ctx.log,
	);
	const row = await receiverRow(client, receiver, deliveries, ctx.log);
	await client.deactivateWorkflow(workflow.id);

	const ranOn = workerOfExecutions(ctx.workers);
	const perWorker = ctx.workers.map(() => 0);
	let onNoWorker = 0;
	for (const summary of await listAllExecutions(client, workflow.id)) {
		const worker = ranOn.get(String(summary.id));
		if (worker === undefined) onNoWorker++;
		else perWorker[worker]++;
	}
	return { workers: ctx.workers.length, row, webhookUrl: hook.url, perWorker, onNoWorker };
}

export function queueTriggerTable(runs: QueueTriggerFigures[]): string {
	const ms = (value?: number) => (value === undefined ? '–' : value.toFixed(0));
	const lines = [
		'| workers | ok | executions | lost | run twice | failed deliveries | executions/s | median ms | p99 ms | max ms | ran on (incl. 5 warm-ups) |',
		'| --: | --- | --- | --: | --: | --: | --: | --: | --: | --: | --- |',
	];
	for (const run of runs) {
		const figures = run.row.trigger;
		if (!figures) continue;
		const perSecond = figures.spanMs ? (figures.succeeded / figures.spanMs) * 1000 : undefined;
		const ranOn = run.perWorker.map((count, index) => `worker ${index + 1}: ${count}`);
		if (run.onNoWorker) ranOn.push(`no worker log: ${run.onNoWorker}`);
		lines.push(
			`| ${run.workers} | ${run.row.ok ? 'yes' : 'no'} | ${figures.succeeded}/${figures.deliveries} | ${figures.missing} | ${figures.duplicated} | ${figures.deliveryFailures} | ${perSecond === undefined ? '–' : perSecond.toFixed(1)} | ${ms(figures.medianMs)} | ${ms(figures.p99Ms)} | ${ms(figures.maxMs)} | ${ranOn.join(', ')} |`,
		);
	}
	return lines.join('\n');
}
