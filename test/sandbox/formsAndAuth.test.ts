/** Endpoints 1 and 2, authentication failures as the live service answers them, regions, errors. */
import { apiClient, call, useHarness, type Json } from './support';

const KNOWN_TYPES = [
	'Address',
	'AudioRecording',
	'Calcom',
	'Calendly',
	'Captcha',
	'Checkbox',
	'Checkboxes',
	'ColorPicker',
	'CurrencyInput',
	'DatePicker',
	'DateRange',
	'DateTimePicker',
	'Dropdown',
	'EmailInput',
	'FileUpload',
	'ImagePicker',
	'LocationCoordinates',
	'LongAnswer',
	'Matrix',
	'MultiSelect',
	'MultipleChoice',
	'NumberInput',
	'OpinionScale',
	'Password',
	'Payment',
	'PhoneNumber',
	'Ranking',
	'RecordPicker',
	'ShortAnswer',
	'Signature',
	'Slider',
	'StarRating',
	'Subform',
	'SubmissionPicker',
	'Switch',
	'Table',
	'TimePicker',
	'URLInput',
];

const EXTRA_KEY = 'local-dev-key';

const h = useHarness({ apiKeys: [EXTRA_KEY] });

async function allMetadata(): Promise<Json[]> {
	return Promise.all(
		h.sandbox.demo.formIds.map(async (id) => (await h.api.get(`/forms/${id}`)).body),
	);
}

describe('GET /forms', () => {
	it('lists the demo account’s forms with formId, name and tags', async () => {
		const res = await h.api.get('/forms');
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(res.body.length).toBeGreaterThanOrEqual(4);
		expect(res.body.map((f: Json) => f.formId)).toEqual(h.sandbox.demo.formIds);
		for (const form of res.body) {
			expect(typeof form.name).toBe('string');
			expect(Array.isArray(form.tags)).toBe(true);
			for (const tag of form.tags) expect(['form', 'quiz', 'survey', 'scheduling']).toContain(tag);
		}
	});

	it('shows each account only its own forms', async () => {
		const eu = apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey);
		const res = await eu.get('/forms');
		expect(res.status).toBe(200);
		expect(res.body.length).toBeGreaterThanOrEqual(1);
		for (const form of res.body) expect(h.sandbox.demo.formIds).not.toContain(form.formId);
	});
});

describe('GET /forms/{formId}', () => {
	it('returns questions, calculations, URL parameters, scheduling and payments', async () => {
		const forms = await allMetadata();
		for (const form of forms) {
			expect(typeof form.id).toBe('string');
			for (const q of form.questions)
				expect(Object.keys(q).sort()).toEqual(expect.arrayContaining(['id', 'name', 'type']));
			for (const c of form.calculations) expect(['number', 'text', 'duration']).toContain(c.type);
		}
		expect(forms.some((f) => f.urlParameters.length > 0)).toBe(true);
		expect(forms.some((f) => f.scheduling.length > 0)).toBe(true);
		expect(forms.some((f) => f.payments.length > 0)).toBe(true);
		const calcTypes = new Set(forms.flatMap((f) => f.calculations.map((c: Json) => c.type)));
		expect([...calcTypes].sort()).toEqual(['duration', 'number', 'text']);
	});

	it('uses every known question type and one type no client knows', async () => {
		const types = new Set(
			(await allMetadata()).flatMap((f) => f.questions.map((q: Json) => q.type)),
		);
		for (const type of KNOWN_TYPES) expect(types).toContain(type);
		const unknown = [...types].filter((t) => !KNOWN_TYPES.includes(t));
		expect(unknown).toEqual(['HologramInput']);
	});

	it('has a form with two questions of the same name but different ids', async () => {
		const forms = await allMetadata();
		const dup = forms
			.map((f) => f.questions.filter((q: Json) => q.name === 'Email'))
			.find((emails: Json[]) => emails.length === 2);
		expect(dup).toBeDefined();
		expect(dup[0].id).not.toBe(dup[1].id);
	});

	it('marks quiz forms with quiz.enabled and only them', async () => {
		const forms = await allMetadata();
		const quizzes = forms.filter((f) => f.quiz);
		expect(quizzes).toHaveLength(1);
		expect(quizzes[0].quiz).toEqual({ enabled: true });
		const list = (await h.api.get('/forms')).body;
		expect(list.find((f: Json) => f.formId === quizzes[0].id).tags).toContain('quiz');
	});

	it('gives choice questions options with id, value and label', async () => {
		const choice = (await allMetadata())
			.flatMap((f) => f.questions)
			.filter((q: Json) => q.type === 'Dropdown');
		expect(choice.length).toBeGreaterThan(0);
		for (const option of choice[0].options)
			expect(Object.keys(option).sort()).toEqual(['id', 'label', 'value']);
	});

	it('answers 404 in the usual shape for an unknown form, and for another account’s form', async () => {
		const unknown = await h.api.get('/forms/doesNotExist1');
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({
			statusCode: 404,
			error: 'Not Found',
			message: expect.stringContaining('doesNotExist1'),
		});
		const euForm = (
			await apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey).get('/forms')
		).body[0].formId;
		const foreign = await h.api.get(`/forms/${euForm}`);
		expect(foreign.status).toBe(404);
	});
});

describe('authentication', () => {
	const formsUrl = () => `${h.sandbox.apiRoot}/forms`;

	it('refuses a missing header with 400 "API authorization header missing"', async () => {
		const res = await call('GET', formsUrl());
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			statusCode: 400,
			error: 'Bad Request',
			message: 'API authorization header missing',
		});
	});

	it.each([
		['a key without a known prefix', 'Bearer abc123'],
		['a header without the Bearer scheme', 'sk_prod_abc'],
	])('refuses %s with 400 "Incorrectly formatted API key was passed"', async (_what, header) => {
		const res = await call('GET', formsUrl(), { headers: { authorization: header } });
		expect(res.status).toBe(400);
		expect(res.body.message).toBe('Incorrectly formatted API key was passed');
	});

	it.each([
		['an unknown API key', 'sk_prod_'],
		['an unknown OAuth token', 'fillout_token_'],
	])('refuses %s with 400 "API Key invalid"', async (_what, prefix) => {
		const res = await call('GET', formsUrl(), {
			headers: { authorization: `Bearer ${prefix}unknown0000` },
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'API Key invalid' });
	});

	it('accepts a key given explicitly (--api-key) whatever its format, for the demo account', async () => {
		const res = await apiClient(h.sandbox.apiRoot, EXTRA_KEY).get('/forms');
		expect(res.status).toBe(200);
		expect(res.body.map((f: Json) => f.formId)).toEqual(h.sandbox.demo.formIds);
	});

	it('accepts a key only on its own region’s root', async () => {
		const { demo, apiRoot } = h.sandbox;
		expect((await apiClient(demo.euApiRoot, demo.euApiKey).get('/forms')).status).toBe(200);
		const euKeyOnUs = await apiClient(apiRoot, demo.euApiKey).get('/forms');
		expect(euKeyOnUs.status).toBe(400);
		expect(euKeyOnUs.body.message).toBe('API Key invalid');
		const usKeyOnEu = await apiClient(demo.euApiRoot, demo.apiKey).get('/forms');
		expect(usKeyOnEu.body.message).toBe('API Key invalid');
	});

	it('serves no API under an unknown region root', async () => {
		const res = await call('GET', `${h.sandbox.origin}/xx/v1/api/forms`, {
			headers: { authorization: `Bearer ${h.sandbox.demo.apiKey}` },
		});
		expect(res.status).toBe(404);
	});
});

describe('unknown routes', () => {
	it('answer 404 in the usual shape', async () => {
		const res = await h.api.get('/nothing/here');
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			statusCode: 404,
			error: 'Not Found',
			message: 'Route GET:/v1/api/nothing/here not found',
		});
		expect((await call('PUT', `${h.sandbox.apiRoot}/forms`)).status).toBe(404);
	});
});
