/**
 * The Fillout Trigger with Download Files on submissions no well-behaved Fillout sends,
 * over real HTTP to a stand-in for n8n's webhook endpoint: a `null` in the question list
 * beside a file question (delivered by the sandbox), and a file answer nested 100,000
 * lists deep (a 200 KB body sent by hand with the secret). Fillout is answered 200 before
 * the downloads; the execution must then start, with the file, instead of failing after
 * the delivery was accepted (a resend would be refused as already received).
 */
import { fileOriginFor } from '../../sandbox/files';
import type { TriggerHarness } from '../harness';
import {
	DEEP_LEVELS,
	deepAnswerJson,
	formWithFileQuestion,
	respondWithQuestions,
} from '../nodes/integration/support/hostileAnswers';
import { useHarness, type Json } from '../sandbox/support';
import { directHash, sha256 } from '../support/hash';
import { startEndpoint, type Endpoint } from './support/endpoint';
import { filloutTrigger, forgetProcessMemory, slots, webhooksOf } from './support';

const h = useHarness({ rateLimit: 0, quiet: true });
let endpoint: Endpoint;

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
	h.sandbox.context.files.reset();
});
afterEach(() => expect(h.sandbox.context.files.withAuthorization()).toEqual([]));

async function filesTrigger(formId: string, simplify: boolean): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, endpoint.url, {
		// The sandbox's file host is on a loopback name, refused unless allowed.
		parameters: { simplify, downloadFiles: true, fileOptions: { allowPrivateAddresses: true } },
	});
	endpoint.trigger = trigger;
	await trigger.activate();
	return trigger;
}

describe.each([true, false])('Download Files, Simplify %s', (simplify) => {
	it('a null entry in the question list beside a file question: the workflow starts with the file', async () => {
		const url = `${fileOriginFor(h.sandbox.origin)}/files/wn/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(h.sandbox);
		await filesTrigger(formId, simplify);

		const submissionId = await respondWithQuestions(h.sandbox, formId, [
			null,
			{ ...fileQuestion, value: [{ url, filename: 'cv.pdf' }] },
		]);

		const [webhook] = await webhooksOf(h, formId);
		expect((webhook.deliveries as Json[]).map((d) => d.statusCode)).toEqual([200]);
		await endpoint.settled();
		expect(endpoint.received).toHaveLength(1);
		const [item] = endpoint.received[0].items;
		expect(item.json.submissionId).toBe(submissionId);
		expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
		expect(sha256(Buffer.from(item.binary!.Resume_1.data, 'base64'))).toBe(await directHash(url));
		expect(item.json.files).toEqual([
			{ binaryProperty: 'Resume_1', fileName: 'cv.pdf', kind: 'upload', source: 'Résumé', url },
		]);
	});

	it('an answer nested 100,000 lists deep, sent by hand: the workflow starts with the file at its bottom', async () => {
		const url = `${fileOriginFor(h.sandbox.origin)}/files/wd/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(h.sandbox);
		const trigger = await filesTrigger(formId, simplify);
		const { secret } = slots(trigger).production!;
		const question = JSON.stringify(fileQuestion).slice(0, -1);
		const body = `{"formId":${JSON.stringify(formId)},"submission":{"submissionId":"deep-1","submissionTime":"2026-11-26T10:00:00.000Z","questions":[${question},"value":${deepAnswerJson(url, 'cv.pdf')}}]}}`;
		expect(body.length).toBeGreaterThan(2 * DEEP_LEVELS);

		const res = await fetch(`${trigger.webhookUrl()}?secret=${secret}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});

		expect(res.status).toBe(200);
		await res.arrayBuffer();
		await endpoint.settled();
		expect(endpoint.received).toHaveLength(1);
		const [item] = endpoint.received[0].items;
		expect(item.json.submissionId).toBe('deep-1');
		expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
		expect(sha256(Buffer.from(item.binary!.Resume_1.data, 'base64'))).toBe(await directHash(url));
		expect((item.json.files as Json[])[0]).toMatchObject({ fileName: 'cv.pdf', url });
	});
});
