/**
 * Deliveries through n8n-core's real WebhookContext: the secret (401), the body (400),
 * both delivery shapes, Simplify, unknown question types and test-event deliveries.
 * Bodies are submissions the sandbox really stored.
 */
import type { Submission } from '../../nodes/Fillout/shared/interfaces';
import { closedPortUrl, type TriggerHarness, type WebhookRequestInit } from '../harness';
import { freshForm, useHarness, type Json } from '../sandbox/support';
import { filloutTrigger, slots, forgetProcessMemory } from './support';

let instanceUrl: string;
let formId: string;
let stored: Submission;
/** One active trigger (simplify on) for most tests. */
let trigger: TriggerHarness;
let secret: string;

const FORM_NAME = 'Deliveries form';

async function respond(form: string, answers: Record<string, unknown>): Promise<Submission> {
	const res = await h.control.post(`/forms/${form}/respond`, { answers });
	if (res.status !== 200) throw new Error(`respond failed: ${res.status} ${res.text}`);
	return res.body.submission as Submission;
}

const wrappedBody = (submission: Submission, form = formId, name: unknown = FORM_NAME) => ({
	formId: form,
	formName: name,
	submission,
});

const withSecret = (value: string | undefined, init: WebhookRequestInit): WebhookRequestInit => ({
	...init,
	query: value === undefined ? {} : { secret: value },
});

const h = useHarness({ rateLimit: 0, quiet: true });
beforeAll(async () => {
	instanceUrl = await closedPortUrl();
	formId = await freshForm(h.control, {
		name: FORM_NAME,
		questions: [
			{ name: 'Name', type: 'ShortAnswer' },
			{ name: 'Rating', type: 'StarRating' },
			{ name: 'Mood ring', type: 'MoodRingPicker' },
		],
	});
	stored = await respond(formId, { Name: 'Ana López', Rating: 4, 'Mood ring': { hue: 'teal' } });
	trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	secret = slots(trigger).production!.secret;
});
// These tests deliver one stored submission many times; each must start the workflow,
// so the window that drops repeated submissions (dedupe.test.ts) starts empty each time.
beforeEach(forgetProcessMemory);

function expectRefused(result: Awaited<ReturnType<TriggerHarness['receive']>>, status: number) {
	expect(result.response).toEqual({ noWebhookResponse: true });
	expect(result.items).toEqual([]);
	expect(result.res).toMatchObject({ statusCode: status, ended: true });
	expect(result.res.body).toEqual({ message: expect.any(String) });
}

describe('the secret', () => {
	it('a delivery with the registered secret starts the workflow with one item', async () => {
		const result = await trigger.receive(withSecret(secret, { body: wrappedBody(stored) }));

		// Answered by the node before the run: n8n 2.x saves the static data webhook() changed
		// (the catch-up record's mark) only then: it answers before the run, then saves.
		expect(result.response.noWebhookResponse).toBe(true);
		expect(result.res).toMatchObject({ statusCode: 200, ended: true });
		expect(result.res.body).toEqual({ message: 'Workflow was started' });
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ submissionId: stored.submissionId, formId });
	});

	it.each<[string, unknown]>([
		['no secret', undefined],
		['a wrong secret', 'x'.repeat(43)],
		['the secret with one character changed', 'CHANGE'],
		['an empty secret', ''],
		['the secret twice (an array)', 'ARRAY'],
	])('%s gets 401 and starts nothing', async (_label, presented) => {
		const value =
			presented === 'CHANGE'
				? `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`
				: presented === 'ARRAY'
					? [secret, secret]
					: presented;
		const result = await trigger.receive({
			body: wrappedBody(stored),
			query: value === undefined ? {} : { secret: value as string },
		});
		expectRefused(result, 401);
	});

	it('a secret in a header instead of the query does not count', async () => {
		const result = await trigger.receive({ body: wrappedBody(stored), headers: { secret } });
		expectRefused(result, 401);
	});

	it('another workflow’s trigger on the same form, with nothing registered, refuses the delivery', async () => {
		// The secret is derived per workflow and node: this one's does not open another's door.
		const idle = filloutTrigger(h, formId, instanceUrl, { workflowId: 'another-workflow' });
		expectRefused(await idle.receive(withSecret(secret, { body: wrappedBody(stored) })), 401);
	});

	it('the refusal comes before the body is read: junk without the secret is 401, not 400', async () => {
		const result = await trigger.receive({
			body: 'junk',
			headers: { 'content-type': 'text/plain' },
		});
		expectRefused(result, 401);
	});
});

describe('bodies', () => {
	it('the live wrapped shape becomes the simplified submission plus the form’s id and name', async () => {
		const { items } = await trigger.receive(withSecret(secret, { body: wrappedBody(stored) }));
		expect(items[0].json).toEqual({
			submissionId: stored.submissionId,
			submissionTime: stored.submissionTime,
			...(stored.lastUpdatedAt === undefined ? {} : { lastUpdatedAt: stored.lastUpdatedAt }),
			...(stored.startedAt === undefined ? {} : { startedAt: stored.startedAt }),
			Name: 'Ana López',
			Rating: 4,
			formId,
			formName: FORM_NAME,
		});
	});

	it('the unknown question type is dropped from the simplified view and kept in the raw one', async () => {
		const { items } = await trigger.receive(withSecret(secret, { body: wrappedBody(stored) }));
		expect(items[0].json).not.toHaveProperty('Mood ring');

		const raw = filloutTrigger(h, formId, instanceUrl, {
			parameters: { simplify: false },
			staticData: trigger.staticData,
		});
		forgetProcessMemory();
		const rawResult = await raw.receive(withSecret(secret, { body: wrappedBody(stored) }));
		const questions = rawResult.items[0].json.questions as Json[];
		expect(questions.find((q) => q.name === 'Mood ring')).toMatchObject({
			type: 'MoodRingPicker',
			value: { hue: 'teal' },
		});
	});

	it('Simplify off: the submission exactly as stored, plus the form’s id and name', async () => {
		const raw = filloutTrigger(h, formId, instanceUrl, {
			parameters: { simplify: false },
			staticData: trigger.staticData,
		});
		const { items } = await raw.receive(withSecret(secret, { body: wrappedBody(stored) }));
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({ formId, formName: FORM_NAME, ...stored });
	});

	it('a bare Submission is accepted; the form name comes from activation', async () => {
		const { items } = await trigger.receive(withSecret(secret, { body: stored }));
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			submissionId: stored.submissionId,
			Name: 'Ana López',
			formId,
			formName: FORM_NAME,
		});
	});

	it('a bare Submission when the name is unknown: formName null, formId from the registration', async () => {
		const data = JSON.parse(JSON.stringify(trigger.staticData)) as Json;
		delete data['node:Fillout Trigger'].production.formName;
		const nameless = filloutTrigger(h, formId, instanceUrl, { staticData: data });
		const { items } = await nameless.receive(withSecret(secret, { body: stored }));
		expect(items[0].json).toMatchObject({ formId, formName: null });
	});

	it('the raw bytes are read when n8n did not parse the body', async () => {
		const { items } = await trigger.receive(
			withSecret(secret, {
				body: {},
				rawBody: Buffer.from(JSON.stringify(wrappedBody(stored))),
				headers: { 'content-type': 'application/json' },
			}),
		);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ submissionId: stored.submissionId, Name: 'Ana López' });
	});

	it('unknown fields in the wrapper and the submission never fail the delivery', async () => {
		const body = {
			...wrappedBody({ ...stored, brandNewField: [1, 2], startedAt: stored.submissionTime }),
			deliveryAttempt: 3,
		};
		const { items } = await trigger.receive(withSecret(secret, { body }));
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			submissionId: stored.submissionId,
			startedAt: stored.submissionTime,
		});
		expect(items[0].json).not.toHaveProperty('brandNewField');
	});

	it.each<[string, WebhookRequestInit]>([
		['a text body', { body: 'hello', headers: { 'content-type': 'text/plain' } }],
		[
			'JSON sent as text/plain',
			{ body: JSON.stringify({ submission: {} }), headers: { 'content-type': 'text/plain' } },
		],
		[
			'an unparseable raw body',
			{
				body: {},
				rawBody: Buffer.from('{"submission": {'),
				headers: { 'content-type': 'application/json' },
			},
		],
		[
			'a form-encoded body',
			{
				body: { submissionId: 'x', questions: '[]' },
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			},
		],
		['an empty body', { body: {} }],
		['an object that is no submission', { body: { hello: 'world' } }],
		['a wrapper without a submission', { body: { formId: 'abc', formName: 'x' } }],
		['a list of submissions', { body: [{ submissionId: 's', questions: [] }] }],
	])('%s gets 400 and starts nothing', async (_label, init) => {
		expectRefused(await trigger.receive(withSecret(secret, init)), 400);
	});
});

describe('test-event deliveries', () => {
	it('use the test webhook’s secret; the production secret does not open the test address', async () => {
		const both = filloutTrigger(h, formId, instanceUrl, { staticData: trigger.staticData });
		await both.activate({ mode: 'manual', activation: 'manual' });
		const testSecret = slots(both).test!.secret;

		const ok = await both.receive(withSecret(testSecret, { body: wrappedBody(stored) }), {
			mode: 'manual',
		});
		expect(ok.items).toHaveLength(1);
		expect(ok.items[0].json).toMatchObject({ submissionId: stored.submissionId });

		expectRefused(
			await both.receive(withSecret(secret, { body: wrappedBody(stored) }), { mode: 'manual' }),
			401,
		);
		expectRefused(await both.receive(withSecret(testSecret, { body: wrappedBody(stored) })), 401);

		await both.deactivate({ mode: 'manual', activation: 'manual' });
		expect(slots(both).production).toEqual(slots(trigger).production);
	});
});
