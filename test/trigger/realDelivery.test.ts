/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: a node:http server stands in for n8n's webhook endpoint */
/**
 * End to end over real HTTP: the sandbox simulates a respondent and POSTs the submission
 * to the address the trigger registered. A tiny node:http server plays n8n's webhook
 * endpoint: it hands each request (method, headers, query, parsed JSON body, raw bytes)
 * to the trigger's webhook() through the harness and answers with what the node wrote
 * to its response object (or n8n's 200 when the workflow started).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeExecutionData } from 'n8n-workflow';

import { forgetProcessMemory } from '../../nodes/Fillout/trigger/memory';
import { fileOriginFor } from '../../sandbox/files';
import type { TriggerHarness } from '../harness';
import { apiClient, freshForm, startHarness, type Harness, type Json } from '../sandbox/helpers';
import { filloutTrigger, secretIn, slots, webhooksOf } from './helpers';

interface Received {
	path: string;
	query: Record<string, string>;
	status: number;
	items: INodeExecutionData[];
}

interface Endpoint {
	url: string;
	received: Received[];
	/** The trigger whose webhook() answers; set by each test. */
	trigger?: TriggerHarness;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

async function startEndpoint(): Promise<Endpoint> {
	const endpoint: Endpoint = { url: '', received: [], close: async () => {} };
	const server: Server = createServer((req, res) => {
		const answer = (status: number, body: unknown) =>
			res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		void (async () => {
			const raw = await readBody(req);
			const url = new URL(req.url ?? '/', endpoint.url);
			const trigger = endpoint.trigger;
			const isTest = url.pathname.startsWith('/webhook-test/');
			const registered = trigger?.webhookUrl({ mode: isTest ? 'manual' : 'trigger' });
			if (
				trigger === undefined ||
				registered === undefined ||
				new URL(registered).pathname !== url.pathname
			) {
				answer(404, { message: 'The requested webhook is not registered.' });
				return;
			}
			// As n8n does: JSON bodies arrive parsed, the raw bytes stay on the request.
			let body: unknown = {};
			if (raw.length > 0 && /^application\/json/.test(req.headers['content-type'] ?? '')) {
				try {
					body = JSON.parse(raw.toString('utf8'));
				} catch {
					answer(422, { message: 'Failed to parse request body' });
					return;
				}
			}
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(req.headers)) {
				if (typeof value === 'string') headers[name] = value;
			}
			const query = Object.fromEntries(url.searchParams);
			const result = await trigger.receive(
				{ method: 'POST', headers, query, body, rawBody: raw },
				{ mode: isTest ? 'manual' : 'trigger' },
			);
			const status = result.res.ended ? result.res.statusCode : 200;
			endpoint.received.push({ path: url.pathname, query, status, items: result.items });
			if (result.res.ended) answer(status, result.res.body ?? {});
			else answer(200, { message: 'Workflow was started' });
		})().catch((error: unknown) => answer(500, { message: String(error) }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	endpoint.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return endpoint;
}

/** The tests' own API calls use a second key of the account, with its own rate window. */
const READER_KEY = 'sk_prod_trigger_test_reader';
let h: Harness;
let reader: ReturnType<typeof apiClient>;
let endpoint: Endpoint;

beforeAll(async () => {
	// The service's own rate limit (5 requests per second per key) is on: the transport paces.
	h = await startHarness({ rateLimit: 5, quiet: true, apiKeys: [READER_KEY] });
	reader = apiClient(h.sandbox.apiRoot, READER_KEY);
	endpoint = await startEndpoint();
});
afterAll(async () => {
	await endpoint.close();
	await h.sandbox.close();
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
	const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
	const directHash = async (url: string) =>
		sha256(Buffer.from(await (await fetch(url)).arrayBuffer()));

	async function filesTrigger(formId: string): Promise<TriggerHarness> {
		const trigger = filloutTrigger(h, formId, endpoint.url, {
			parameters: { downloadFiles: true },
		});
		endpoint.trigger = trigger;
		await trigger.activate();
		return trigger;
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
		const outcome = await h.control.post(`/forms/${formId}/respond`, {
			answers: {
				Résumé: [{ url: `${files}/files/missing/cv.pdf`, filename: 'cv.pdf' }],
				Signature: `${files}/files/ok/signature.png`,
			},
			fillUnanswered: false,
			submission: { documents: [] },
		});
		const submissionId = outcome.body.submission.submissionId as string;
		expect(endpoint.received[0].status).toBe(200);
		const [item] = endpoint.received[0].items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Signature_1']);
		expect((item.json.files as Json[])[0]).toMatchObject({
			binaryProperty: 'Resume_1',
			error: `Could not download "cv.pdf" (question "Résumé", submission ${submissionId}): the file host answered 404`,
		});
		expect((item.json.files as Json[])[1]).not.toHaveProperty('error');
	});
});
