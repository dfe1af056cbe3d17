/**
 * Catch-up over real HTTP: the sandbox delivers (or not) to a stand-in for n8n's webhook
 * endpoint, and the trigger's `trigger()` knocks at its own address through it, as the
 * main process does in n8n. What n8n does between (a restart, a deactivation) the tests do.
 */
import type { IDataObject } from 'n8n-workflow';

import { CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { startTrigger } from '../harness/triggers';
import { freshForm } from '../sandbox/support';
import { MINUTE, useCatchUp } from './support/catchUp';
import { filloutTrigger, forgetProcessMemory, slots, webhooksOf } from './support';

const {
	h,
	endpoint: endpointOf,
	published,
	start,
	backdate,
	respond,
	ran,
	listRequests,
	checksApart,
	knock: knockAt,
} = useCatchUp();

describe('catching up on missed submissions', () => {
	it('runs what was submitted while n8n was stopped, once each and oldest first, at the first check after it starts', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const first = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		const webhookBefore = slots(trigger).production!.webhookId;
		// n8n stops: its address answers 404 and the deliveries are lost.
		await first.close();
		endpointOf().trigger = undefined;
		const missed = [await respond(formId, 5 * MINUTE), await respond(formId, 4 * MINUTE)];
		missed.push(await respond(formId, 3 * MINUTE));
		expect(await ran()).toEqual([]);
		// As some services do, Fillout disabled the webhook at the first 404.
		const [disabled] = await webhooksOf(h, formId);
		expect(disabled).toEqual(
			expect.objectContaining({ id: webhookBefore, disabledAt: expect.any(String) }),
		);

		// n8n starts again: process memory empty, static data as saved.
		forgetProcessMemory();
		endpointOf().trigger = trigger;
		const again = await start(trigger, 'init');
		await again.tick();
		expect(await ran()).toEqual(missed);
		// One execution for the three.
		expect(endpointOf().received.filter((r) => r.items.length > 0)).toHaveLength(1);
		// Fillout missed them, so the webhook was registered again: one live webhook.
		const webhooks = await webhooksOf(h, formId);
		expect(webhooks).toHaveLength(1);
		expect(webhooks[0].id).not.toBe(webhookBefore);

		// The next submission comes by the webhook at once, and the next check runs nothing.
		endpointOf().received.length = 0;
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
		endpointOf().trigger = undefined;
		const late = await respond(formId, 2 * MINUTE);
		endpointOf().trigger = trigger;
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
		await start(trigger);
		expect((await knockAt(trigger, 'wrong')).res.statusCode).toBe(401);
		await h.control.post('/stats/reset');
		const answers = [await knockAt(trigger), await knockAt(trigger)];
		expect(answers.map((a) => (a.res.body as IDataObject).checked)).toEqual([true, false]);
		expect(await listRequests()).toBe(1);
	});

	it('keeps catch-up off for a version 1 node, which knocks never and marks nothing', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, endpointOf().url, { typeVersion: 1 });
		endpointOf().trigger = trigger;
		await trigger.activate();
		const running = await startTrigger(trigger, 'activate');
		expect(running.response).toBeUndefined();
		expect(running.crons).toEqual([]);
		await respond(formId, 0);
		expect(await ran()).toHaveLength(1);
		expect(slots(trigger)).not.toHaveProperty(CATCH_UP_KEY);
	});
});
