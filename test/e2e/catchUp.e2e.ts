/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: prints the figures it measured on process.stderr */
/**
 * The Fillout Trigger's catch-up (version 1.1, checks every minute) in a real n8n: the
 * node type with webhooks and `trigger()` publishes and checks; submissions made while
 * n8n was stopped run within a minute of its start, in one execution, oldest first; a
 * webhook dropped at Fillout is noticed within the interval, what it missed runs, and one
 * new webhook delivers the next submission at once; every submission runs once; nothing
 * made before publishing or while unpublished runs; unpublishing leaves no webhook and no
 * check. The figures (seconds to the run, requests per check) are printed.
 */
import {
	createCatchUpFixture,
	ListSampler,
	runCounts,
	runsOf,
	submitAt,
	waitForRunOf,
	type CatchUpFixture,
} from './support/catchUp';
import { sleep } from './support/processes';
import { settledWebhooks, type SandboxWebhook } from './support/sandbox';
import { connectE2e, restartSharedN8n, type E2eContext } from './support';

let e2e: E2eContext;
let fixture: CatchUpFixture;
let sampler: ListSampler;
let webhook: SandboxWebhook;
let publishedAt = 0;
/** Every submission made while published: each must run exactly once. */
const published: string[] = [];
/** Made before the first publish or while unpublished: none may run. */
const never: string[] = [];
const figures: Record<string, number> = {};

beforeAll(async () => {
	e2e = await connectE2e();
	fixture = await createCatchUpFixture(e2e.n8n, e2e.sandbox, 'catch-up');
	sampler = new ListSampler(e2e.sandbox, fixture.apiKey);
	await sampler.start();
});

afterAll(async () => {
	await sampler?.stop();
	await e2e.n8n.deactivateWorkflow(fixture.workflowId).catch(() => undefined);
	process.stderr.write(
		`\n[catch-up figures, n8n ${e2e.state.n8n.install.version}] ${JSON.stringify(figures)}\n`,
	);
});

const webhooks = async (atLeast = 0) => await settledWebhooks(e2e.sandbox, fixture.formId, atLeast);
const runs = async () => await runsOf(e2e.n8n, fixture.workflowId);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** A submission now: delivered at once (200) and run in an execution of its own. */
async function expectInstant(name: string): Promise<void> {
	const [made] = await submitAt(e2e.sandbox, fixture.formId, [0], name);
	published.push(made.submission.submissionId);
	expect(made.statusCodes).toEqual([200]);
	const { run } = await waitForRunOf(
		e2e.n8n,
		fixture.workflowId,
		[made.submission.submissionId],
		15_000,
	);
	expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
	expect(run.submissionIds).toEqual([made.submission.submissionId]);
}

it('publishes: one webhook; trigger() runs and checks (a list request) within 35 s, running nothing made before', async () => {
	const [before] = await submitAt(e2e.sandbox, fixture.formId, [5_000], 'Before Publish');
	never.push(before.submission.submissionId);
	expect(before.statusCodes).toEqual([]);

	publishedAt = Date.now();
	expect((await e2e.n8n.activateWorkflow(fixture.workflowId)).active).toBe(true);
	[webhook] = await webhooks(1);
	expect(await webhooks(1)).toHaveLength(1);
	// Only trigger() knocks: the first check follows its start by 35 s.
	const first = await sampler.nextRise(publishedAt, 60_000);
	figures.publishToFirstCheckS = seconds(first.at - publishedAt);
	// The schedule's second of the minute may come first; the first check is 35 s after.
	expect(first.at - publishedAt).toBeLessThan(35_000 + 5_000);
	figures.requestsFirstCheck = first.requests;
	await sleep(3_000);
	expect(await runs()).toEqual([]);
}, 90_000);

it('a submission is delivered and runs at once; the next two checks, a minute apart, run it not again, with one list request each', async () => {
	await expectInstant('Delivered');
	// Two checks of the schedule: after the first check, 35 s after publishing.
	await sleep(Math.max(0, publishedAt + 40_000 - Date.now()));
	const afterAt = Date.now();
	const first = await sampler.nextRise(afterAt, 75_000);
	const second = await sampler.nextRise(first.at + 1, 75_000);
	await sleep(5_000);
	const rises = sampler.since(afterAt);
	expect(rises).toEqual([first, second]);
	figures.requestsPerIdleCheck = second.requests;
	expect([first.requests, second.requests]).toEqual([1, 1]);
	figures.checkIntervalS = seconds(second.at - first.at);
	expect(second.at - first.at).toBeGreaterThan(55_000);
	expect(second.at - first.at).toBeLessThan(65_000);
	expect(runCounts(await runs())).toEqual({ [published[0]]: 1 });
}, 180_000);

it('a webhook dropped at Fillout: two submissions run within the interval and grace, one new webhook delivers the next at once', async () => {
	await e2e.sandbox.dropWebhook(webhook.id);
	const droppedAt = Date.now();
	const made = await submitAt(e2e.sandbox, fixture.formId, [1_000, 0], 'Lost');
	for (const { statusCodes } of made) expect(statusCodes).toEqual([]);
	const ids = made.map(({ submission }) => submission.submissionId);
	published.push(...ids);

	const { run, seenAt } = await waitForRunOf(e2e.n8n, fixture.workflowId, ids, 120_000);
	figures.dropToRunS = seconds(seenAt - droppedAt);
	expect(seenAt - droppedAt).toBeLessThan(60_000 + 30_000 + 15_000);
	expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
	expect(run.submissionIds).toEqual(ids);

	const [again, ...more] = await webhooks(1);
	expect(more).toEqual([]);
	expect(again.id).not.toBe(webhook.id);
	// The same address and secret (derived from the credential): only Fillout's id is new.
	expect(again.url).toBe(webhook.url);
	webhook = again;
	await expectInstant('After Lost');
	expect(runCounts(await runs())).toEqual(Object.fromEntries(published.map((id) => [id, 1])));
}, 180_000);

it('downtime: three submissions made while n8n is stopped run within a minute of its start, in one execution, oldest first; the one delivered before does not run again', async () => {
	let made: Awaited<ReturnType<typeof submitAt>> = [];
	// Delivered just after a check, so that no check saves the record before n8n stops:
	// the delivery's own save must hold its mark, or it runs again after the start.
	await sampler.nextRise(Date.now(), 75_000);
	await expectInstant('Before Downtime');
	// Made newest first, so that the order of the run is Fillout's, not the order of submitting.
	await restartSharedN8n(e2e, {
		whileDown: async () => {
			made = await submitAt(e2e.sandbox, fixture.formId, [1_000, 2_000, 3_000], 'Down');
			await sleep(2_000);
		},
	});
	const backAt = Date.now();
	for (const { statusCodes } of made) expect(statusCodes).toEqual([undefined]);
	const oldestFirst = made.map(({ submission }) => submission.submissionId).reverse();
	published.push(...oldestFirst);

	const { run, seenAt } = await waitForRunOf(e2e.n8n, fixture.workflowId, oldestFirst, 90_000);
	figures.backToRunS = seconds(seenAt - backAt);
	expect(seenAt - backAt).toBeLessThan(60_000);
	expect(run.submissionIds).toEqual(oldestFirst);

	// Fillout missed some: the trigger registered its webhook again, exactly one.
	const [again, ...more] = await webhooks(1);
	expect(more).toEqual([]);
	expect(again.id).not.toBe(webhook.id);
	webhook = again;
	await expectInstant('After Downtime');
}, 300_000);

it('every submission ran exactly once, also after one more check', async () => {
	const lastAt = Date.now();
	await sampler.nextRise(lastAt, 75_000);
	await sleep(5_000);
	const counts = runCounts(await runs());
	expect(counts).toEqual(Object.fromEntries(published.map((id) => [id, 1])));
	for (const id of never) expect(counts[id]).toBeUndefined();
	for (const run of await runs()) expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
}, 120_000);

it('unpublishing leaves no webhook and no check; what is submitted meanwhile does not run after publishing again', async () => {
	expect((await e2e.n8n.deactivateWorkflow(fixture.workflowId)).active).toBe(false);
	const offAt = Date.now();
	expect(await webhooks()).toEqual([]);
	const [meanwhile] = await submitAt(e2e.sandbox, fixture.formId, [0], 'Unpublished');
	expect(meanwhile.statusCodes).toEqual([]);
	never.push(meanwhile.submission.submissionId);
	await sleep(75_000);
	expect(sampler.since(offAt)).toEqual([]);

	const againAt = Date.now();
	await e2e.n8n.activateWorkflow(fixture.workflowId);
	expect(await webhooks(1)).toHaveLength(1);
	await sampler.nextRise(againAt, 60_000);
	await sleep(3_000);
	const counts = runCounts(await runs());
	expect(counts).toEqual(Object.fromEntries(published.map((id) => [id, 1])));
	await e2e.n8n.deactivateWorkflow(fixture.workflowId);
	expect(await webhooks()).toEqual([]);
}, 180_000);
