/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: prints the figures it measured on process.stderr */
/**
 * The Fillout Trigger's catch-up (version 1.1, checks every minute) in queue mode: the
 * leader main runs `trigger()` and knocks at the webhook processor's address
 * (N8N_WEBHOOK_URL), where the check runs and deliveries arrive; workers run the
 * executions. A webhook dropped at Fillout, and submissions made while the webhook
 * processor and the main were stopped, run within the interval, each once, on a worker;
 * unpublishing leaves no webhook and no check.
 */
import { attachN8n, connectionOf, startN8n } from '../support/n8n';
import {
	createCatchUpFixture,
	ListSampler,
	runCounts,
	runsOf,
	submitAt,
	waitForRunOf,
	type CatchUpFixture,
} from '../support/catchUp';
import { sleep } from '../support/processes';
import { queryPostgres } from '../support/queueServices';
import { settledWebhooks, type SandboxWebhook } from '../support/sandbox';
import { writeState } from '../support/state';
import { productionWebhookUrl } from '../support/workflows';
import { connectQueue, expectRanOnOneWorker, type QueueContext } from './support';

let queue: QueueContext;
let fixture: CatchUpFixture;
let sampler: ListSampler;
let webhook: SandboxWebhook;
const published: string[] = [];
const figures: Record<string, number> = {};
/** Submission id → what it was (for the trace). */
const labels: Record<string, string> = {};
const trace: string[] = [];

/** The catch-up record in the workflow's saved static data, by label (a trace for failures). */
async function traceRecord(when: string): Promise<void> {
	const [[json] = []] = await queryPostgres(
		queue.state.postgres,
		`SELECT "staticData" FROM workflow_entity WHERE id = '${fixture.workflowId}'`,
	);
	const data = JSON.parse(json ?? 'null') as Record<
		string,
		Record<string, Record<string, unknown>>
	> | null;
	const record = data?.['node:Fillout Trigger']?.catchUp;
	const names = (ids: unknown) =>
		Object.keys((ids as object | undefined) ?? {})
			.map((id) => labels[id] ?? id)
			.join(', ');
	const runs = (await runsOf(queue.n8n, fixture.workflowId)).map(
		(run) => `#${run.id}[${run.submissionIds.map((id) => labels[id] ?? id).join(', ')}]`,
	);
	trace.push(
		`${when}: ${record === undefined ? 'no record' : `seen {${names(record.seen)}} delivered {${names(record.delivered)}} webhook ${String(data?.['node:Fillout Trigger']?.production?.webhookId)}`}; runs ${runs.join(' ')}`,
	);
}

beforeAll(async () => {
	queue = await connectQueue();
	fixture = await createCatchUpFixture(queue.n8n, queue.sandbox, 'queue catch-up');
	sampler = new ListSampler(queue.sandbox, fixture.apiKey);
	await sampler.start();
});

afterAll(async () => {
	await sampler?.stop();
	await queue.n8n.deactivateWorkflow(fixture.workflowId).catch(() => undefined);
	process.stderr.write(`\n[queue catch-up figures] ${JSON.stringify(figures)}\n`);
	process.stderr.write(`[queue catch-up trace]\n${trace.join('\n')}\n`);
});

const webhooks = async (atLeast = 0) =>
	await settledWebhooks(queue.sandbox, fixture.formId, atLeast);
const runs = async () => await runsOf(queue.n8n, fixture.workflowId);
const submit = async (agesMs: number[], name: string) => {
	const made = await submitAt(queue.sandbox, fixture.formId, agesMs, name);
	made.forEach(({ submission }, index) => (labels[submission.submissionId] = `${name} ${index}`));
	return made;
};
const seconds = (ms: number) => Math.round(ms / 100) / 10;

async function expectInstant(name: string): Promise<void> {
	const [made] = await submit([0], name);
	published.push(made.submission.submissionId);
	expect(made.statusCodes).toEqual([200]);
	const { run } = await waitForRunOf(
		queue.n8n,
		fixture.workflowId,
		[made.submission.submissionId],
		20_000,
	);
	expect(run.submissionIds).toEqual([made.submission.submissionId]);
	expectRanOnOneWorker(queue.state, run.id);
	await sleep(2_000);
	await traceRecord(`after ${name}`);
}

/** Stops the webhook processor (and the main too), runs `whileDown`, starts them again. */
async function stopped(roles: Array<'main' | 'webhook'>, whileDown: () => Promise<void>) {
	await traceRecord(`stopping ${roles.join(' and ')}`);
	for (const role of roles) await attachN8n(queue.state[role]).stop();
	try {
		await whileDown();
	} finally {
		for (const role of [...roles].reverse()) {
			const started = await startN8n({ ...queue.state[role] });
			queue.state = { ...queue.state, [role]: connectionOf(started) };
			writeState(queue.state);
		}
	}
}

it('publishes one webhook at the webhook processor’s address; the main’s knock makes a check there within 35 s', async () => {
	const publishedAt = Date.now();
	expect((await queue.n8n.activateWorkflow(fixture.workflowId)).active).toBe(true);
	[webhook] = await webhooks(1);
	expect(
		webhook.url.startsWith(productionWebhookUrl(queue.state.webhook.url, fixture.webhookId)),
	).toBe(true);
	expect(new URL(webhook.url).origin).toBe(new URL(queue.state.webhook.url).origin);
	const first = await sampler.nextRise(publishedAt, 60_000);
	figures.publishToFirstCheckS = seconds(first.at - publishedAt);
	// The schedule's second of the minute may come first; the first check is 35 s after.
	expect(first.at - publishedAt).toBeLessThan(35_000 + 5_000);
	await expectInstant('Delivered');
}, 120_000);

it('a webhook dropped at Fillout: two submissions run on a worker within the interval and grace; one new webhook; the next is instant', async () => {
	await queue.sandbox.dropWebhook(webhook.id);
	const droppedAt = Date.now();
	const made = await submit([1_000, 0], 'Lost');
	for (const { statusCodes } of made) expect(statusCodes).toEqual([]);
	const ids = made.map(({ submission }) => submission.submissionId);
	published.push(...ids);

	const { run, seenAt } = await waitForRunOf(queue.n8n, fixture.workflowId, ids, 120_000);
	figures.dropToRunS = seconds(seenAt - droppedAt);
	await traceRecord('after the run of Lost');
	expect(seenAt - droppedAt).toBeLessThan(60_000 + 30_000 + 15_000);
	expect(run).toMatchObject({ mode: 'webhook', status: 'success', submissionIds: ids });
	expectRanOnOneWorker(queue.state, run.id);

	const [again, ...more] = await webhooks(1);
	expect(more).toEqual([]);
	expect(again.id).not.toBe(webhook.id);
	webhook = again;
	await expectInstant('After Lost');
}, 180_000);

it.each([
	['the webhook processor', ['webhook'] as Array<'main' | 'webhook'>],
	['the webhook processor and the main', ['webhook', 'main'] as Array<'main' | 'webhook'>],
])(
	'three submissions made while %s was stopped run after its start, in one execution, oldest first; the one delivered before does not run again',
	async (label, roles) => {
		let made: Awaited<ReturnType<typeof submitAt>> = [];
		// Delivered just after a check, so that no check saves the record before the stop:
		// the delivery's own save must hold its mark, or it runs again after the start.
		await sampler.nextRise(Date.now(), 75_000);
		await expectInstant(`Before ${label}`);
		await stopped(roles, async () => {
			made = await submit([1_000, 2_000, 3_000], `Down ${label}`);
			await sleep(2_000);
		});
		const backAt = Date.now();
		for (const { statusCodes } of made) expect(statusCodes).toEqual([undefined]);
		const oldestFirst = made.map(({ submission }) => submission.submissionId).reverse();
		published.push(...oldestFirst);

		const { run, seenAt } = await waitForRunOf(queue.n8n, fixture.workflowId, oldestFirst, 120_000);
		figures[`backToRunS (${label})`] = seconds(seenAt - backAt);
		await traceRecord(`after the run of Down ${label}`);
		// A started main checks 35 s after; a started webhook processor waits for the next
		// knock of the schedule, and the newest 30 s are left to the webhook.
		const bound = roles.includes('main') ? 60_000 : 60_000 + 30_000 + 15_000;
		expect(seenAt - backAt).toBeLessThan(bound);
		expect(run.submissionIds).toEqual(oldestFirst);
		expectRanOnOneWorker(queue.state, run.id);

		const [again, ...more] = await webhooks(1);
		expect(more).toEqual([]);
		expect(again.id).not.toBe(webhook.id);
		webhook = again;
		await expectInstant(`After ${label}`);
	},
	300_000,
);

it('every submission ran exactly once, on a worker, also after one more check', async () => {
	await sampler.nextRise(Date.now(), 75_000);
	await sleep(5_000);
	const all = await runs();
	expect(runCounts(all)).toEqual(Object.fromEntries(published.map((id) => [id, 1])));
	for (const run of all) {
		expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
		expectRanOnOneWorker(queue.state, run.id);
	}
}, 120_000);

it('unpublishing leaves no webhook and no check', async () => {
	expect((await queue.n8n.deactivateWorkflow(fixture.workflowId)).active).toBe(false);
	const offAt = Date.now();
	expect(await webhooks()).toEqual([]);
	await sleep(75_000);
	expect(sampler.since(offAt)).toEqual([]);
	expect(runCounts(await runs())).toEqual(Object.fromEntries(published.map((id) => [id, 1])));
}, 120_000);
