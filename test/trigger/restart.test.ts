/**
 * n8n starts again with the saved static data (activation 'init'): a registration that
 * still fits (same form, n8n address and API root) is kept without asking Fillout; a
 * changed one is replaced. Fillout cannot list webhooks, so nothing else could tell.
 */
import { freshForm, type Harness } from '../sandbox/support';
import { filloutTrigger, slots, webhooksOf, useTriggerSandbox } from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));

/** API calls the sandbox saw since the last reset (refused and dropped ones included). */
const apiCalls = async () => (await h.control.get('/stats')).body.total as number;

describe('a restart', () => {
	it('keeps a registration that still fits: same webhook and secret, no call to Fillout, even when it is down', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const record = slots(trigger).production!;
		// Fillout is unreachable while n8n starts.
		await h.control.post('/faults', { dropNext: { count: 100 } });
		await h.control.post('/stats/reset');

		const restarted = filloutTrigger(h, formId, instanceUrl, { staticData: trigger.staticData });
		expect(await restarted.activate({ activation: 'init' })).toEqual({ existed: true });

		expect(await apiCalls()).toBe(0);
		expect(slots(restarted).production).toEqual(record);
		await h.control.delete('/faults');
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([record.webhookId]);
		// The kept secret still opens the door.
		const delivery = await restarted.receive({
			query: { secret: record.secret },
			body: { formId, formName: 'Test form', submission: { submissionId: 's1', questions: [] } },
		});
		expect(delivery.items).toHaveLength(1);
	});

	it('with another n8n address (WEBHOOK_URL changed) replaces the webhook', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const old = slots(trigger).production!;
		// e.g. n8n now behind a proxy: WEBHOOK_URL=<same host>/n8n/
		const movedUrl = `${instanceUrl}/n8n`;

		const moved = filloutTrigger(h, formId, movedUrl, { staticData: trigger.staticData });
		expect(await moved.activate({ activation: 'init' })).toEqual({ existed: false, created: true });

		const live = await webhooksOf(h, formId);
		expect(live.map((w) => w.id)).toEqual([slots(moved).production!.webhookId]);
		expect(live[0].id).not.toBe(old.webhookId);
		expect(live[0].url.startsWith(moved.webhookUrl()!)).toBe(true);
		expect(moved.webhookUrl()).not.toBe(old.url);
	});

	it('with another form replaces the webhook on the new form', async () => {
		const formA = await freshForm(h.control);
		const formB = await freshForm(h.control);
		const trigger = filloutTrigger(h, formA, instanceUrl);
		await trigger.activate();

		const changed = filloutTrigger(h, formB, instanceUrl, {
			staticData: trigger.staticData,
			workflowId: `workflow-${formA}`,
		});
		expect(await changed.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});

		expect(await webhooksOf(h, formA)).toEqual([]);
		expect((await webhooksOf(h, formB)).map((w) => w.id)).toEqual([
			slots(changed).production!.webhookId,
		]);
	});
});

describe('"Listen for test event"', () => {
	it('listening again keeps the test webhook that still fits, and never reuses the production one', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		const production = slots(trigger).production!;
		expect(await trigger.activate({ mode: 'manual', activation: 'manual' })).toEqual({
			existed: false,
			created: true,
		});
		const test = slots(trigger).test!;
		await h.control.post('/stats/reset');

		expect(await trigger.activate({ mode: 'manual', activation: 'manual' })).toEqual({
			existed: true,
		});

		expect(await apiCalls()).toBe(0);
		expect(slots(trigger)).toEqual({ production, test });
		expect((await webhooksOf(h, formId)).map((w) => w.id).sort()).toEqual(
			[production.webhookId, test.webhookId].sort(),
		);
	});
});
