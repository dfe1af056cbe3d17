import { DEFAULT_WEBHOOK_ID, createTriggerHarness, useRecordingServer } from './index';

import { HarnessWebhookTrigger } from './fixtures/HarnessWebhookTrigger.node';

// Plays both roles: the forms API the trigger registers with, and the n8n instance its
// webhook URL points at.
let nextWebhookId = 41;
const server = useRecordingServer((request) =>
	request.path === '/api/webhook/create' ? { body: { id: ++nextWebhookId } } : { body: {} },
);

const harnessOptions = () => ({
	nodeType: HarnessWebhookTrigger,
	parameters: { formId: 'form-1' },
	credentials: {
		filloutFormsApi: { apiKey: 'sk_prod_key', region: 'custom', baseUrl: `${server.url}/api` },
	},
	instanceUrl: server.url,
});

describe('TriggerHarness', () => {
	it('builds webhook URLs as n8n does: /webhook/ when active, /webhook-test/ when listening', () => {
		const trigger = createTriggerHarness(harnessOptions());

		expect(trigger.webhookUrl()).toBe(`${server.url}/webhook/${DEFAULT_WEBHOOK_ID}/webhook`);
		expect(trigger.webhookUrl({ mode: 'manual' })).toBe(
			`${server.url}/webhook-test/${DEFAULT_WEBHOOK_ID}/webhook`,
		);
	});

	it('activation runs checkExists then create, through a real HookContext', async () => {
		const trigger = createTriggerHarness(harnessOptions());
		const outcome = await trigger.activate();

		expect(outcome).toEqual({ existed: false, created: true });
		expect(server.requests).toHaveLength(1);
		const [create] = server.requests;
		expect(create.method).toBe('POST');
		expect(create.headers.authorization).toBe('Bearer sk_prod_key');
		const sent = create.json as { formId: string; url: string };
		expect(sent.formId).toBe('form-1');
		expect(sent.url).toMatch(
			new RegExp(`^${server.url}/webhook/${DEFAULT_WEBHOOK_ID}/webhook\\?secret=\\w+$`),
		);
		const nodeData = trigger.staticData['node:Harness Webhook Trigger'] as Record<string, unknown>;
		expect(nodeData).toMatchObject({ activation: 'activate', mode: 'trigger' });
		expect(nodeData.webhookId).toBe(nextWebhookId);
	});

	it('static data carries over to a re-activation, so nothing is registered twice', async () => {
		const first = createTriggerHarness(harnessOptions());
		await first.activate();
		server.requests.length = 0;

		const again = createTriggerHarness({ ...harnessOptions(), staticData: first.staticData });
		const outcome = await again.activate({ activation: 'init' });

		expect(outcome).toEqual({ existed: true });
		expect(server.requests).toHaveLength(0);
	});

	it('passes mode and activation through (manual listening, workflow update)', async () => {
		const trigger = createTriggerHarness(harnessOptions());
		await trigger.callWebhookMethod('create', { mode: 'manual', activation: 'update' });

		const sent = server.requests[0].json as { url: string };
		expect(sent.url).toContain('/webhook-test/');
		expect(trigger.staticData['node:Harness Webhook Trigger']).toMatchObject({
			activation: 'update',
			mode: 'manual',
		});
	});

	it('a delivery to the registered URL reaches webhook() with its query, headers and body', async () => {
		const trigger = createTriggerHarness(harnessOptions());
		await trigger.activate();
		const registered = (server.requests[0].json as { url: string }).url;

		// The "service" delivers a submission to the URL it was given: a real HTTP call.
		const delivery = await fetch(registered, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-probe': 'yes' },
			body: JSON.stringify({ submissionId: 's-1' }),
		});
		expect(delivery.status).toBe(200);
		const received = server.requests[1];
		expect(received.path).toBe(`/webhook/${DEFAULT_WEBHOOK_ID}/webhook`);

		const result = await trigger.receive({
			method: 'POST',
			headers: received.headers as Record<string, string>,
			query: received.query,
			body: received.json,
		});

		expect(result.response.noWebhookResponse).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual({
			submissionId: 's-1',
			receivedHeader: 'yes',
			webhookUrl: `${server.url}/webhook/${DEFAULT_WEBHOOK_ID}/webhook`,
		});
		expect(result.res.ended).toBe(false);
	});

	it('the node can answer 401 itself through the response object', async () => {
		const trigger = createTriggerHarness(harnessOptions());
		await trigger.activate();

		const result = await trigger.receive({
			body: { submissionId: 's-2' },
			query: { secret: 'wrong' },
		});

		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.items).toEqual([]);
		expect(result.res).toMatchObject({
			statusCode: 401,
			body: { message: 'Unauthorized' },
			ended: true,
		});
	});

	it('deactivation runs delete with the stored id and clears the static data', async () => {
		const trigger = createTriggerHarness(harnessOptions());
		await trigger.activate();
		const id = (trigger.staticData['node:Harness Webhook Trigger'] as { webhookId: number })
			.webhookId;

		const deleted = await trigger.deactivate();

		expect(deleted).toBe(true);
		expect(server.requests[1].path).toBe('/api/webhook/delete');
		expect(server.requests[1].json).toEqual({ webhookId: id });
		expect(trigger.staticData['node:Harness Webhook Trigger']).toEqual({
			activation: 'activate',
			mode: 'trigger',
		});
		expect(await trigger.callWebhookMethod('checkExists')).toBe(false);
	});
});
