/**
 * Deliveries are not trusted input: respondents name questions and type answers, and
 * anyone who learns a webhook address can POST to it. Over real HTTP (the sandbox's
 * deliveries, or requests sent by hand) to a stand-in for n8n's webhook endpoint, then
 * the execution as a queue-mode worker runs it: no body can set item-level keys (`json`,
 * `binary`, `pairedItem`, the carried record) or plant a record of the trigger's webhook.
 */
import { createHmac } from 'node:crypto';
import type { INodeExecutionData } from 'n8n-workflow';

import { SIGNED_RECORD_KEY } from '../../nodes/Fillout/webhookTrigger/signedRecord';
import { runAsWorker, type TriggerHarness } from '../harness';
import { freshForm, useHarness, type Json } from '../sandbox/support';
import { sha256 } from '../support/hash';
import { http } from '../support/http';
import { startEndpoint, type Endpoint } from './support/endpoint';
import { filloutTrigger, n8nLogger, slots, webhooksOf, forgetProcessMemory } from './support';

let endpoint: Endpoint;

const h = useHarness({ rateLimit: 0, quiet: true });
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

/** Question names that are item-level keys to n8n, or special to JavaScript objects. */
const HOSTILE_NAMES = ['json', 'binary', 'pairedItem', '__proto__', SIGNED_RECORD_KEY];
const HOSTILE_QUESTIONS = HOSTILE_NAMES.map((name) => ({ name, type: 'ShortAnswer' }));
/** Answers by question name; built from entries so that `__proto__` is a key. */
const HOSTILE_ANSWERS = Object.fromEntries(HOSTILE_NAMES.map((name) => [name, `typed ${name}`]));

async function activeTrigger(formId: string, simplify: boolean): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, endpoint.url, { parameters: { simplify } });
	endpoint.trigger = trigger;
	await trigger.activate();
	return trigger;
}

async function respond(formId: string, answers: Json): Promise<Json> {
	const res = await h.control.post(`/forms/${formId}/respond`, { answers });
	expect(res.status).toBe(200);
	return res.body;
}

/** The item's own keys: n8n reads `json`, `binary`, `pairedItem` and ours from here. */
const itemKeys = (item: INodeExecutionData) => Object.keys(item).sort();

describe('a form whose questions are named json, binary, pairedItem, __proto__ and like the carried record', () => {
	it('Simplify on: every answer stays inside json; the item holds json and the trigger’s own record only', async () => {
		const formId = await freshForm(h.control, { questions: HOSTILE_QUESTIONS });
		const trigger = await activeTrigger(formId, true);
		const { webhookId } = slots(trigger).production!;

		const outcome = await respond(formId, HOSTILE_ANSWERS);

		expect(outcome.deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
		const [item] = endpoint.received[0].items;
		expect(itemKeys(item)).toEqual([SIGNED_RECORD_KEY, 'json']);
		expect((item[SIGNED_RECORD_KEY] as Json).webhookId).toBe(webhookId);
		expect(Object.getPrototypeOf(item.json)).toBe(Object.prototype);
		expect(item.json).toMatchObject({
			json: 'typed json',
			binary: 'typed binary',
			pairedItem: 'typed pairedItem',
			// Setting `__proto__` would replace the object's prototype: the answer gets another key.
			'__proto__ (2)': 'typed __proto__',
			[SIGNED_RECORD_KEY]: `typed ${SIGNED_RECORD_KEY}`,
			submissionId: outcome.submission.submissionId,
			formId,
		});

		const run = await runAsWorker(trigger, endpoint.received[0].items);
		expect(run.triggerOutput.map(itemKeys)).toEqual([['json', 'pairedItem']]);
		expect(run.triggerOutput[0].json).toEqual(item.json);
		expect(run.triggerOutput[0].pairedItem).toEqual({ item: 0 });
	});

	it('Simplify off: the submission as sent, inside json', async () => {
		const formId = await freshForm(h.control, { questions: HOSTILE_QUESTIONS });
		await activeTrigger(formId, false);

		const outcome = await respond(formId, HOSTILE_ANSWERS);

		const [item] = endpoint.received[0].items;
		expect(itemKeys(item)).toEqual([SIGNED_RECORD_KEY, 'json']);
		const questions = (item.json.questions as Json[]).map((q) => [q.name, q.value]);
		expect(questions).toEqual(HOSTILE_NAMES.map((name) => [name, `typed ${name}`]));
		expect(item.json.submissionId).toBe(outcome.submission.submissionId);
	});
});

/** A submission whose top-level keys are n8n's item keys, as only a forged body has them. */
function plantedSubmission(submissionId: string, planted: Json) {
	return {
		submissionId,
		submissionTime: '2026-11-26T10:00:00.000Z',
		questions: [],
		json: { planted: true },
		binary: { data: { data: 'AAAA', mimeType: 'text/plain' } },
		pairedItem: { item: 7 },
		[SIGNED_RECORD_KEY]: planted,
		formId: 'another-form',
	};
}

describe('a body sent by hand to the address, with its secret', () => {
	it('Simplify off: keys a submission never has stay inside json, and the form is the trigger’s', async () => {
		const formId = await freshForm(h.control);
		const trigger = await activeTrigger(formId, false);
		const production = slots(trigger).production!;
		const planted = { ...production, webhookId: 999_999, secret: undefined };

		const res = await http('POST', `${trigger.webhookUrl()}?secret=${production.secret}`, {
			json: { formId: 'another-form', submission: plantedSubmission('h1', planted) },
		});

		expect(res.status).toBe(200);
		const [item] = endpoint.received[0].items;
		expect(itemKeys(item)).toEqual([SIGNED_RECORD_KEY, 'json']);
		expect((item[SIGNED_RECORD_KEY] as Json).webhookId).toBe(production.webhookId);
		expect(item.json).toMatchObject({
			json: { planted: true },
			binary: { data: { data: 'AAAA', mimeType: 'text/plain' } },
			pairedItem: { item: 7 },
			formId,
		});
	});

	it('queue mode: a planted record is not saved, and unpublishing removes no other workflow’s webhook', async () => {
		const formId = await freshForm(h.control);
		const trigger = await activeTrigger(formId, false);
		const { secret, url } = slots(trigger).production!;
		// Another workflow's trigger, on another form of the same account.
		const otherForm = await freshForm(h.control);
		const other = filloutTrigger(h, otherForm, endpoint.url);
		await other.activate();
		const victim = slots(other).production!.webhookId;
		// A worker saved its static data over the workflow's; the webhook processor restarted.
		trigger.staticData = { global: { count: 1 } };
		forgetProcessMemory();
		jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);
		// Whoever knows the address knows the secret: a fingerprint of it, and signatures
		// keyed by it, are all that a forger can compute.
		const forged = {
			webhookId: victim,
			formId,
			url,
			apiRoot: h.sandbox.apiRoot,
			createdAt: '2026-11-26T00:00:00.000Z',
			secretFingerprint: sha256(secret, 'base64url'),
		};
		const signature = createHmac('sha256', secret)
			.update(JSON.stringify(forged))
			.digest('base64url');
		endpoint.trigger = trigger;

		const res = await http('POST', `${trigger.webhookUrl()}?secret=${secret}`, {
			json: { formId, submission: plantedSubmission('q1', { ...forged, signature }) },
		});

		expect(res.status).toBe(200);
		const { items } = endpoint.received[0];
		expect(items.map(itemKeys)).toEqual([['json']]);
		const run = await runAsWorker(trigger, items, { counts: true });
		expect(run.saved).toEqual({ global: { count: 1 } });
		// Even set beside json by some other path, the forged record is refused.
		const planted = await runAsWorker(
			trigger,
			[{ json: {}, [SIGNED_RECORD_KEY]: { ...forged, signature } }],
			{ counts: true },
		);
		expect(planted.saved).toEqual({ global: { count: 1 } });

		// The main restarts and the workflow is unpublished: the other workflow keeps its webhook.
		trigger.staticData = run.saved!;
		forgetProcessMemory();
		await trigger.activate({ activation: 'init' });
		await trigger.deactivate();
		expect((await webhooksOf(h, otherForm)).map((webhook) => webhook.id)).toEqual([victim]);
	});
});

describe('a delivery whatever its Content-Type', () => {
	/** POSTs the bytes with exactly this Content-Type header (none when undefined). */
	async function post(url: string, bytes: string, contentType?: string): Promise<number> {
		const res = await fetch(url, {
			method: 'POST',
			body: new TextEncoder().encode(bytes),
			headers: contentType === undefined ? {} : { 'content-type': contentType },
		});
		await res.arrayBuffer();
		return res.status;
	}

	it.each([
		['text/plain', 'text/plain'],
		['text/plain with a charset', 'text/plain; charset=utf-8'],
		['none', undefined],
		['application/octet-stream', 'application/octet-stream'],
		['form-encoded', 'application/x-www-form-urlencoded'],
	])('%s: a JSON body starts the workflow', async (_label, contentType) => {
		const formId = await freshForm(h.control);
		const trigger = await activeTrigger(formId, false);
		const { secret } = slots(trigger).production!;
		const submission = { submissionId: `ct-${_label}`, questions: [] };

		const status = await post(
			`${trigger.webhookUrl()}?secret=${secret}`,
			JSON.stringify({ formId, formName: 'Typed', submission }),
			contentType,
		);

		expect(status).toBe(200);
		expect(endpoint.received.map((r) => r.items[0]?.json.submissionId)).toEqual([
			submission.submissionId,
		]);
	});

	it('a body that is not JSON gets 400 "Expected a JSON body" and starts nothing', async () => {
		const formId = await freshForm(h.control);
		const trigger = await activeTrigger(formId, false);
		const address = `${trigger.webhookUrl()}?secret=${slots(trigger).production!.secret}`;

		const res = await http('POST', address, { raw: 'submissionId=x&questions=' });

		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^Expected a JSON body/);
		expect(endpoint.received.map((r) => r.items.length)).toEqual([0]);
	});
});
