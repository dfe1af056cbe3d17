/** Endpoints 5 (create, with its validation issues) and 6 (delete). */
import { apiClient, call, freshForm, useHarness, type Json } from './support';

const h = useHarness();

async function metadata(formId: string): Promise<Json> {
	return (await h.api.get(`/forms/${formId}`)).body;
}

const total = async (formId: string) =>
	(await h.api.get(`/forms/${formId}/submissions`)).body.totalResponses as number;

/** A form with a sum calculation, scheduling and payments (the demo event form has all of them). */
const EVENT_FORM = () => h.sandbox.demo.formIds[1];
const QUIZ_FORM = () => h.sandbox.demo.formIds[2];

describe('POST /forms/{formId}/submissions', () => {
	it('creates submissions and answers them in full shape, with names, types and calculations', async () => {
		const form = await metadata(EVENT_FORM());
		const q = (name: string) => form.questions.find((x: Json) => x.name === name).id;
		const before = await total(form.id);
		const res = await h.api.post(`/forms/${form.id}/submissions`, {
			submissions: [
				{
					questions: [
						{ id: q('Full name'), value: 'Ada Lovelace' },
						{ id: q('Guests'), value: 3 },
						{ id: q('Talk length (minutes)'), value: 95 },
					],
					urlParameters: [
						{ id: form.urlParameters[0].id, name: form.urlParameters[0].name, value: 'import' },
					],
					submissionTime: '2024-07-01T12:00:00+02:00',
					scheduling: [
						{
							id: form.scheduling[0].id,
							value: {
								fullName: 'Ada Lovelace',
								email: 'ada@example.com',
								timezone: 'Europe/London',
								eventStartTime: '2024-07-02T09:00:00Z',
								eventEndTime: '2024-07-02T09:30:00Z',
							},
						},
					],
					payments: [
						{
							id: form.payments[0].id,
							value: {
								paymentId: 'pi_123',
								totalAmount: 4900,
								currency: 'usd',
								discountCode: 'DROPPED',
							},
						},
					],
				},
				{ questions: [] },
			],
		});
		expect(res.status).toBe(200);
		const [first, second] = res.body.submissions;
		expect(res.body.submissions).toHaveLength(2);
		expect(first.submissionId).toEqual(expect.any(String));
		expect(first.submissionId).not.toBe(second.submissionId);
		expect(first.submissionTime).toBe('2024-07-01T10:00:00.000Z');
		expect(first.questions).toHaveLength(form.questions.length);
		expect(first.questions.find((x: Json) => x.id === q('Full name'))).toEqual({
			id: q('Full name'),
			name: 'Full name',
			type: 'ShortAnswer',
			value: 'Ada Lovelace',
		});
		expect(first.questions.find((x: Json) => x.id === q('Phone')).value).toBeNull();
		const calc = (name: string) => first.calculations.find((c: Json) => c.name === name);
		expect(calc('Extra seats')).toEqual({
			id: expect.any(String),
			name: 'Extra seats',
			type: 'number',
			value: '3',
		});
		expect(calc('Talk length')).toMatchObject({ type: 'duration', value: '1:35:00' });
		expect(calc('Badge name')).toMatchObject({ type: 'text', value: 'Ada Lovelace' });
		expect(first.urlParameters[0]).toEqual({
			id: form.urlParameters[0].id,
			name: form.urlParameters[0].name,
			value: 'import',
		});
		expect(first.scheduling[0].value.email).toBe('ada@example.com');
		expect(first.payments[0].value).toEqual({
			paymentId: 'pi_123',
			totalAmount: 4900,
			currency: 'usd',
		});
		expect(typeof second.submissionTime).toBe('string');
		expect(await total(form.id)).toBe(before + 2);
		const stored = await h.api.get(`/forms/${form.id}/submissions/${first.submissionId}`);
		expect(stored.body.submission).toEqual(first);
	});

	it('scores quiz forms', async () => {
		const form = await metadata(QUIZ_FORM());
		const capital = form.questions.find((x: Json) => x.name.includes('capital'));
		const river = form.questions.find((x: Json) => x.name.includes('river'));
		const res = await h.api.post(`/forms/${form.id}/submissions`, {
			submissions: [
				{
					questions: [
						{ id: capital.id, value: 'Canberra' },
						{ id: river.id, value: 'Amazon' },
					],
				},
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.submissions[0].quiz).toEqual({ score: 1, maxScore: 5 });
	});

	it('answers 404 for an unknown form', async () => {
		expect((await h.api.post('/forms/unknownForm/submissions', { submissions: [] })).status).toBe(
			404,
		);
	});
});

// The bad-body tests share a form, and check that nothing was created with each refusal.
let formId: string;
let questionId: string;
beforeAll(async () => {
	formId = await freshForm(h.control);
	questionId = (await metadata(formId)).questions[0].id;
});

async function issuesFor(body: unknown): Promise<Json[]> {
	const res = await h.api.post(`/forms/${formId}/submissions`, body);
	expect(res.status).toBe(400);
	expect(res.body.statusCode).toBe(400);
	expect(res.body.error).toBe('Bad Request');
	const issues = JSON.parse(res.body.message);
	expect(Array.isArray(issues)).toBe(true);
	for (const issue of issues)
		expect(issue).toEqual(
			expect.objectContaining({ path: expect.any(Array), message: expect.any(String) }),
		);
	expect(await total(formId)).toBe(0);
	return issues;
}

const good = () => ({ questions: [{ id: questionId, value: 'ok' }] });

describe('POST /forms/{formId}/submissions refuses a body of the wrong shape with 400 and a JSON array of issues, creating nothing', () => {
	it('missing submissions', async () => {
		expect(await issuesFor({})).toEqual([
			expect.objectContaining({ path: ['submissions'], message: 'Required' }),
		]);
	});

	it('submissions of the wrong type', async () => {
		expect(await issuesFor({ submissions: 'all' })).toEqual([
			expect.objectContaining({
				path: ['submissions'],
				message: 'Expected array, received string',
			}),
		]);
	});

	it('more than 10 submissions', async () => {
		const issues = await issuesFor({ submissions: Array.from({ length: 11 }, good) });
		expect(issues).toEqual([
			expect.objectContaining({ code: 'too_big', path: ['submissions'], maximum: 10 }),
		]);
	});

	it('a body that is not JSON', async () => {
		const res = await call('POST', `${h.sandbox.apiRoot}/forms/${formId}/submissions`, {
			headers: {
				authorization: `Bearer ${h.sandbox.demo.apiKey}`,
				'content-type': 'application/json',
			},
			raw: '{"submissions": [',
		});
		expect(res.status).toBe(400);
		expect(res.body.message).toBe('Body is not valid JSON');
	});
});

describe('POST /forms/{formId}/submissions refuses bad answers with 400 and a JSON array of issues, creating nothing', () => {
	it('an unknown question id, with its exact path', async () => {
		const body = {
			submissions: [good(), good(), good(), { questions: [{ id: 'nope', value: 1 }] }],
		};
		const issues = await issuesFor(body);
		expect(issues).toEqual([
			expect.objectContaining({
				path: ['submissions', 3, 'questions', 0, 'id'],
				message: expect.stringContaining('nope'),
			}),
		]);
	});

	it('wrong types inside an item', async () => {
		const issues = await issuesFor({
			submissions: [{ questions: [{ id: 7, value: 'x' }] }, { questions: 'x' }, 'item'],
		});
		expect(issues.map((i) => i.path)).toEqual([
			['submissions', 0, 'questions', 0, 'id'],
			['submissions', 1, 'questions'],
			['submissions', 2],
		]);
	});

	it('missing questions', async () => {
		expect((await issuesFor({ submissions: [{}] }))[0].path).toEqual([
			'submissions',
			0,
			'questions',
		]);
	});

	it('a bad date-time', async () => {
		const issues = await issuesFor({
			submissions: [
				{ ...good(), submissionTime: '2024-01-01 10:00' },
				{ ...good(), lastUpdatedAt: 'later' },
			],
		});
		expect(issues).toEqual([
			expect.objectContaining({
				path: ['submissions', 0, 'submissionTime'],
				message: 'Invalid datetime',
			}),
			expect.objectContaining({
				path: ['submissions', 1, 'lastUpdatedAt'],
				message: 'Invalid datetime',
			}),
		]);
	});

	it('unknown URL parameter, scheduling and payment ids', async () => {
		const issues = await issuesFor({
			submissions: [
				{
					...good(),
					urlParameters: [{ id: 'u', name: 'u', value: 'v' }],
					scheduling: [{ id: 's', value: {} }],
					payments: [{ id: 'p', value: {} }],
				},
			],
		});
		expect(issues.map((i) => i.path)).toEqual([
			['submissions', 0, 'urlParameters', 0, 'id'],
			['submissions', 0, 'scheduling', 0, 'id'],
			['submissions', 0, 'payments', 0, 'id'],
		]);
	});

	it('incomplete scheduling and payment values', async () => {
		const form = await metadata(EVENT_FORM());
		const before = await total(form.id);
		const res = await h.api.post(`/forms/${form.id}/submissions`, {
			submissions: [
				{
					questions: [],
					scheduling: [
						{
							id: form.scheduling[0].id,
							value: {
								fullName: 'A',
								email: 'not-an-email',
								timezone: 'UTC',
								eventStartTime: '2024-01-01T00:00:00Z',
							},
						},
					],
					payments: [{ id: form.payments[0].id, value: { totalAmount: 12.5 } }],
				},
			],
		});
		expect(res.status).toBe(400);
		const paths = JSON.parse(res.body.message).map((i: Json) => i.path.join('.'));
		expect(paths).toEqual([
			'submissions.0.scheduling.0.value.email',
			'submissions.0.scheduling.0.value.eventEndTime',
			'submissions.0.payments.0.value.paymentId',
			'submissions.0.payments.0.value.totalAmount',
		]);
		expect(await total(form.id)).toBe(before);
	});
});

describe('DELETE /forms/{formId}/submissions/{submissionId}', () => {
	it('deletes once; afterwards the submission is 404 and no longer counted', async () => {
		const formId = await freshForm(h.control);
		const [keep, gone] = (await h.control.post(`/forms/${formId}/generate`, { count: 2 })).body
			.submissionIds;
		const res = await h.api.delete(`/forms/${formId}/submissions/${gone}`);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({});
		expect((await h.api.get(`/forms/${formId}/submissions/${gone}`)).status).toBe(404);
		expect(
			(await h.api.get(`/forms/${formId}/submissions`)).body.responses.map(
				(s: Json) => s.submissionId,
			),
		).toEqual([keep]);
		const again = await h.api.delete(`/forms/${formId}/submissions/${gone}`);
		expect(again.status).toBe(404);
		expect(again.body).toEqual({
			statusCode: 404,
			error: 'Not Found',
			message: expect.any(String),
		});
	});

	it('cannot delete another account’s submission', async () => {
		const euForm = (
			await apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey).get('/forms')
		).body[0].formId;
		const euSubmission = (await h.control.post(`/forms/${euForm}/generate`, { count: 1 })).body
			.submissionIds[0];
		expect((await h.api.delete(`/forms/${euForm}/submissions/${euSubmission}`)).status).toBe(404);
	});
});
