/**
 * Static data copied into another workflow (an export imported, the public API) holds the
 * first workflow's record. The copy's activation or deactivation must not remove that
 * workflow's live webhook at Fillout: a recorded webhook is removed only when the record is
 * this trigger's (secret derived for it, owner fields naming it, or, for an earlier
 * version's record, this node's own address). Real deliveries from the sandbox.
 */
import { randomBytes } from 'node:crypto';

import type { TriggerHarness } from '../harness';
import { apiClient, freshForm, useHarness, type Json } from '../sandbox/support';
import { startEndpoint, type Endpoint } from './support/endpoint';
import {
	filloutTrigger,
	forgetProcessMemory,
	n8nLogger,
	secretIn,
	slots,
	webhooksOf,
} from './support';

const h = useHarness({ rateLimit: 0, quiet: true });
let endpoint: Endpoint;
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
afterEach(() => jest.restoreAllMocks());

const A_WEBHOOK_ID = '1a1a1a1a-0000-4000-8000-00000000000a';
const B_WEBHOOK_ID = '2b2b2b2b-0000-4000-8000-00000000000b';

/** Workflow A, published and receiving at its own address. */
async function workflowA(formId: string): Promise<TriggerHarness> {
	const a = filloutTrigger(h, formId, endpoint.url, {
		workflowId: 'workflow-A',
		webhookId: A_WEBHOOK_ID,
	});
	await a.activate();
	endpoint.trigger = a;
	return a;
}

/** Workflow B: a copy of A (same node, same form) with A's static data, its own address. */
const workflowB = (
	formId: string,
	staticData: TriggerHarness['staticData'],
	webhookId = B_WEBHOOK_ID,
) => filloutTrigger(h, formId, endpoint.url, { workflowId: 'workflow-B', webhookId, staticData });

/** A respondent submits; the sandbox's deliveries, by webhook id. */
async function respond(formId: string): Promise<Map<unknown, Json>> {
	const res = await h.control.post(`/forms/${formId}/respond`, { answers: {} });
	expect(res.status).toBe(200);
	return new Map((res.body.deliveries as Json[]).map((d) => [d.webhookId, d]));
}

it('activating a workflow with a copy of A’s static data leaves A’s webhook in place, and A still receives', async () => {
	const formId = await freshForm(h.control);
	const a = await workflowA(formId);
	const aWebhook = slots(a).production!;
	const warn = jest.spyOn(n8nLogger(), 'warn');

	const b = workflowB(formId, a.staticData);
	expect(await b.activate({ activation: 'activate' })).toEqual({ existed: false, created: true });

	const live = await webhooksOf(h, formId);
	expect(live.map((w) => w.id).sort()).toEqual(
		[aWebhook.webhookId, slots(b).production!.webhookId].sort(),
	);
	expect(slots(b).production).toMatchObject({ workflowId: 'workflow-B', url: b.webhookUrl() });
	const forgotten = warn.mock.calls.filter(([message]) =>
		String(message).includes(`webhook ${aWebhook.webhookId} (form ${formId})`),
	);
	expect(forgotten).toHaveLength(1);
	expect(forgotten[0][0]).toContain('not registered by this trigger');
	expect(JSON.stringify(warn.mock.calls)).not.toContain(aWebhook.secret);

	const deliveries = await respond(formId);
	expect(deliveries.get(aWebhook.webhookId)).toMatchObject({ statusCode: 200 });
	expect(endpoint.received.filter((r) => r.status === 200).flatMap((r) => r.items)).toHaveLength(1);
});

it('deactivating the copy (n8n clears a workflow whose activation failed) leaves A’s webhook too', async () => {
	const formId = await freshForm(h.control);
	const a = await workflowA(formId);
	const aWebhook = slots(a).production!;
	jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);

	// The same node address as A (an import that kept the node's webhookId).
	const b = workflowB(formId, a.staticData, A_WEBHOOK_ID);
	await b.deactivate();

	expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([aWebhook.webhookId]);
	expect(slots(b).production).toBeUndefined();
	expect((await respond(formId)).get(aWebhook.webhookId)).toMatchObject({ statusCode: 200 });
});

describe('records of earlier versions (random secret, no owner)', () => {
	/** A webhook registered as 1.0.0 did: a random secret, the record without owner fields. */
	async function legacyRegistration(formId: string, url: string) {
		const secret = randomBytes(32).toString('base64url');
		const api = apiClient(h.sandbox.apiRoot, h.sandbox.demo.apiKey);
		const res = await api.post('/webhook/create', { formId, url: `${url}?secret=${secret}` });
		expect(res.status).toBe(200);
		const record = {
			webhookId: res.body.id as number,
			formId,
			url,
			secret,
			apiRoot: h.sandbox.apiRoot,
			createdAt: new Date().toISOString(),
		};
		return { record, staticData: { 'node:Fillout Trigger': { production: record } } };
	}

	it('at this node’s own address: replaced on activation (the upgrade), no webhook left behind', async () => {
		const formId = await freshForm(h.control);
		const node = workflowB(formId, {});
		const { record, staticData } = await legacyRegistration(formId, node.webhookUrl()!);
		const upgraded = workflowB(formId, staticData);

		expect(await upgraded.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});

		const live = await webhooksOf(h, formId);
		expect(live.map((w) => w.id)).toEqual([slots(upgraded).production!.webhookId]);
		expect(live[0].id).not.toBe(record.webhookId);
		expect(secretIn(live[0].url as string)).not.toBe(record.secret);
	});

	it('at another address (a copy of another workflow’s old record): forgotten, the webhook left', async () => {
		const formId = await freshForm(h.control);
		const other = filloutTrigger(h, formId, endpoint.url, { webhookId: A_WEBHOOK_ID });
		const { record, staticData } = await legacyRegistration(formId, other.webhookUrl()!);
		const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);

		const b = workflowB(formId, staticData);
		await b.activate({ activation: 'activate' });

		const ids = (await webhooksOf(h, formId)).map((w) => w.id);
		expect(ids).toContain(record.webhookId);
		expect(ids).toHaveLength(2);
		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`webhook ${record.webhookId} (form ${formId})`),
			expect.objectContaining({ webhookId: record.webhookId }),
		);
	});
});

it('the trigger’s own record after the API key changed (owner fields, old secret) is still removed', async () => {
	const formId = await freshForm(h.control);
	const a = await workflowA(formId);
	const old = slots(a).production!;
	// The key changed since: the record's secret is not derived from the current one (a
	// random stand-in); its owner fields are A's.
	const record = { ...old, secret: randomBytes(32).toString('base64url') };
	const rotated = filloutTrigger(h, formId, endpoint.url, {
		workflowId: 'workflow-A',
		webhookId: A_WEBHOOK_ID,
		staticData: { 'node:Fillout Trigger': { production: record } },
	});

	await rotated.activate({ activation: 'update' });

	const ids = (await webhooksOf(h, formId)).map((w) => w.id);
	expect(ids).toEqual([slots(rotated).production!.webhookId]);
	expect(ids).not.toContain(old.webhookId);
});

it('the trigger’s own record without owner fields (derived secret) at an old address is removed', async () => {
	const formId = await freshForm(h.control);
	const a = await workflowA(formId);
	const { workflowId, nodeId, ...older } = slots(a).production!;
	expect([workflowId, nodeId]).toEqual(['workflow-A', expect.any(String)]);
	// n8n's webhook address changed since (WEBHOOK_URL): only the secret shows it is A's.
	const moved = filloutTrigger(h, formId, `${endpoint.url}/n8n`, {
		workflowId: 'workflow-A',
		webhookId: A_WEBHOOK_ID,
		staticData: { 'node:Fillout Trigger': { production: older } },
	});

	await moved.activate({ activation: 'init' });

	expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
		slots(moved).production!.webhookId,
	]);
});

it('a record naming another workflow but no node (a node without an id) is not removed, even at this node’s address', async () => {
	const formId = await freshForm(h.control);
	const a = await workflowA(formId);
	const { nodeId, ...withoutNode } = slots(a).production!;
	expect(nodeId).toEqual(expect.any(String));
	jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);

	// A copy that kept the node's webhookId: the record's address is this node's own.
	const b = workflowB(
		formId,
		{ 'node:Fillout Trigger': { production: withoutNode } },
		A_WEBHOOK_ID,
	);
	expect(withoutNode.url).toBe(b.webhookUrl());
	await b.deactivate();

	expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([withoutNode.webhookId]);
	expect((await respond(formId)).get(withoutNode.webhookId)).toMatchObject({ statusCode: 200 });
});
