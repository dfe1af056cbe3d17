/**
 * End to end over real HTTP: the sandbox simulates a respondent and POSTs the submission
 * to the address the trigger registered, where a stand-in for n8n's webhook endpoint
 * (./support/endpoint.ts) hands it to the trigger's webhook() through the harness.
 */

import { fileOriginFor } from '../../sandbox/files';
import type { TriggerHarness } from '../harness';
import { apiClient, freshForm, useHarness, type Json } from '../sandbox/support';
import { startEndpoint, type Endpoint } from './support/endpoint';
import { filloutTrigger, secretIn, slots, webhooksOf, forgetProcessMemory } from './support';
import { directHash, sha256 } from '../support/hash';

/** The tests' own API calls use a second key of the account, with its own rate window. */
const READER_KEY = 'sk_prod_trigger_test_reader';
// The service's own rate limit (5 requests per second per key) is on: the transport paces.
const h = useHarness({ rateLimit: 5, quiet: true, apiKeys: [READER_KEY] });
let reader: ReturnType<typeof apiClient>;
let endpoint: Endpoint;

beforeAll(async () => {
	reader = apiClient(h.sandbox.apiRoot, READER_KEY);
	endpoint = await startEndpoint();
});
afterAll(async () => {
	await endpoint.close();
});
beforeEach(() => {
	endpoint.received.length = 0;
	endpoint.trigger = undefined;
});

const FORM_NAME = 'Real delivery form';
const QUESTIONS = [
	{ name: 'Name', type: 'ShortAnswer' },
	{ name: 'Email', type: 'EmailInput' },
	{ name: 'Rating', type: 'StarRating' },
	{ name: 'Aura', type: 'AuraReader' },
];

async function activeTrigger(formId: string, simplify?: boolean): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, endpoint.url, {
		parameters: simplify === undefined ? {} : { simplify },
	});
	endpoint.trigger = trigger;
	await trigger.activate();
	return trigger;
}

/** A respondent submits; resolves with the sandbox's answer (submission and deliveries). */
async function respond(formId: string, answers: Record<string, unknown> = {}): Promise<Json> {
	const res = await h.control.post(`/forms/${formId}/respond`, { answers });
	expect(res.status).toBe(200);
	return res.body;
}

async function storedSubmission(formId: string, submissionId: string): Promise<Json> {
	const res = await reader.get(`/forms/${formId}/submissions/${submissionId}`);
	expect(res.status).toBe(200);
	return res.body.submission;
}

it('a respondent’s submission arrives by real HTTP POST and becomes exactly the stored submission', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = await activeTrigger(formId, false);
	const { webhookId } = slots(trigger).production!;

	const outcome = await respond(formId, {
		Name: 'Ana López',
		Rating: 5,
		Aura: { colour: 'violet' },
	});

	expect(outcome.deliveries).toEqual([
		expect.objectContaining({ webhookId, shape: 'wrapped', statusCode: 200 }),
	]);
	expect(endpoint.received).toHaveLength(1);
	const [delivery] = endpoint.received;
	expect(delivery.path).toBe(new URL(trigger.webhookUrl()!).pathname);
	expect(delivery.items).toHaveLength(1);
	const stored = await storedSubmission(formId, outcome.submission.submissionId);
	expect(delivery.items[0].json).toEqual({ formId, formName: FORM_NAME, ...stored });
});

it('simplified by default: answers by question name, the unknown question type left out', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	await activeTrigger(formId);

	const outcome = await respond(formId, {
		Name: 'Bo',
		Email: 'bo@example.com',
		Rating: 3,
		Aura: { colour: 'green' },
	});

	const stored = await storedSubmission(formId, outcome.submission.submissionId);
	const [item] = endpoint.received[0].items;
	expect(item.json).toMatchObject({
		submissionId: stored.submissionId,
		submissionTime: stored.submissionTime,
		Name: 'Bo',
		Email: 'bo@example.com',
		Rating: 3,
		formId,
		formName: FORM_NAME,
	});
	expect(item.json).not.toHaveProperty('Aura');
	expect(item.json).not.toHaveProperty('questions');
});

it('a bare delivery (the documented shape) is read too, with the form name from activation', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = await activeTrigger(formId, false);
	const { webhookId } = slots(trigger).production!;
	expect((await h.control.patch(`/webhooks/${webhookId}`, { shape: 'bare' })).status).toBe(200);

	const outcome = await respond(formId, { Name: 'Cy' });

	expect(outcome.deliveries).toEqual([expect.objectContaining({ shape: 'bare', statusCode: 200 })]);
	const stored = await storedSubmission(formId, outcome.submission.submissionId);
	expect(endpoint.received[0].items.map((item) => item.json)).toEqual([
		{ formId, formName: FORM_NAME, ...stored },
	]);
});

it('deliveries to the address without the secret, or with a stale one, get 401 and start nothing', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = await activeTrigger(formId);
	const address = trigger.webhookUrl()!;
	const live = slots(trigger).production!;
	// A stale secret: a random one, as an earlier version registered, whose record is gone.
	const staleUrl = new URL(address);
	staleUrl.searchParams.set('secret', 'S'.repeat(43));
	expect(secretIn(staleUrl.toString())).not.toBe(live.secret);
	// Someone subscribes n8n's address without the secret, and with the stale one.
	const bare = (await reader.post('/webhook/create', { formId, url: address })).body.id;
	const stale = (await reader.post('/webhook/create', { formId, url: staleUrl.toString() })).body
		.id;

	const outcome = await respond(formId, { Name: 'Di' });

	const statusOf = (id: number | string) =>
		(outcome.deliveries as Json[]).find((d) => d.webhookId === id)?.statusCode;
	expect(statusOf(live.webhookId)).toBe(200);
	expect(statusOf(bare)).toBe(401);
	expect(statusOf(stale)).toBe(401);
	// The sandbox's delivery records say the same.
	const records = await webhooksOf(h, formId);
	const recordOf = (id: number | string) => records.find((w) => w.id === id).deliveries;
	expect(recordOf(bare)).toEqual([
		expect.objectContaining({ submissionId: outcome.submission.submissionId, statusCode: 401 }),
	]);
	expect(recordOf(stale)).toEqual([expect.objectContaining({ statusCode: 401 })]);
	expect(recordOf(live.webhookId)).toEqual([expect.objectContaining({ statusCode: 200 })]);
	// Only the delivery with the live secret produced an item.
	expect(endpoint.received.map((r) => [r.status, r.items.length]).sort()).toEqual([
		[200, 1],
		[401, 0],
		[401, 0],
	]);
});

it('after an n8n restart the same webhook, with the same secret, delivers to the restarted trigger', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const before = await activeTrigger(formId);
	const { webhookId } = slots(before).production!;

	const restarted = filloutTrigger(h, formId, endpoint.url, { staticData: before.staticData });
	endpoint.trigger = restarted;
	await restarted.activate({ activation: 'init' });
	const outcome = await respond(formId, { Name: 'Rey' });

	expect(outcome.deliveries).toEqual([expect.objectContaining({ webhookId, statusCode: 200 })]);
	expect(endpoint.received.map((r) => [r.status, r.items.length])).toEqual([[200, 1]]);
	expect(endpoint.received[0].items[0].json).toMatchObject({ Name: 'Rey', formId });
});

it('"Listen for test event": the test address receives the next submission, then is removed', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = filloutTrigger(h, formId, endpoint.url);
	endpoint.trigger = trigger;
	await trigger.activate({ mode: 'manual', activation: 'manual' });
	const [webhook] = await webhooksOf(h, formId);
	expect(webhook.url).toContain('/webhook-test/');

	const outcome = await respond(formId, { Name: 'Ed' });

	expect(outcome.deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
	expect(endpoint.received[0].path).toContain('/webhook-test/');
	expect(endpoint.received[0].items[0].json).toMatchObject({ Name: 'Ed', formId });
	// n8n removes the test webhook after the first event (mode 'internal').
	await trigger.callWebhookMethod('delete', {
		mode: 'trigger',
		activation: 'update',
		isTest: true,
	});
	expect(await webhooksOf(h, formId)).toEqual([]);
	expect((await respond(formId)).deliveries).toEqual([]);
});

it('after deactivation the service holds nothing for the form and nothing is delivered', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = await activeTrigger(formId);
	await respond(formId, { Name: 'Fay' });
	expect(endpoint.received).toHaveLength(1);

	await trigger.deactivate();

	expect(await webhooksOf(h, formId)).toEqual([]);
	expect((await respond(formId, { Name: 'Gus' })).deliveries).toEqual([]);
	expect(endpoint.received).toHaveLength(1);
});

it('with static data overwritten after every execution (a queue-mode worker) and a second registration for the address: every submission starts the workflow exactly once', async () => {
	const formId = await freshForm(h.control, { name: FORM_NAME, questions: QUESTIONS });
	const trigger = await activeTrigger(formId);
	const [registered] = await webhooksOf(h, formId);
	// The same address registered again (as a restart that could not see the record would).
	const second = (await reader.post('/webhook/create', { formId, url: registered.url })).body.id;
	// The webhook processor never saw the record; each execution's worker then saves its own.
	forgetProcessMemory();

	const names = ['Ivy', 'Jo', 'Kai'];
	const submitted: string[] = [];
	for (const [count, name] of names.entries()) {
		trigger.staticData = { global: { count } };
		const outcome = await respond(formId, { Name: name });
		submitted.push(outcome.submission.submissionId as string);
		expect((outcome.deliveries as Json[]).map((d) => [d.webhookId, d.statusCode]).sort()).toEqual(
			[
				[registered.id, 200],
				[second, 200],
			].sort(),
		);
	}

	const started = endpoint.received.flatMap((r) => r.items.map((item) => item.json));
	expect(started.map((json) => json.submissionId)).toEqual(submitted);
	expect(started.map((json) => json.Name)).toEqual(names);
	expect(endpoint.received.map((r) => r.status)).toEqual(Array(6).fill(200));
});

describe('Download Files', () => {
	const FILE_QUESTIONS = [
		{ name: 'Name', type: 'ShortAnswer' },
		{ name: 'Résumé', type: 'FileUpload' },
		{ name: 'Signature', type: 'Signature' },
	];

	async function filesTrigger(formId: string): Promise<TriggerHarness> {
		const trigger = filloutTrigger(h, formId, endpoint.url, {
			// The sandbox's file host is on 127.0.0.1 / localhost, refused unless allowed.
			parameters: { downloadFiles: true, fileOptions: { allowPrivateAddresses: true } },
		});
		endpoint.trigger = trigger;
		await trigger.activate();
		return trigger;
	}

	/** A respondent with only these answers and no generated documents; the sandbox's answer. */
	async function respondWithFiles(formId: string, answers: Json): Promise<Json> {
		const res = await h.control.post(`/forms/${formId}/respond`, {
			answers,
			fillUnanswered: false,
			submission: { documents: [] },
		});
		expect(res.status).toBe(200);
		return res.body;
	}

	beforeEach(() => h.sandbox.context.files.reset());
	afterEach(() => expect(h.sandbox.context.files.withAuthorization()).toEqual([]));

	it('a delivery’s uploads, signature and documents arrive as binary data, byte for byte', async () => {
		const files = fileOriginFor(h.sandbox.origin);
		const urls = {
			cv: `${files}/files/t1/cv.pdf?size=3000000`,
			signature: `${files}/files/t2/signature.png`,
			summary: `${files}/files/t3/summary.pdf`,
		};
		const formId = await freshForm(h.control, { name: FORM_NAME, questions: FILE_QUESTIONS });
		await filesTrigger(formId);
		const res = await h.control.post(`/forms/${formId}/respond`, {
			answers: {
				Name: 'Ana',
				Résumé: [{ url: urls.cv, filename: 'cv.pdf' }],
				Signature: urls.signature,
			},
			fillUnanswered: false,
			submission: { documents: [{ id: 'd1', name: 'Summary', url: urls.summary }] },
		});
		expect(res.body.deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
		await endpoint.settled();
		const [item] = endpoint.received[0].items;
		expect(item.json).toMatchObject({ Name: 'Ana', formId, formName: FORM_NAME });
		const binary = item.binary ?? {};
		expect(Object.keys(binary)).toEqual(['Resume_1', 'Signature_1', 'document_1']);
		const expected: Record<string, [string, string, string]> = {
			Resume_1: [urls.cv, 'cv.pdf', 'application/pdf'],
			Signature_1: [urls.signature, 'signature.png', 'image/png'],
			document_1: [urls.summary, 'summary.pdf', 'application/pdf'],
		};
		for (const [property, [url, fileName, mimeType]] of Object.entries(expected)) {
			expect([binary[property].fileName, binary[property].mimeType]).toEqual([fileName, mimeType]);
			expect(sha256(Buffer.from(binary[property].data, 'base64'))).toBe(await directHash(url));
		}
		expect((item.json.files as Json[]).map((f) => f.binaryProperty)).toEqual(Object.keys(expected));
	});

	it('a file that cannot be fetched leaves the submission in, its entry saying why', async () => {
		const files = fileOriginFor(h.sandbox.origin);
		const formId = await freshForm(h.control, { name: FORM_NAME, questions: FILE_QUESTIONS });
		await filesTrigger(formId);
		const outcome = await respondWithFiles(formId, {
			Résumé: [{ url: `${files}/files/missing/cv.pdf`, filename: 'cv.pdf' }],
			Signature: `${files}/files/ok/signature.png`,
		});
		const submissionId = outcome.submission.submissionId as string;
		await endpoint.settled();
		expect(endpoint.received[0].status).toBe(200);
		const [item] = endpoint.received[0].items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Signature_1']);
		expect((item.json.files as Json[])[0]).toMatchObject({
			binaryProperty: 'Resume_1',
			error: `Could not download "cv.pdf" (question "Résumé", submission ${submissionId}): the file host answered 404`,
		});
		expect((item.json.files as Json[])[1]).not.toHaveProperty('error');
	});
	it('Fillout is answered before the downloads: a file slower than Fillout waits fails neither the delivery nor the submission', async () => {
		const files = fileOriginFor(h.sandbox.origin);
		const slow = `${files}/files/slow/cv.pdf?size=200000&delayMs=2500`;
		const formId = await freshForm(h.control, { name: FORM_NAME, questions: FILE_QUESTIONS });
		const trigger = await filesTrigger(formId);
		// Fillout gives up on a delivery after 1 s here; the file takes 2.5 s to start.
		const { webhookId } = slots(trigger).production!;
		await h.control.patch(`/webhooks/${webhookId}`, { timeoutMs: 1000 });

		const outcome = await respondWithFiles(formId, { Résumé: [{ url: slow, filename: 'cv.pdf' }] });

		const [delivery] = outcome.deliveries as Json[];
		expect(delivery).toMatchObject({ webhookId, statusCode: 200 });
		expect(delivery.durationMs).toBeLessThan(1000);
		await endpoint.settled();
		const [received] = endpoint.received;
		// The workflow starts once the file is in, well after Fillout had its answer.
		expect(received.returnedAt - received.answeredAt).toBeGreaterThan(1500);
		expect(Object.keys(received.items[0].binary ?? {})).toEqual(['Resume_1']);
		expect(sha256(Buffer.from(received.items[0].binary!.Resume_1.data, 'base64'))).toBe(
			await directHash(slow),
		);
	});

	it('a file host that closes the connection half-way: the submission still starts the workflow, its entry says how far it got', async () => {
		const files = fileOriginFor(h.sandbox.origin);
		const formId = await freshForm(h.control, { name: FORM_NAME, questions: FILE_QUESTIONS });
		await filesTrigger(formId);
		const outcome = await respondWithFiles(formId, {
			Résumé: [{ url: `${files}/files/cut/cv.pdf?size=900000&breakAfter=300000` }],
			Signature: `${files}/files/whole/signature.png`,
		});
		const submissionId = outcome.submission.submissionId as string;
		expect(outcome.deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
		await endpoint.settled();
		const [item] = endpoint.received[0].items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Signature_1']);
		expect((item.json.files as Json[])[0].error).toMatch(
			new RegExp(
				`^Could not download "cv\\.pdf" \\(question "Résumé", submission ${submissionId}\\): the download broke off after \\d+ of 900000 bytes \\(ECONNRESET\\)$`,
			),
		);
	});
});
