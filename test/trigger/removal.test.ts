/**
 * Removing the recorded webhook when Fillout will not: a webhook that is gone or not
 * this account's is forgotten with a warning and never blocks activation, deactivation
 * or "Listen for test event"; a failure that may pass (5xx, no answer) keeps the record.
 * This sandbox answers 400 for an unknown webhook, as the live service answers many errors.
 */
import { closedPortUrl } from '../harness';
import { freshForm, useHarness } from '../sandbox/support';
import { filloutTrigger, n8nLogger, slots, webhooksOf } from './support';

let instanceUrl: string;

const h = useHarness({ rateLimit: 0, quiet: true, unknownWebhookStatus: 400 });
beforeAll(async () => {
	instanceUrl = await closedPortUrl();
});
afterEach(async () => {
	await h.control.delete('/faults');
	jest.restoreAllMocks();
});

/** An active trigger whose webhook was then deleted at Fillout behind its back. */
async function triggerWithGoneWebhook(mode: 'trigger' | 'manual' = 'trigger') {
	const formId = await freshForm(h.control);
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate(mode === 'manual' ? { mode, activation: 'manual' } : {});
	const record = mode === 'manual' ? slots(trigger).test! : slots(trigger).production!;
	expect((await h.api.post('/webhook/delete', { webhookId: record.webhookId })).status).toBe(200);
	return { formId, trigger, record };
}

const forgotten = (webhookId: number | string) =>
	[
		expect.stringContaining(`did not remove webhook ${webhookId} (HTTP 400`),
		expect.objectContaining({ webhookId }),
	] as const;

describe('a webhook Fillout answers 400 for (already gone)', () => {
	it('deactivation forgets it with a warning, and the next activation registers one', async () => {
		const { formId, trigger, record } = await triggerWithGoneWebhook();
		const warn = jest.spyOn(n8nLogger(), 'warn');

		expect(await trigger.deactivate()).toBe(true);

		expect(warn).toHaveBeenCalledWith(...forgotten(record.webhookId));
		expect(slots(trigger)).toEqual({});
		await trigger.activate();
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(trigger).production!.webhookId,
		]);
	});

	it('activation on a changed form is not blocked: forgotten, and the new form gets its webhook', async () => {
		const { record, trigger } = await triggerWithGoneWebhook();
		const formB = await freshForm(h.control);
		const warn = jest.spyOn(n8nLogger(), 'warn');

		const changed = filloutTrigger(h, formB, instanceUrl, {
			staticData: trigger.staticData,
			workflowId: trigger.executionSetup().workflow.id,
		});
		expect(await changed.activate({ activation: 'update' })).toEqual({
			existed: false,
			created: true,
		});

		expect(warn).toHaveBeenCalledWith(...forgotten(record.webhookId));
		const onB = await webhooksOf(h, formB);
		expect(onB).toHaveLength(1);
		expect(slots(changed).production).toMatchObject({ webhookId: onB[0].id, formId: formB });
	});

	it('"Listen for test event": its removal forgets it, and listening again works', async () => {
		const { formId, trigger, record } = await triggerWithGoneWebhook('manual');
		const warn = jest.spyOn(n8nLogger(), 'warn');

		// n8n removes the test webhook in mode 'internal'.
		await trigger.callWebhookMethod('delete', {
			mode: 'trigger',
			activation: 'update',
			isTest: true,
		});

		expect(warn).toHaveBeenCalledWith(...forgotten(record.webhookId));
		expect(slots(trigger)).toEqual({});
		await trigger.activate({ mode: 'manual', activation: 'manual' });
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(trigger).test!.webhookId,
		]);
	});
});

describe('other refusals of /webhook/delete', () => {
	it.each([
		['403 Forbidden (another account’s webhook)', 403, 'Forbidden'],
		['400 that reads like a credential failure while the credentials work', 400, 'Unauthorized'],
	])('%s: forgotten with a warning', async (_label, status, message) => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const { webhookId } = slots(trigger).production!;
		await h.control.post('/faults', {
			failNext: { count: 1, pathPattern: '/webhook/delete', status, body: { message } },
		});
		const warn = jest.spyOn(n8nLogger(), 'warn');

		expect(await trigger.deactivate()).toBe(true);

		expect(warn).toHaveBeenCalledWith(
			expect.stringContaining(`did not remove webhook ${webhookId} (HTTP ${status}: ${message})`),
			expect.objectContaining({ webhookId, formId }),
		);
		expect(slots(trigger)).toEqual({});
	});

	it('a server error that outlasts the retries fails and keeps the record, for the next try', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const record = slots(trigger).production!;
		await h.control.post('/faults', {
			failNext: { count: 4, pathPattern: '/webhook/delete', status: 503 },
		});

		await expect(trigger.deactivate()).rejects.toThrow('Fillout failed to process the request');

		expect(slots(trigger).production).toEqual(record);
		await trigger.deactivate();
		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger)).toEqual({});
	});
});
