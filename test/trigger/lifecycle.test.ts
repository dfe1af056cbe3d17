/**
 * The trigger's webhook lifecycle through n8n-core's real HookContext against the
 * sandbox: exactly one live webhook per active trigger, whatever happens in between.
 */
import { apiClient, freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	n8nLogger,
	sandboxCredentials,
	secretIn,
	slots,
	webhooksOf,
	useTriggerSandbox,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));

describe('activation', () => {
	it('registers exactly one webhook at the node’s address, carrying a fresh secret, and records it', async () => {
		const formId = await freshForm(h.control, { name: 'Trigger form' });
		const trigger = filloutTrigger(h, formId, instanceUrl);

		expect(await trigger.activate()).toEqual({ existed: false, created: true });

		const [webhook, ...others] = await webhooksOf(h, formId);
		expect(others).toEqual([]);
		const address = trigger.webhookUrl() as string;
		expect(address).toMatch(/\/webhook\/[^/]+\/webhook$/);
		expect(webhook.url).toMatch(
			new RegExp(`^${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\?secret=[A-Za-z0-9_-]{43}$`),
		);
		expect(slots(trigger).production).toEqual({
			webhookId: webhook.id,
			formId,
			formName: 'Trigger form',
			url: address,
			secret: secretIn(webhook.url),
			apiRoot: h.sandbox.apiRoot,
			createdAt: expect.any(String),
			workflowId: `workflow-${formId}`,
			nodeId: trigger.executionSetup().node.id,
		});
		expect(slots(trigger).test).toBeUndefined();
	});

	it('deactivation removes the webhook and forgets it', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		expect(await webhooksOf(h, formId)).toHaveLength(1);

		expect(await trigger.deactivate()).toBe(true);

		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger)).toEqual({});
	});

	it('re-activation (n8n removes, then adds) leaves exactly one webhook, with the same derived secret', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const first = slots(trigger).production!;

		await trigger.deactivate();
		expect(await trigger.activate({ activation: 'update' })).toEqual({
			existed: false,
			created: true,
		});
		const second = slots(trigger).production!;

		const live = await webhooksOf(h, formId);
		expect(live.map((w) => w.id)).toEqual([second.webhookId]);
		expect(second.webhookId).not.toBe(first.webhookId);
		// Derived from the credential, workflow, node and form: not from the registration.
		expect(second.secret).toBe(first.secret);
		expect(secretIn(live[0].url)).toBe(second.secret);
	});

	it('a changed form removes the old form’s webhook and registers on the new one', async () => {
		const formA = await freshForm(h.control, { name: 'Form A' });
		const formB = await freshForm(h.control, { name: 'Form B' });
		const before = filloutTrigger(h, formA, instanceUrl);
		await before.activate();

		// The same workflow with another form.
		const after = filloutTrigger(h, formB, instanceUrl, {
			staticData: before.staticData,
			workflowId: `workflow-${formA}`,
		});
		await after.activate({ activation: 'update' });

		expect(await webhooksOf(h, formA)).toEqual([]);
		const onB = await webhooksOf(h, formB);
		expect(onB).toHaveLength(1);
		expect(slots(after).production).toMatchObject({
			webhookId: onB[0].id,
			formId: formB,
			formName: 'Form B',
		});
	});

	it('takes the form from a share link ("By URL")', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl, {
			parameters: {
				form: { __rl: true, mode: 'url', value: `https://forms.fillout.com/t/${formId}` },
			},
		});
		await trigger.activate();
		expect(await webhooksOf(h, formId)).toHaveLength(1);
		expect(slots(trigger).production?.formId).toBe(formId);
	});
});

describe('activation when the old webhook cannot simply be removed', () => {
	it('a webhook the service already dropped (404) is no error: warned, forgotten, replaced', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const { webhookId } = slots(trigger).production!;
		expect((await h.api.post('/webhook/delete', { webhookId })).status).toBe(200);
		const warn = jest.spyOn(n8nLogger(), 'warn');

		expect(await trigger.deactivate()).toBe(true);

		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`did not remove webhook ${webhookId} (HTTP 404`),
			expect.objectContaining({ webhookId, formId }),
		);
		expect(slots(trigger)).toEqual({});

		// The same on an activation that replaces it (n8n's address changed meanwhile).
		await trigger.activate();
		const replaced = slots(trigger).production!.webhookId;
		await h.api.post('/webhook/delete', { webhookId: replaced });
		warn.mockClear();
		const moved = filloutTrigger(h, formId, `${instanceUrl}/n8n`, {
			staticData: trigger.staticData,
		});
		await moved.activate({ activation: 'init' });
		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`did not remove webhook ${replaced} (HTTP 404`),
			expect.anything(),
		);
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(moved).production!.webhookId,
		]);
	});

	it('refused credentials fail the removal loudly and keep the record, so nothing is left behind', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const record = slots(trigger).production!;

		const badKey = filloutTrigger(h, formId, instanceUrl, {
			staticData: trigger.staticData,
			credentials: sandboxCredentials(h, 'sk_prod_not_a_key'),
		});
		await expect(badKey.deactivate()).rejects.toThrow('Fillout refused the credentials');
		expect(slots(badKey).production).toEqual(record);
		// Moving to another form with the bad key fails in checkExists, before anything is created.
		const otherForm = await freshForm(h.control);
		const moving = filloutTrigger(h, otherForm, instanceUrl, {
			staticData: badKey.staticData,
			workflowId: `workflow-${formId}`,
			credentials: sandboxCredentials(h, 'sk_prod_not_a_key'),
		});
		await expect(moving.activate()).rejects.toThrow('Fillout refused the credentials');
		expect(slots(moving).production).toEqual(record);
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([record.webhookId]);
		expect(await webhooksOf(h, otherForm)).toEqual([]);

		const fixed = filloutTrigger(h, formId, instanceUrl, { staticData: badKey.staticData });
		await fixed.deactivate();
		expect(await webhooksOf(h, formId)).toEqual([]);
	});

	it('a network failure during removal throws (after retries) and never leads to a duplicate', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const record = slots(trigger).production!;
		// Every attempt (1 + 3 retries) of the delete loses its connection.
		await h.control.post('/faults', { dropNext: { count: 4, pathPattern: '/webhook/delete' } });
		// Another form: the recorded webhook must go before a new one is registered.
		const otherForm = await freshForm(h.control);
		const moving = filloutTrigger(h, otherForm, instanceUrl, {
			staticData: trigger.staticData,
			workflowId: `workflow-${formId}`,
		});

		await expect(moving.activate({ activation: 'update' })).rejects.toThrow(
			'Could not reach Fillout',
		);

		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([record.webhookId]);
		expect(await webhooksOf(h, otherForm)).toEqual([]);
		expect(slots(moving).production).toEqual(record);
	});

	it('after a switch to another account’s API root the old id is not deleted there: warned, not guessed', async () => {
		const formId = await freshForm(h.control);
		const before = filloutTrigger(h, formId, instanceUrl);
		await before.activate();
		const old = slots(before).production!;
		const eu = apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey);
		const euForm = (await eu.get('/forms')).body[0].formId as string;
		const warn = jest.spyOn(n8nLogger(), 'warn');

		const after = filloutTrigger(h, euForm, instanceUrl, {
			staticData: before.staticData,
			workflowId: `workflow-${formId}`,
			credentials: {
				filloutFormsApi: {
					apiKey: h.sandbox.demo.euApiKey,
					region: 'custom',
					baseUrl: h.sandbox.demo.euApiRoot,
				},
			},
		});
		await after.activate({ activation: 'update' });

		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`webhook ${old.webhookId} was registered at ${h.sandbox.apiRoot}`),
			expect.objectContaining({ webhookId: old.webhookId }),
		);
		// The old webhook stays at the old root…
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([old.webhookId]);
		// …and exactly one is registered at the new one.
		const onEu = await webhooksOf(h, euForm);
		expect(onEu).toHaveLength(1);
		expect(slots(after).production).toMatchObject({
			webhookId: onEu[0].id,
			apiRoot: h.sandbox.demo.euApiRoot,
		});
		await after.deactivate();
		expect(await webhooksOf(h, euForm)).toEqual([]);
	});
});

describe('activation with a form that is missing or empty', () => {
	it('a form that does not exist fails activation with its id and registers nothing', async () => {
		const trigger = filloutTrigger(h, 'noSuchForm1', instanceUrl);
		await expect(trigger.activate()).rejects.toThrow('Form noSuchForm1 not found');
		expect(await webhooksOf(h, 'noSuchForm1')).toEqual([]);
		expect(slots(trigger)).toEqual({});
	});

	it('an empty form parameter fails activation with a clear message', async () => {
		const trigger = filloutTrigger(h, '', instanceUrl);
		await expect(trigger.activate()).rejects.toThrow('does not name a Fillout form');
	});
});

describe('"Listen for test event"', () => {
	it('registers its own webhook at the test address and never touches the production one', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const production = slots(trigger).production!;

		// n8n: createWebhookIfNotExists(workflow, webhook, 'manual', 'manual').
		expect(await trigger.activate({ mode: 'manual', activation: 'manual' })).toEqual({
			existed: false,
			created: true,
		});

		const test = slots(trigger).test!;
		expect(test.url).toBe(trigger.webhookUrl({ mode: 'manual' }));
		expect(test.url).toContain('/webhook-test/');
		expect(test.secret).not.toBe(production.secret);
		expect(slots(trigger).production).toEqual(production);
		const live = await webhooksOf(h, formId);
		expect(live.map((w) => w.id).sort()).toEqual([production.webhookId, test.webhookId].sort());
		expect(live.find((w) => w.id === test.webhookId).url).toBe(`${test.url}?secret=${test.secret}`);

		// n8n removes test webhooks with mode 'internal' (not 'manual'): the address tells.
		await trigger.callWebhookMethod('delete', {
			mode: 'trigger',
			activation: 'update',
			isTest: true,
		});

		expect(slots(trigger)).toEqual({ production });
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([production.webhookId]);
	});

	it('listening twice still leaves one test webhook, and its removal in mode manual works too', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);

		await trigger.activate({ mode: 'manual', activation: 'manual' });
		await trigger.activate({ mode: 'manual', activation: 'manual' });
		const test = slots(trigger).test!;
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([test.webhookId]);
		expect(slots(trigger).production).toBeUndefined();

		await trigger.deactivate({ mode: 'manual', activation: 'manual' });
		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger)).toEqual({});
	});

	it('deactivating production leaves a running test webhook alone', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		await trigger.activate({ mode: 'manual', activation: 'manual' });
		const test = slots(trigger).test!;

		await trigger.deactivate({ mode: 'trigger', activation: 'update' });

		expect(slots(trigger)).toEqual({ test });
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([test.webhookId]);
	});
});
