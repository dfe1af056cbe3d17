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
import { forgetProcessMemory, NODE_NAME, slots, webhooksOf } from './support';

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

		c.endpoint().trigger = undefined;
		const newer = await c.respond(formId, MINUTE);
		c.endpoint().trigger = trigger;
		c.checksApart();
		expect(ranBy(await c.knock(trigger))).toEqual([newer]);
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
		expect(ranBy(await c.knock(trigger, secret))).toEqual([missed]);
		expect(await webhooksOf(h, formId)).toEqual([]);
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
});
