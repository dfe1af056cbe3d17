/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: prints the figures it measured on process.stderr */
/**
 * The Fillout Trigger's catch-up (version 1.1, checks every minute) in a real n8n: the
 * node type with webhooks and `trigger()` publishes and checks; submissions made while
 * n8n was stopped run within a minute of its start, in one execution, oldest first; a
 * webhook dropped at Fillout is noticed within the interval, what it missed runs, and one
 * new webhook delivers the next submission at once; every submission runs once; nothing
 * made before publishing or while unpublished runs; unpublishing leaves no webhook and no
 * check. The figures (seconds to the run, requests per check) are printed.
 *
 * The scenarios run side by side, each on a workflow and form of its own: one restart of
 * n8n first, then publishing, idle checks, a dropped webhook and unpublishing at once,
 * each workflow's scheduled check placed at the second it needs (its node id is picked).
 */
import {
	CatchUpScenario,
	connectedOnce,
	ListSampler,
	seconds,
	started,
	type Made,
	type ScenarioContext,
} from './support/catchUp';
import { sleep } from './support/processes';
import { connectE2e, restartSharedN8n, type E2eContext } from './support';

let e2e: E2eContext;
let sampler: ListSampler;
let context: ScenarioContext;
let downtime: CatchUpScenario;
/** The scenarios after the start, side by side (created in the beforeAll below). */
let publishing: CatchUpScenario;
let dropping: CatchUpScenario;
let unpublishing: CatchUpScenario;
let all: CatchUpScenario[] = [];
const runs: Record<string, Promise<unknown>> = {};
let made: Made = [];
let backAt = 0;
const figures: Record<string, number> = {};
let originAt = 0;

beforeAll(async () => {
	originAt = Date.now();
	e2e = await connectedOnce(connectE2e);
	sampler = new ListSampler(e2e.sandbox);
	context = { n8n: () => e2e.n8n, sandbox: e2e.sandbox, sampler, labels: {} };
	// Each schedule's second is placed after its workflow's first publish (mod a minute).
	[downtime, publishing, dropping, unpublishing] = await Promise.all([
		// Half a minute after: not between the delivery and the stop.
		CatchUpScenario.create(context, 'catch-up downtime', { checkAfterMs: 30_000 }),
		// After the first check (35 s after publishing) and the delivery.
		CatchUpScenario.create(context, 'catch-up publish', { checkAfterMs: 55_000 }),
		// Past the grace after the drop, which follows the first check (and at 25 s, before it).
		CatchUpScenario.create(context, 'catch-up drop', { checkAfterMs: 85_000 }),
		// Soon after publishing again, 75 s after unpublishing (and at 35 s, unpublished).
		CatchUpScenario.create(context, 'catch-up unpublish', { checkAfterMs: 95_000 }),
	]);
	all = [publishing, dropping, unpublishing];
});

afterAll(async () => {
	await sampler?.stop();
	for (const scenario of [downtime, ...all]) {
		if (scenario === undefined || scenario.fixture.workflowId === '') continue;
		await e2e.n8n.deactivateWorkflow(scenario.fixture.workflowId).catch(() => undefined);
	}
	const timelines = [downtime, ...all].map((scenario) => scenario?.timeline(originAt));
	process.stderr.write(
		`\n[catch-up figures, n8n ${e2e.state.n8n.install.version}] ${JSON.stringify(figures)}\n${timelines.join('\n')}\n`,
	);
});

it('downtime, before the start: published, one submission delivered and run at once; n8n stopped and three submissions made', async () => {
	await downtime.publish();
	// Delivered before any check of this workflow: only the delivery's own save can hold
	// its mark, or it runs again after the start.
	await downtime.expectInstant('Before Downtime');
	const deliveredAt = Date.now();
	downtime.note('stopping n8n');
	// Made newest first, so that the order of the run is Fillout's, not the order of submitting.
	await restartSharedN8n(e2e, {
		whileDown: async () => {
			expect(downtime.lists.since(0)).toEqual([]);
			// Dated up to 3 s back: still after the publish, or they would rightly never run.
			await sleep(Math.max(0, deliveredAt + 3_500 - Date.now()));
			made = await downtime.submit([1_000, 2_000, 3_000], 'Down');
			await sleep(2_000);
		},
	});
	backAt = Date.now();
	downtime.note('n8n back');
	for (const { statusCodes } of made) expect(statusCodes).toEqual([undefined]);
}, 180_000);

describe('after the start, side by side', () => {
	beforeAll(async () => {
		runs.downtime = started(async () => {
			const oldestFirst = made.map(({ submission }) => submission.submissionId).reverse();
			downtime.published.push(...oldestFirst);
			figures.backToRunS = seconds(await downtime.expectCaughtUp(oldestFirst, backAt, 60_000));
			// Fillout missed some: the trigger registered its webhook again, exactly one.
			await downtime.expectRegisteredAgain();
			await downtime.expectInstant('After Downtime');
		});
		runs.publish = started(async () => await publishAndCheck());
		runs.idle = started(async () => await idleChecks(await (runs.publish as Promise<number>)));
		runs.drop = started(async () => {
			const publishedAt = await dropping.publish();
			// Its first check: from here on only the schedule checks.
			await dropping.firstCheck(publishedAt);
			figures.dropToRunS = seconds(await dropping.expectDropCaughtUp());
		});
		runs.unpublish = started(async () => await unpublishAndPublishAgain());
	});

	it('downtime: the three run within a minute of the start, in one execution, oldest first; the one delivered before does not run again; one new webhook delivers the next at once', async () => {
		await runs.downtime;
	}, 300_000);

	it('publishes: one webhook; trigger() runs and checks (a list request) within 35 s, running nothing made before', async () => {
		await runs.publish;
	}, 300_000);

	it('a submission is delivered and runs at once; the next two checks, a minute apart, run it not again, with one list request each', async () => {
		await runs.idle;
	}, 300_000);

	it('a webhook dropped at Fillout: two submissions run within the interval and grace, one new webhook delivers the next at once', async () => {
		await runs.drop;
	}, 300_000);

	it('unpublishing leaves no webhook and no check; what is submitted meanwhile does not run after publishing again', async () => {
		await runs.unpublish;
	}, 300_000);

	it('every submission ran exactly once, also after one more check past the grace; unpublishing leaves no webhook', async () => {
		await Promise.allSettled(Object.values(runs));
		const delivered = [downtime, dropping];
		await Promise.all(
			delivered.map(async (scenario) => await scenario.expectOneMoreCheckRunsNothing()),
		);
		for (const scenario of [downtime, publishing, dropping]) {
			await scenario.expectEachRanOnce();
			await scenario.unpublish();
		}
	}, 300_000);
});

/** Returns when it was published. */
async function publishAndCheck(): Promise<number> {
	const [before] = await publishing.submit([5_000], 'Before Publish');
	publishing.never.push(before.submission.submissionId);
	expect(before.statusCodes).toEqual([]);
	const publishedAt = await publishing.publish();
	// Only trigger() knocks: the first check follows its start by 35 s.
	const first = await publishing.lists.nextRise(publishedAt, 60_000);
	figures.publishToFirstCheckS = seconds(first.at - publishedAt);
	figures.registeredToFirstCheckS = seconds(first.at - publishing.registeredAt);
	// The schedule's second of the minute may come first; the first check is 35 s after
	// trigger() starts, just after the webhook's registration (n8n 2.x publishes through an
	// outbox, later than its answer), counted in steps of a second that a loaded n8n
	// stretches (42 s measured at load average 14).
	expect(first.at - publishing.registeredAt).toBeLessThan(35_000 + 10_000);
	figures.requestsFirstCheck = first.requests;
	await sleep(3_000);
	expect(await publishing.runs()).toEqual([]);
	return publishedAt;
}

async function idleChecks(publishedAt: number): Promise<void> {
	await publishing.expectInstant('Delivered');
	// Two checks of the schedule: after the first check, 35 s after publishing.
	await sleep(Math.max(0, publishedAt + 40_000 - Date.now()));
	const afterAt = Date.now();
	const first = await publishing.lists.nextRise(afterAt, 75_000);
	const second = await publishing.lists.nextRise(first.at + 1, 75_000);
	// A second list request of the same check would follow within a second.
	await sleep(3_000);
	expect(publishing.lists.since(afterAt)).toEqual([first, second]);
	figures.requestsPerIdleCheck = second.requests;
	expect([first.requests, second.requests]).toEqual([1, 1]);
	figures.checkIntervalS = seconds(second.at - first.at);
	expect(second.at - first.at).toBeGreaterThan(55_000);
	expect(second.at - first.at).toBeLessThan(65_000);
	// The second check is past the grace after the delivery: the record, not the grace, held it.
	expect(second.at - publishing.lastDeliveredAt).toBeGreaterThan(30_000);
	await publishing.expectEachRanOnce();
}

async function unpublishAndPublishAgain(): Promise<void> {
	await unpublishing.publish();
	await unpublishing.expectInstant('Published');
	const offAt = await unpublishing.unpublish();
	const [meanwhile] = await unpublishing.submit([0], 'Unpublished');
	expect(meanwhile.statusCodes).toEqual([]);
	unpublishing.never.push(meanwhile.submission.submissionId);
	// A whole interval and more, and the 35 s of a first check: no check came.
	await sleep(75_000);
	expect(unpublishing.lists.since(offAt)).toEqual([]);

	const againAt = await unpublishing.publish();
	await unpublishing.lists.nextRise(againAt, 60_000);
	await sleep(3_000);
	await unpublishing.expectEachRanOnce();
	await unpublishing.unpublish();
}
