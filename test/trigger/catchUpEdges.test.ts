/**
 * Catch-up at its edges, over real HTTP (./support/catchUp.ts): which webhook slot checks,
 * when the webhook is replaced, what a publish or a restart starts, a removal racing a
 * check, and work that fails before its execution starts.
 */
import type { IDataObject } from 'n8n-workflow';

import { CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { KNOCK_HEADER } from '../../nodes/Fillout/catchUp/knock';
import * as downloadFiles from '../../nodes/Fillout/downloadFiles';
import type { WebhookCallResult } from '../harness';
import { freshForm } from '../sandbox/support';
import { checkedOf, MINUTE, useCatchUp } from './support/catchUp';
import { forgetProcessMemory, n8nLogger, NODE_NAME, slots, webhooksOf } from './support';

const c = useCatchUp();
const { h } = c;

afterEach(() => jest.restoreAllMocks());

const webhookIds = async (formId: string) => (await webhooksOf(h, formId)).map((w) => w.id);
const ranBy = (answer: WebhookCallResult) => answer.items.map((item) => item.json.submissionId);

describe('catch-up at its edges', () => {
	it('checks only for the production webhook: a knock at the test webhook lists nothing', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		await c.start(trigger);
		await trigger.activate({ mode: 'manual', activation: 'manual' });
		await h.control.post('/stats/reset');
		const answer = await trigger.receive(
			{
				query: { secret: slots(trigger).test!.secret },
				headers: { [KNOCK_HEADER]: '1' },
				body: {},
			},
			{ mode: 'manual' },
		);
		expect(checkedOf(answer)).toBe(false);
		expect(await c.listRequests()).toBe(0);
	});

	it('replaces the webhook when it missed one made while it was registered, not for older ones', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		await c.start(trigger);
		// Catch-up started 10 minutes ago; the webhook was registered 3 minutes ago.
		c.backdate(trigger, 10 * MINUTE, 3 * MINUTE);
		c.endpoint().trigger = undefined;
		const older = await c.respond(formId, 5 * MINUTE);
		c.endpoint().trigger = trigger;
		const [before] = await webhookIds(formId);
		const first = await c.knock(trigger);
		expect(checkedOf(first)).toBe(true);
		expect(ranBy(first)).toEqual([older]);
		expect(await webhookIds(formId)).toEqual([before]);

		// One from before the webhook and one from after, in one check: replaced.
		c.endpoint().trigger = undefined;
		const alsoOlder = await c.respond(formId, 4 * MINUTE);
		const newer = await c.respond(formId, MINUTE);
		c.endpoint().trigger = trigger;
		c.checksApart();
		expect(ranBy(await c.knock(trigger))).toEqual([alsoOlder, newer]);
		const after = await webhookIds(formId);
		expect(after).toHaveLength(1);
		expect(after[0]).not.toBe(before);
	});

	it('starts afresh at a publish: what was submitted while unpublished never runs', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		const first = await c.start(trigger);
		c.backdate(trigger, 10 * MINUTE);
		await trigger.deactivate();
		await first.close();
		const whileOff = await c.respond(formId, 5 * MINUTE);
		await trigger.activate();
		await c.start(trigger, 'activate');
		const answer = await c.knock(trigger);
		expect(checkedOf(answer)).toBe(true);
		expect(ranBy(answer)).not.toContain(whileOff);
		expect(await c.ran()).toEqual([]);
	});

	it('keeps the record at a restart, and starts one at a restart that finds none', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		await c.start(trigger, 'init');
		const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
		const record = node[CATCH_UP_KEY] as IDataObject;
		expect(record).toBeDefined();
		forgetProcessMemory();
		await c.start(trigger, 'init');
		expect((trigger.staticData[`node:${NODE_NAME}`] as IDataObject)[CATCH_UP_KEY]).toEqual(record);
	});

	it('registers no webhook after n8n removed it, even when a check then finds missed ones', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		await c.start(trigger);
		c.backdate(trigger, 10 * MINUTE);
		const secret = slots(trigger).production!.secret;
		await trigger.deactivate();
		const missed = await c.respond(formId, 2 * MINUTE);
		await h.control.post('/stats/reset');
		expect(ranBy(await c.knock(trigger, secret))).toEqual([missed]);
		expect(await webhooksOf(h, formId)).toEqual([]);
		// Not even for a moment.
		const stats = (await h.control.get('/stats')).body as { requests: Record<string, number> };
		expect(stats.requests['POST /v1/api/webhook/create']).toBeUndefined();
	});

	it('leaves the submissions of a check whose files step throws for the next check', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId, { parameters: { downloadFiles: true } });
		await c.start(trigger);
		c.backdate(trigger, 10 * MINUTE);
		c.endpoint().trigger = undefined;
		const missed = await c.respond(formId, 2 * MINUTE);
		c.endpoint().trigger = trigger;
		jest
			.spyOn(downloadFiles, 'itemsWithFiles')
			.mockRejectedValueOnce(new TypeError('a submission the files step cannot read'));
		await expect(c.knock(trigger)).rejects.toThrow('a submission the files step cannot read');
		c.checksApart();
		expect(ranBy(await c.knock(trigger))).toEqual([missed]);
	});

	it('takes back the mark of a delivery whose files step throws: its resend runs, after a restart too', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId, { parameters: { downloadFiles: true } });
		await c.start(trigger);
		const secret = slots(trigger).production!.secret;
		const body = {
			formId,
			formName: 'x',
			submission: { submissionId: 'files-fail', questions: [] },
		};
		jest
			.spyOn(downloadFiles, 'itemsWithFiles')
			.mockRejectedValueOnce(new TypeError('a submission the files step cannot read'));
		await expect(trigger.receive({ query: { secret }, body })).rejects.toThrow();
		forgetProcessMemory();
		const resend = await trigger.receive({ query: { secret }, body });
		expect(resend.items.map((item) => item.json.submissionId)).toEqual(['files-fail']);
	});

	it('stops knocking once n8n closes the trigger', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		const running = await c.start(trigger);
		await running.tick();
		const knocks = c.endpoint().received.length;
		expect(knocks).toBe(1);
		await running.close();
		await running.tick();
		await c.endpoint().settled();
		expect(c.endpoint().received).toHaveLength(knocks);
	});

	it('warns once when its own address answers as something else (not the trigger), then logs quietly', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		const running = await c.start(trigger);
		// n8n answers for the trigger's address, but not as the trigger: a proxy's page.
		c.endpoint().trigger = undefined;
		const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
		const debug = jest.spyOn(n8nLogger(), 'debug').mockImplementation(() => undefined);
		await running.tick();
		await running.tick();
		const warned = warn.mock.calls.map(([message]) => String(message));
		expect(warned.filter((m) => m.includes('could not check for missed submissions'))).toHaveLength(
			1,
		);
		expect(warned.join(' ')).toContain('HTTP 404');
		expect(warned.join(' ')).not.toContain(slots(trigger).production!.secret);
		expect(debug.mock.calls.map(([m]) => String(m)).join(' ')).toContain('could not check');
	});

	it('warns when its own address answers, but not as the trigger (another service at that address)', async () => {
		const formId = await freshForm(h.control);
		const trigger = await c.published(formId);
		const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
		// The address now leads to another service (a proxy's misroute): it answers 200 JSON.
		(node.production as IDataObject).url =
			`${new URL(h.sandbox.apiRoot).origin}/_sandbox/stats/reset`;
		const running = await c.start(trigger, 'init');
		const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
		await running.tick();
		const warned = warn.mock.calls.map(([message]) => String(message)).join(' ');
		expect(warned).toContain('did not answer as the trigger');
	});
});
