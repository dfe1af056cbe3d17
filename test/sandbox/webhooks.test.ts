/** Endpoint 7 and POST /webhook/delete, and real HTTP deliveries to local receivers. */
import {
	apiClient,
	freshForm,
	startHarness,
	startReceiver,
	useHarness,
	type Json,
	type Receiver,
} from './support';

const receivers: Receiver[] = [];
const h = useHarness();
afterAll(async () => {
	await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(reply: { status?: number; delayMs?: number } = {}): Promise<Receiver> {
	const r = await startReceiver(reply);
	receivers.push(r);
	return r;
}

async function subscribe(formId: string, url: string): Promise<number> {
	const res = await h.api.post('/webhook/create', { formId, url });
	expect(res.status).toBe(200);
	return res.body.id;
}

const respond = (formId: string, body: Json = {}) =>
	h.control.post(`/forms/${formId}/respond`, body);

describe('POST /webhook/create', () => {
	it('answers {id: integer}', async () => {
		const formId = await freshForm(h.control);
		const res = await h.api.post('/webhook/create', { formId, url: 'https://example.com/hook' });
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['id']);
		expect(Number.isInteger(res.body.id)).toBe(true);
		const listed = (await h.control.get('/webhooks')).body.find((w: Json) => w.id === res.body.id);
		expect(listed).toEqual({
			id: res.body.id,
			formId,
			url: 'https://example.com/hook',
			account: 'acct_demo',
			createdAt: expect.any(String),
			shape: 'wrapped',
			deliveries: [],
		});
	});

	it.each<[{ formId?: string; url?: string }, number, RegExp]>([
		[{ url: 'https://example.com/hook' }, 400, /^formId is required/],
		[{ formId: 'FORM', url: 'ftp://example.com/hook' }, 400, /^url must be an absolute http/],
		[{ formId: 'FORM', url: 'not a url' }, 400, /^url must be an absolute http/],
		[{ formId: 'FORM' }, 400, /^url must be an absolute http/],
		[{ formId: 'unknownForm', url: 'https://example.com/hook' }, 404, /unknownForm/],
	])('validates %j', async (body, status, message) => {
		const formId = h.sandbox.demo.formIds[0];
		const res = await h.api.post('/webhook/create', {
			...body,
			formId: body.formId === 'FORM' ? formId : body.formId,
		});
		expect(res.status).toBe(status);
		expect(res.body).toEqual({
			statusCode: status,
			error: expect.any(String),
			message: expect.stringMatching(message),
		});
	});

	it('refuses another account’s form', async () => {
		const euForm = (
			await apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey).get('/forms')
		).body[0].formId;
		expect(
			(await h.api.post('/webhook/create', { formId: euForm, url: 'https://example.com/hook' }))
				.status,
		).toBe(404);
	});
});

describe('POST /webhook/delete', () => {
	it('deletes by integer or numeric string, once', async () => {
		const formId = await freshForm(h.control);
		const a = await subscribe(formId, 'https://example.com/a');
		const b = await subscribe(formId, 'https://example.com/b');
		expect(await h.api.post('/webhook/delete', { webhookId: a })).toMatchObject({
			status: 200,
			body: {},
		});
		expect(await h.api.post('/webhook/delete', { webhookId: String(b) })).toMatchObject({
			status: 200,
			body: {},
		});
		const again = await h.api.post('/webhook/delete', { webhookId: a });
		expect(again.status).toBe(404);
		expect(again.body).toEqual({
			statusCode: 404,
			error: 'Not Found',
			message: `Webhook ${a} not found`,
		});
		const ids = (await h.control.get('/webhooks')).body.map((w: Json) => w.id);
		expect(ids).not.toContain(a);
		expect(ids).not.toContain(b);
	});

	it.each([[{}], [{ webhookId: 'abc' }], [{ webhookId: 1.5 }]])(
		'refuses %j with 400',
		async (body) => {
			const res = await h.api.post('/webhook/delete', body);
			expect(res.status).toBe(400);
			expect(res.body.message).toMatch(/^webhookId must be an integer/);
		},
	);

	it('cannot delete another account’s webhook', async () => {
		const eu = apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey);
		const euForm = (await eu.get('/forms')).body[0].formId;
		const id = (await eu.post('/webhook/create', { formId: euForm, url: 'https://example.com/eu' }))
			.body.id;
		expect((await h.api.post('/webhook/delete', { webhookId: id })).status).toBe(404);
		expect((await eu.post('/webhook/delete', { webhookId: id })).status).toBe(200);
	});

	it('answers 400 instead of 404 for an unknown or another account’s id when started with unknownWebhookStatus 400', async () => {
		const strict = await startHarness({ unknownWebhookStatus: 400 });
		try {
			const id = (
				await strict.api.post('/webhook/create', {
					formId: await freshForm(strict.control),
					url: 'https://example.com/s',
				})
			).body.id;
			expect((await strict.api.post('/webhook/delete', { webhookId: id })).status).toBe(200);
			const again = await strict.api.post('/webhook/delete', { webhookId: id });
			expect(again.status).toBe(400);
			expect(again.body).toEqual({
				statusCode: 400,
				error: 'Bad Request',
				message: `Webhook ${id} not found`,
			});
			const eu = apiClient(strict.sandbox.demo.euApiRoot, strict.sandbox.demo.euApiKey);
			const euForm = (await eu.get('/forms')).body[0].formId;
			const euId = (
				await eu.post('/webhook/create', { formId: euForm, url: 'https://example.com/eu' })
			).body.id;
			expect((await strict.api.post('/webhook/delete', { webhookId: euId })).status).toBe(400);
			expect((await eu.post('/webhook/delete', { webhookId: euId })).status).toBe(200);
		} finally {
			await strict.sandbox.close();
		}
	});
});

describe('deliveries', () => {
	it('POSTs the live wrapped shape {formId, formName, submission} as JSON to every webhook of the form', async () => {
		const formId = await freshForm(h.control, { name: 'Déjà vu 🎉' });
		const [one, two] = [await receiver(), await receiver()];
		const ids = [await subscribe(formId, one.url), await subscribe(formId, two.url)];
		const res = await respond(formId, { answers: { Name: 'Ana López' } });
		expect(res.status).toBe(200);
		expect(res.body.deliveries).toEqual(
			ids.map((webhookId, i) => ({
				webhookId,
				url: [one, two][i].url,
				shape: 'wrapped',
				statusCode: 200,
				durationMs: expect.any(Number),
			})),
		);
		for (const r of [one, two]) {
			expect(r.received).toHaveLength(1);
			expect(r.received[0].headers['content-type']).toBe('application/json');
			expect(r.received[0].body).toEqual({
				formId,
				formName: 'Déjà vu 🎉',
				submission: res.body.submission,
			});
		}
		const stored = await h.api.get(
			`/forms/${formId}/submissions/${res.body.submission.submissionId}`,
		);
		expect(stored.body.submission).toEqual(one.received[0].body.submission);
		expect(stored.body.submission.questions.find((q: Json) => q.name === 'Name').value).toBe(
			'Ana López',
		);
		const record = (await h.control.get('/webhooks')).body.find(
			(w: Json) => w.id === ids[0],
		).deliveries;
		expect(record).toEqual([
			{
				submissionId: res.body.submission.submissionId,
				shape: 'wrapped',
				at: expect.any(String),
				statusCode: 200,
				durationMs: expect.any(Number),
			},
		]);
	});

	it('delivers the bare Submission when the webhook is switched to it', async () => {
		const formId = await freshForm(h.control);
		const r = await receiver();
		const id = await subscribe(formId, r.url);
		const patched = await h.control.patch(`/webhooks/${id}`, { shape: 'bare' });
		expect(patched.body.shape).toBe('bare');
		const res = await respond(formId);
		expect(r.received[0].body).toEqual(res.body.submission);
		expect(r.received[0].body.submissionId).toEqual(expect.any(String));
		expect((await h.control.patch(`/webhooks/${id}`, { shape: 'flat' })).status).toBe(400);
	});

	it('records a time-out when the receiver is too slow', async () => {
		const formId = await freshForm(h.control);
		const slow = await receiver({ delayMs: 3000 });
		const id = await subscribe(formId, slow.url);
		await h.control.patch(`/webhooks/${id}`, { timeoutMs: 150 });
		const res = await respond(formId);
		const [delivery] = res.body.deliveries;
		expect(delivery.statusCode).toBeUndefined();
		expect(delivery.error).toBe('timed out after 150 ms');
		expect(delivery.durationMs).toBeGreaterThanOrEqual(140);
		expect(delivery.durationMs).toBeLessThan(2000);
	});

	it('records a failing receiver’s status and an unreachable one’s error', async () => {
		const formId = await freshForm(h.control);
		const failing = await receiver({ status: 503 });
		const gone = await startReceiver();
		await gone.close();
		await subscribe(formId, failing.url);
		await subscribe(formId, gone.url);
		const res = await respond(formId);
		expect(res.body.deliveries[0]).toMatchObject({ statusCode: 503 });
		expect(res.body.deliveries[1].statusCode).toBeUndefined();
		expect(res.body.deliveries[1].error).toMatch(/ECONNREFUSED/);
		expect(failing.received).toHaveLength(1);
	});

	it('delivers nothing for submissions created through the API, in progress, or in preview', async () => {
		const formId = await freshForm(h.control);
		const r = await receiver();
		await subscribe(formId, r.url);
		const questionId = (await h.api.get(`/forms/${formId}`)).body.questions[0].id;
		expect(
			(
				await h.api.post(`/forms/${formId}/submissions`, {
					submissions: [{ questions: [{ id: questionId, value: 'x' }] }],
				})
			).status,
		).toBe(200);
		expect((await respond(formId, { status: 'in_progress' })).body.deliveries).toEqual([]);
		expect((await respond(formId, { preview: true })).body.deliveries).toEqual([]);
		await h.control.post(`/forms/${formId}/generate`, { count: 5 });
		expect(r.received).toHaveLength(0);
		expect((await respond(formId)).body.deliveries).toHaveLength(1);
		expect(r.received).toHaveLength(1);
	});

	it('disables a webhook whose delivery is answered 404 only when started with disableWebhookOn404', async () => {
		const formId = await freshForm(h.control);
		const notFound = await receiver({ status: 404 });
		await subscribe(formId, notFound.url);
		await respond(formId);
		expect((await respond(formId)).body.deliveries).toEqual([
			expect.objectContaining({ statusCode: 404 }),
		]);
		expect(notFound.received).toHaveLength(2);

		const strict = await startHarness({ disableWebhookOn404: true });
		try {
			const strictForm = await freshForm(strict.control);
			const failing = await receiver({ status: 503 });
			const missing = await receiver({ status: 404 });
			const add = async (url: string) =>
				(await strict.api.post('/webhook/create', { formId: strictForm, url })).body.id as number;
			const [failingId, missingId] = [await add(failing.url), await add(missing.url)];
			const first = await strict.control.post(`/forms/${strictForm}/respond`, {});
			expect(first.body.deliveries.map((d: Json) => d.statusCode)).toEqual([503, 404]);
			const second = await strict.control.post(`/forms/${strictForm}/respond`, {});
			expect(second.body.deliveries).toEqual([
				expect.objectContaining({ webhookId: failingId, statusCode: 503 }),
			]);
			expect([failing.received.length, missing.received.length]).toEqual([2, 1]);
			const listed = (await strict.control.get('/webhooks')).body as Json[];
			const disabledAt = (id: number) => listed.find((w) => w.id === id)?.disabledAt;
			expect([disabledAt(failingId), disabledAt(missingId)]).toEqual([
				undefined,
				expect.any(String),
			]);
			// A disabled webhook still exists at Fillout: the API deletes it.
			const deleted = await strict.api.post('/webhook/delete', { webhookId: missingId });
			expect(deleted.status).toBe(200);
		} finally {
			await strict.sandbox.close();
		}
	});

	it('stops delivering once the webhook is deleted', async () => {
		const formId = await freshForm(h.control);
		const r = await receiver();
		const id = await subscribe(formId, r.url);
		await h.api.post('/webhook/delete', { webhookId: id });
		expect((await respond(formId)).body.deliveries).toEqual([]);
		expect(r.received).toHaveLength(0);
	});
});
