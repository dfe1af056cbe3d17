/**
 * Activation when Fillout fails the registration or the form-name read before it: each
 * path is one fault of the sandbox. What the trigger recorded and what the sandbox holds
 * are checked after each.
 */
import { freshForm, type Harness } from '../sandbox/support';
import { filloutTrigger, n8nLogger, slots, webhooksOf, useTriggerSandbox } from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));

const CREATE = { method: 'POST', pathPattern: '/webhook/create$' };

/** Requests the sandbox counted per route since the last call. */
async function requestsSince(): Promise<Record<string, number>> {
	const stats = await h.control.get('/stats');
	await h.control.post('/stats/reset');
	return stats.body.requests as Record<string, number>;
}

describe('/webhook/create fails at activation', () => {
	it('a 5xx: activation fails saying it may have been registered, sent once, nothing recorded', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await h.control.post('/faults', { failNext: { ...CREATE, count: 1, status: 503 } });
		await requestsSince();

		const failure = await trigger.activate().catch((error: Error) => error);

		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toBe('Fillout failed to process the request (HTTP 503)');
		expect((failure as { description?: string }).description).toMatch(
			/may or may not have been processed/,
		);
		expect((await requestsSince())['POST /v1/api/webhook/create']).toBe(1);
		expect(slots(trigger)).toEqual({});
		expect(await webhooksOf(h, formId)).toEqual([]);

		// The next activation registers one.
		await trigger.activate();
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(trigger).production?.webhookId,
		]);
	});

	it('an answer without an id: activation fails saying so, nothing recorded', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await h.control.post('/faults', {
			failNext: { ...CREATE, count: 1, status: 200, body: { ok: true } },
		});

		const failure = await trigger.activate().catch((error: Error) => error);

		expect((failure as Error).message).toBe(
			'Fillout answered the webhook registration without a webhook id',
		);
		expect((failure as { description?: string }).description).toMatch(
			/may exist at Fillout without n8n knowing it/,
		);
		expect(slots(trigger)).toEqual({});
	});
});

describe('the form’s name cannot be read at activation', () => {
	it('after retries of a server error: registered without the name, and warned', async () => {
		const formId = await freshForm(h.control, { name: 'Unreadable name' });
		const trigger = filloutTrigger(h, formId, instanceUrl);
		// Every attempt (1 + 3 retries) of the read fails.
		await h.control.post('/faults', {
			failNext: { count: 4, method: 'GET', pathPattern: `/forms/${formId}$`, status: 502 },
		});
		const warn = jest.spyOn(n8nLogger(), 'warn');

		expect(await trigger.activate()).toEqual({ existed: false, created: true });

		expect(warn).toHaveBeenCalledWith(
			`Fillout Trigger: could not read the name of form ${formId}: Fillout failed to process the request (HTTP 502)`,
			{ formId },
		);
		const record = slots(trigger).production;
		expect(record).toMatchObject({ formId, webhookId: expect.any(Number) });
		expect(record).not.toHaveProperty('formName');
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([record?.webhookId]);
	});

	it('refused for the credentials: activation fails before registering anything', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await h.control.post('/faults', {
			failNext: { count: 1, method: 'GET', pathPattern: `/forms/${formId}$`, status: 401 },
		});
		await requestsSince();

		await expect(trigger.activate()).rejects.toThrow('Fillout refused the credentials');

		expect((await requestsSince())['POST /v1/api/webhook/create']).toBeUndefined();
		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger)).toEqual({});
	});
});
