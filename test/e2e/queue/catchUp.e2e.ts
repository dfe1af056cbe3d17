/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: prints the figures it measured on process.stderr */
/**
 * The Fillout Trigger's catch-up (version 1.1, checks every minute) in queue mode: the
 * leader main runs `trigger()` and knocks at the webhook processor's address
 * (N8N_WEBHOOK_URL), where the check runs and deliveries arrive; workers run the
 * executions. A webhook dropped at Fillout, and submissions made while the webhook
 * processor and the main were stopped, run within the interval, each once, on a worker;
 * unpublishing leaves no webhook and no check.
 *
 * The scenarios run side by side, each on a workflow and form of its own: all publish at
 * once; the webhook processor stops, and once it is back a webhook is dropped, so that one
 * scheduled check (their node ids place both at the same second) serves both; then the
 * webhook processor and the main stop. One workflow stays unpublished throughout.
 */
import { attachN8n, connectionOf, startN8n } from '../support/n8n';
import {
	CatchUpScenario,
	connectedOnce,
	ListSampler,
	seconds,
	started,
	type Made,
	type ScenarioContext,
} from '../support/catchUp';
import { sleep } from '../support/processes';
import { queryPostgres } from '../support/queueServices';
import { writeState } from '../support/state';
import { productionWebhookUrl } from '../support/workflows';
import { connectQueue, expectRanOnOneWorker, type QueueContext } from './support';

type Role = 'main' | 'webhook';

let queue: QueueContext;
let sampler: ListSampler;
let context: ScenarioContext;
/** Publishes and gets a delivery. */
let publishing: CatchUpScenario;
/** Its webhook is dropped at Fillout. */
let dropping: CatchUpScenario;
/** Misses three while the webhook processor is stopped. */
let webhookDown: CatchUpScenario;
/** Misses three while the webhook processor and the main are stopped. */
let bothDown: CatchUpScenario;
/** Unpublished throughout. */
let unpublished: CatchUpScenario;
let offAt = 0;
let mainBackAt = 0;
const runs: Record<string, Promise<unknown>> = {};
const figures: Record<string, number> = {};
const trace: string[] = [];
let originAt = 0;

/** The catch-up record in the workflow's saved static data, by label (a trace for failures). */
async function traceRecord(scenario: CatchUpScenario, when: string): Promise<void> {
	const { workflowId, label } = scenario.fixture;
	const [[json] = []] = await queryPostgres(
		queue.state.postgres,
		`SELECT "staticData" FROM workflow_entity WHERE id = '${workflowId}'`,
	);
	const data = JSON.parse(json ?? 'null') as Record<
		string,
		Record<string, Record<string, unknown>>
	> | null;
	const record = data?.['node:Fillout Trigger']?.catchUp;
	const names = (ids: unknown) =>
		Object.keys((ids as object | undefined) ?? {})
			.map((id) => context.labels[id] ?? id)
			.join(', ');
	const ran = (await scenario.runs()).map(
		(run) => `#${run.id}[${run.submissionIds.map((id) => context.labels[id] ?? id).join(', ')}]`,
	);
	trace.push(
		`${label}, ${when}: ${record === undefined ? 'no record' : `seen {${names(record.seen)}} delivered {${names(record.delivered)}} webhook ${String(data?.['node:Fillout Trigger']?.production?.webhookId)}`}; runs ${ran.join(' ')}`,
	);
}

beforeAll(async () => {
	originAt = Date.now();
	queue = await connectedOnce(connectQueue);
	sampler = new ListSampler(queue.sandbox);
	context = {
		n8n: () => queue.n8n,
		sandbox: queue.sandbox,
		sampler,
		labels: {},
		onRun: (run) => expectRanOnOneWorker(queue.state, run.id),
	};
	// The first checks come 35 s after publishing, then the webhook processor stops; these
	// schedules' seconds are placed after their publish.
	[publishing, dropping, webhookDown, bothDown, unpublished] = await Promise.all([
		CatchUpScenario.create(context, 'queue publish'),
		// Past the grace after the webhook processor is back (the drop follows at once); at
		// 57 s the webhook processor is stopped or what was missed is still in the grace.
		CatchUpScenario.create(context, 'queue drop', { checkAfterMs: 117_000 }),
		CatchUpScenario.create(context, 'queue webhook down', { checkAfterMs: 117_000 }),
		// Just after those two ran: the delivery before the second stop follows this check.
		CatchUpScenario.create(context, 'queue both down', { checkAfterMs: 127_000 }),
		CatchUpScenario.create(context, 'queue unpublished'),
	]);
	startScenarios();
});

afterAll(async () => {
	await sampler?.stop();
	for (const scenario of [publishing, dropping, webhookDown, bothDown, unpublished]) {
		if (scenario === undefined || scenario.fixture.workflowId === '') continue;
		await queue.n8n.deactivateWorkflow(scenario.fixture.workflowId).catch(() => undefined);
	}
	const scenarios = [publishing, dropping, webhookDown, bothDown, unpublished];
	const timelines = scenarios.map((scenario) => scenario?.timeline(originAt));
	process.stderr.write(`\n[queue catch-up figures] ${JSON.stringify(figures)}\n`);
	process.stderr.write(`${timelines.join('\n')}\n`);
	process.stderr.write(`[queue catch-up trace]\n${trace.join('\n')}\n`);
});

/** Stops the webhook processor (and the main too), runs `whileDown`, starts them again. */
async function stopped(roles: Role[], whileDown: () => Promise<void>): Promise<number> {
	for (const role of roles) await attachN8n(queue.state[role]).stop();
	try {
		await whileDown();
	} finally {
		for (const role of [...roles].reverse()) {
			const restarted = await startN8n({ ...queue.state[role] });
			queue.state = { ...queue.state, [role]: connectionOf(restarted) };
			writeState(queue.state);
		}
	}
	return Date.now();
}

/**
 * Delivered just after a check, so that no check saves the record before the stop: the
 * delivery's own save must hold its mark, or it runs again after the start. Three are
 * made (newest first: the run's order must be Fillout's) while `roles` are stopped.
 */
async function missWhileStopped(
	scenario: CatchUpScenario,
	roles: Role[],
): Promise<{ oldestFirst: string[]; backAt: number }> {
	const label = roles.join(' and ');
	await scenario.expectInstant(`Before ${label}`);
	const deliveredAt = Date.now();
	await traceRecord(scenario, `stopping ${label}`);
	let made: Made = [];
	scenario.note(`stopping ${label}`);
	const backAt = await stopped(roles, async () => {
		expect(scenario.lists.since(deliveredAt)).toEqual([]);
		made = await scenario.submit([1_000, 2_000, 3_000], `Down ${label}`);
		await sleep(2_000);
	});
	scenario.note(`${label} back`);
	for (const { statusCodes } of made) expect(statusCodes).toEqual([undefined]);
	const oldestFirst = made.map(({ submission }) => submission.submissionId).reverse();
	scenario.published.push(...oldestFirst);
	return { oldestFirst, backAt };
}

/** They run after the start within `boundMs`, in one execution, oldest first; one new webhook. */
async function caughtUpAfterStart(
	scenario: CatchUpScenario,
	stop: Promise<{ oldestFirst: string[]; backAt: number }>,
	boundMs: number,
	figure: string,
): Promise<void> {
	const { oldestFirst, backAt } = await stop;
	figures[figure] = seconds(await scenario.expectCaughtUp(oldestFirst, backAt, boundMs));
	await traceRecord(scenario, 'after the run of Down');
	await scenario.expectRegisteredAgain();
	await scenario.expectInstant('After Down');
}

function startScenarios(): void {
	runs.unpublish = started(async () => {
		await unpublished.publish();
		await unpublished.expectInstant('Published');
		offAt = await unpublished.unpublish();
		const [meanwhile] = await unpublished.submit([0], 'Unpublished');
		expect(meanwhile.statusCodes).toEqual([]);
		unpublished.never.push(meanwhile.submission.submissionId);
	});
	runs.publish = started(async () => {
		const others = [dropping, webhookDown, bothDown];
		const [publishedAt] = await Promise.all(
			[publishing, ...others].map(async (scenario) => await scenario.publish()),
		);
		const webhook = publishing.webhook!;
		expect(
			webhook.url.startsWith(
				productionWebhookUrl(queue.state.webhook.url, publishing.fixture.webhookId),
			),
		).toBe(true);
		expect(new URL(webhook.url).origin).toBe(new URL(queue.state.webhook.url).origin);
		const first = await publishing.lists.nextRise(publishedAt, 60_000);
		figures.publishToFirstCheckS = seconds(first.at - publishedAt);
		figures.registeredToFirstCheckS = seconds(first.at - publishing.registeredAt);
		// The schedule's second of the minute may come first; the first check is 35 s after
		// trigger() starts, just after the webhook's registration (n8n publishes through an
		// outbox, later than its answer), counted in steps of a second that a loaded n8n
		// stretches (42 s measured at load average 14).
		expect(first.at - publishing.registeredAt).toBeLessThan(35_000 + 10_000);
		await publishing.expectInstant('Delivered');
		// Every first check has run before the webhook processor stops.
		for (const other of others) await other.firstCheck(publishedAt);
	});
	const webhookStop = started(async () => {
		await Promise.allSettled([runs.unpublish, runs.publish]);
		return await missWhileStopped(webhookDown, ['webhook']);
	});
	runs.webhookStop = webhookStop;
	// A started webhook processor waits for the next knock of the schedule, and the newest
	// 30 s are left to the webhook.
	runs.webhookBack = started(
		async () =>
			await caughtUpAfterStart(
				webhookDown,
				webhookStop,
				60_000 + 30_000 + 15_000,
				'backToRunS (the webhook processor)',
			),
	);
	runs.drop = started(async () => {
		await Promise.allSettled([webhookStop]);
		figures.dropToRunS = seconds(await dropping.expectDropCaughtUp());
		await traceRecord(dropping, 'after the run of Lost');
	});
	const bothStop = started(async () => {
		await Promise.allSettled([runs.webhookBack, runs.drop]);
		await bothDown.lists.nextRise(Date.now(), 75_000);
		const stop = await missWhileStopped(bothDown, ['webhook', 'main']);
		mainBackAt = stop.backAt;
		return stop;
	});
	runs.bothStop = bothStop;
	// A started main checks 35 s after.
	runs.bothBack = started(
		async () =>
			await caughtUpAfterStart(
				bothDown,
				bothStop,
				60_000,
				'backToRunS (the webhook processor and the main)',
			),
	);
}

it('publishes one webhook at the webhook processor’s address; the main’s knock makes a check there within 35 s; a delivery runs at once on a worker', async () => {
	await runs.publish;
}, 300_000);

it('three submissions made while the webhook processor was stopped run after its start, in one execution on a worker, oldest first; the one delivered before does not run again; one new webhook; the next is instant', async () => {
	await runs.webhookStop;
	await runs.webhookBack;
}, 300_000);

it('a webhook dropped at Fillout: two submissions run on a worker within the interval and grace; one new webhook; the next is instant', async () => {
	await runs.drop;
}, 300_000);

it('three submissions made while the webhook processor and the main were stopped run within a minute of the start, as above', async () => {
	await runs.bothStop;
	await runs.bothBack;
}, 300_000);

it('every submission ran exactly once, on a worker, also after one more check past the grace', async () => {
	await Promise.allSettled(Object.values(runs));
	const delivered = [publishing, dropping, webhookDown, bothDown];
	await Promise.all(
		delivered.map(async (scenario) => await scenario.expectOneMoreCheckRunsNothing()),
	);
	for (const scenario of delivered) await scenario.expectEachRanOnce();
}, 300_000);

it('unpublishing leaves no webhook and no check, through both restarts; what was submitted meanwhile does not run', async () => {
	await runs.unpublish;
	// A whole interval and more with every process up since the last start.
	await sleep(Math.max(0, mainBackAt + 65_000 - Date.now()));
	expect(unpublished.lists.since(offAt)).toEqual([]);
	await unpublished.expectEachRanOnce();
	for (const scenario of [publishing, dropping, webhookDown, bothDown]) await scenario.unpublish();
}, 300_000);
