/**
 * Catch-up over real HTTP: the sandbox delivers (or not) to a stand-in for n8n's webhook
 * endpoint, and the trigger's `trigger()` knocks at its own address through it, as the
 * main process does in n8n. What n8n does between (a restart, a deactivation) the tests do.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { KNOCK_HEADER } from '../../nodes/Fillout/catchUp/knock';
import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import type { TriggerHarness } from '../harness';
import { startTrigger, type StartedTrigger } from '../harness/triggers';
import { freshForm, useHarness, type Json } from '../sandbox/support';
import { startEndpoint, type Endpoint } from './support/endpoint';
import { filloutTrigger, forgetProcessMemory, NODE_NAME, slots, webhooksOf } from './support';

const h = useHarness({ rateLimit: 5, quiet: true });
let endpoint: Endpoint;
const started: StartedTrigger[] = [];

beforeAll(async () => {
	endpoint = await startEndpoint();
});
afterAll(async () => {
	await endpoint.close();
});
beforeEach(() => {
	forgetProcessMemory();
	endpoint.received.length = 0;
	endpoint.trigger = undefined;
});
afterEach(async () => {
	await Promise.all(started.splice(0).map(async (trigger) => await trigger.close()));
});

const MINUTE = 60_000;

async function published(formId: string): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, endpoint.url);
	endpoint.trigger = trigger;
	await trigger.activate();
	return trigger;
}

async function start(trigger: TriggerHarness, activation: 'activate' | 'init') {
	const running = await startTrigger(trigger, activation);
	started.push(running);
	return running;
}

/**
 * The trigger as if published `ms` ago (checks leave the last 30 s alone): its catch-up
 * record and its webhook's registration.
 */
function backdate(trigger: TriggerHarness, ms: number): void {
	const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
	const webhook = node.production as IDataObject;
	webhook.createdAt = new Date(Date.parse(webhook.createdAt as string) - ms).toISOString();
	processMemory.webhookRecords.clear();
	const record = node[CATCH_UP_KEY] as IDataObject;
	for (const key of ['windowStartMs', 'newestMs', 'startedAt']) {
		record[key] = (record[key] as number) - ms;
	}
	processMemory.catchUpRecords.clear();
}

/** A respondent submits `agoMs` before now; the sandbox delivers to every webhook. */
async function respond(formId: string, agoMs: number): Promise<string> {
	const submissionTime = new Date(Date.now() - agoMs).toISOString();
	const res = await h.control.post(`/forms/${formId}/respond`, { submission: { submissionTime } });
	expect(res.status).toBe(200);
	return (res.body as Json).submission.submissionId as string;
}

const idsOf = (items: INodeExecutionData[]) => items.map((item) => item.json.submissionId);

/** Every submission that ran, by every execution the endpoint started, in order. */
async function ran(): Promise<unknown[]> {
	await endpoint.settled();
	return endpoint.received.flatMap((received) => idsOf(received.items));
}

/** List requests since the sandbox's stats were reset (by route: one form at a time). */
const listRequests = async () => {
	const stats = (await h.control.get('/stats')).body as { requests: Record<string, number> };
	return Object.entries(stats.requests)
		.filter(([route]) => route.startsWith('GET ') && route.endsWith('/submissions'))
		.reduce((sum, [, count]) => sum + count, 0);
};

/** Minutes pass between two checks (a check closer than 5 s to the last runs nothing). */
const checksApart = () => processMemory.catchUpChecks.clear();

describe('catching up on missed submissions', () => {
	it('runs what was submitted while n8n was stopped, once each and oldest first, at the first check after it starts', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const first = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		const webhookBefore = slots(trigger).production!.webhookId;
		// n8n stops: its address answers 404 and the deliveries are lost.
		await first.close();
		endpoint.trigger = undefined;
		const missed = [await respond(formId, 5 * MINUTE), await respond(formId, 4 * MINUTE)];
		missed.push(await respond(formId, 3 * MINUTE));
		expect(await ran()).toEqual([]);

		// n8n starts again: process memory empty, static data as saved.
		forgetProcessMemory();
		endpoint.trigger = trigger;
		const again = await start(trigger, 'init');
		await again.tick();
		expect(await ran()).toEqual(missed);
		// One execution for the three.
		expect(endpoint.received.filter((r) => r.items.length > 0)).toHaveLength(1);
		// Fillout missed them, so the webhook was registered again: one live webhook.
		const webhooks = await webhooksOf(h, formId);
		expect(webhooks).toHaveLength(1);
		expect(webhooks[0].id).not.toBe(webhookBefore);

		// The next submission comes by the webhook at once, and the next check runs nothing.
		endpoint.received.length = 0;
		const next = await respond(formId, 0);
		expect(await ran()).toEqual([next]);
		checksApart();
		await again.tick();
		expect(await ran()).toEqual([next]);
	});

	it('notices a webhook Fillout dropped: runs what it missed and registers a new one, so the next is instant', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const running = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		const delivered = await respond(formId, 6 * MINUTE);
		expect(await ran()).toEqual([delivered]);
		const [dropped] = await webhooksOf(h, formId);
		expect((await h.control.delete(`/webhooks/${dropped.id as number}`)).status).toBe(200);
		const missed = [await respond(formId, 2 * MINUTE), await respond(formId, MINUTE)];

		await running.tick();
		expect(await ran()).toEqual([delivered, ...missed]);
		const webhooks = await webhooksOf(h, formId);
		expect(webhooks.map((w) => w.id)).toEqual([slots(trigger).production!.webhookId]);
		expect(webhooks[0].id).not.toBe(dropped.id);

		const next = await respond(formId, 0);
		expect(await ran()).toEqual([delivered, ...missed, next]);
	});

	it('never runs a delivered submission again, nor a checked one when its delivery comes late', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const running = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		const delivered = await respond(formId, 3 * MINUTE);
		await running.tick();
		expect(await ran()).toEqual([delivered]);

		// One the webhook missed, run by a check; then Fillout delivers it after all.
		endpoint.trigger = undefined;
		const late = await respond(formId, 2 * MINUTE);
		endpoint.trigger = trigger;
		checksApart();
		await running.tick();
		expect(await ran()).toEqual([delivered, late]);
		const secret = slots(trigger).production!.secret;
		const resent = await trigger.receive({
			query: { secret },
			body: { formId, formName: 'x', submission: { submissionId: late, questions: [] } },
		});
		expect(resent.items).toEqual([]);
		expect(resent.res.body).toEqual({
			message: 'Already received: this submission started the workflow once',
		});
	});

	it('costs one list request per check while nothing is missed, and no check ever lists for a delivery', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const running = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		await h.control.post('/stats/reset');
		for (let i = 0; i < 5; i++) await respond(formId, 0);
		expect(await ran()).toHaveLength(5);
		expect(await listRequests()).toBe(0);
		await running.tick();
		expect(await listRequests()).toBe(1);
		expect(await ran()).toHaveLength(5);
	});

	it('runs nothing made before it was published, and nothing made while unpublished when published again', async () => {
		const formId = await freshForm(h.control);
		const before = await respond(formId, 0);
		const trigger = await published(formId);
		const running = await start(trigger, 'activate');
		await running.tick();
		expect(await ran()).toEqual([]);

		// Unpublished: the webhook goes, the checks stop.
		await trigger.deactivate();
		await running.close();
		expect(await webhooksOf(h, formId)).toEqual([]);
		const whileOff = await respond(formId, 0);
		await running.tick();
		expect(await ran()).toEqual([]);

		// Published again: a new start; what came while unpublished stays out.
		await trigger.activate();
		const again = await start(trigger, 'activate');
		await again.tick();
		expect(await ran()).not.toContain(before);
		expect(await ran()).not.toContain(whileOff);
		expect(await webhooksOf(h, formId)).toHaveLength(1);
	});

	it('answers a knock only with the secret, and checks at most once in 5 seconds', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		await start(trigger, 'activate');
		const secret = slots(trigger).production!.secret;
		const knock = async (query: IDataObject) =>
			await trigger.receive({ query, headers: { [KNOCK_HEADER]: '1' }, body: {} });
		expect((await knock({ secret: 'wrong' })).res.statusCode).toBe(401);
		await h.control.post('/stats/reset');
		const answers = [await knock({ secret }), await knock({ secret })];
		expect(answers.map((a) => (a.res.body as IDataObject).checked)).toEqual([true, false]);
		expect(await listRequests()).toBe(1);
	});

	it('keeps catch-up off for a version 1 node, which knocks never and marks nothing', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, endpoint.url, { typeVersion: 1 });
		endpoint.trigger = trigger;
		await trigger.activate();
		const running = await startTrigger(trigger, 'activate');
		expect(running.response).toBeUndefined();
		expect(running.crons).toEqual([]);
		await respond(formId, 0);
		expect(await ran()).toHaveLength(1);
		expect(slots(trigger)).not.toHaveProperty(CATCH_UP_KEY);
	});
});
