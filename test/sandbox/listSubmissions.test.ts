/** Endpoint 3 (list) and 4 (one): paging, order, filters, search, edit links, previews, parameter errors. */
import { freshForm, useHarness, type Json } from './support';

const h = useHarness();

async function generate(formId: string, body: Record<string, unknown>): Promise<Json> {
	const res = await h.control.post(`/forms/${formId}/generate`, body);
	expect(res.status).toBe(200);
	return res.body;
}

const list = (formId: string, query: Record<string, string | number | boolean> = {}) =>
	h.api.get(`/forms/${formId}/submissions`, query);

const ids = (res: Json): string[] => res.body.responses.map((s: Json) => s.submissionId);

describe('counts and paging', () => {
	it.each([
		[0, 50, 0],
		[1, 50, 1],
		[150, 150, 1],
		[151, 150, 2],
		[1234, 50, 25],
		[1234, 7, 177],
	])('%i submissions with limit %i give pageCount %i', async (count, limit, pages) => {
		const formId = await freshForm(h.control);
		await generate(formId, { count });
		const res = await list(formId, limit === 50 ? {} : { limit });
		expect(res.status).toBe(200);
		expect(res.body.totalResponses).toBe(count);
		expect(res.body.pageCount).toBe(pages);
		expect(res.body.responses).toHaveLength(Math.min(count, limit));
	});

	it('pages through every submission exactly once, in ascending time', async () => {
		const formId = await freshForm(h.control);
		const made = await generate(formId, { count: 333, stepMs: 1000 });
		const seen: string[] = [];
		for (let offset = 0; ; offset += 150) {
			const res = await list(formId, { limit: 150, offset });
			if (res.body.responses.length === 0) break;
			seen.push(...ids(res));
		}
		expect(seen).toEqual(made.submissionIds);
	});

	it('answers an empty page, with the total, past the end', async () => {
		const formId = await freshForm(h.control);
		await generate(formId, { count: 3 });
		const res = await list(formId, { offset: 10 });
		expect(res.body).toEqual({ responses: [], totalResponses: 3, pageCount: 1 });
	});
});

describe('order', () => {
	it('sorts desc as the exact reverse of asc', async () => {
		const formId = await freshForm(h.control);
		await generate(formId, { count: 40, stepMs: 0 });
		await generate(formId, { count: 40, stepMs: 5000 });
		const asc = ids(await list(formId, { limit: 150 }));
		const desc = ids(await list(formId, { limit: 150, sort: 'desc' }));
		expect(desc).toEqual([...asc].reverse());
	});

	it('breaks ties of identical timestamps by submissionId, so pages never overlap', async () => {
		const formId = await freshForm(h.control);
		const made = await generate(formId, {
			count: 25,
			stepMs: 0,
			startTime: '2024-06-01T00:00:00.000Z',
		});
		const pages = [];
		for (let offset = 0; offset < 25; offset += 10)
			pages.push(...ids(await list(formId, { limit: 10, offset })));
		expect(pages).toEqual([...made.submissionIds].sort());
	});

	it('keeps the seeded identical timestamps in id order', async () => {
		const res = await list(h.sandbox.demo.formIds[0], { limit: 150 });
		const rows: Json[] = res.body.responses;
		let ties = 0;
		for (let i = 1; i < rows.length; i++) {
			const [a, b] = [rows[i - 1], rows[i]];
			expect(Date.parse(a.submissionTime)).toBeLessThanOrEqual(Date.parse(b.submissionTime));
			if (a.submissionTime === b.submissionTime) {
				ties++;
				expect(a.submissionId < b.submissionId).toBe(true);
			}
		}
		expect(ties).toBeGreaterThan(0);
	});
});

describe('date filters', () => {
	let formId: string;
	let times: string[];
	let made: string[];
	beforeAll(async () => {
		formId = await freshForm(h.control);
		const res = await generate(formId, {
			count: 5,
			startTime: '2024-03-01T10:00:00.000Z',
			stepMs: 60_000,
		});
		made = res.submissionIds;
		times = [0, 1, 2, 3, 4].map((i) =>
			new Date(Date.parse('2024-03-01T10:00:00.000Z') + i * 60_000).toISOString(),
		);
	});

	it('afterDate keeps only submissions strictly after it', async () => {
		expect(ids(await list(formId, { afterDate: times[2] }))).toEqual(made.slice(3));
	});

	it('beforeDate keeps only submissions strictly before it', async () => {
		expect(ids(await list(formId, { beforeDate: times[2] }))).toEqual(made.slice(0, 2));
	});

	it('understands offsets and combines both', async () => {
		const res = await list(formId, {
			afterDate: '2024-03-01T12:00:30+02:00',
			beforeDate: '2024-03-01T10:04:00Z',
		});
		expect(ids(res)).toEqual(made.slice(1, 4));
		expect(res.body.totalResponses).toBe(3);
	});

	it.each([
		'yesterday',
		'2024-02-30T00:00:00Z',
		'2024-01-01',
		'2024-01-01T10:00:00',
		'2024-13-01T00:00:00Z',
		'',
	])('refuses afterDate=%p with 400 naming the parameter', async (value) => {
		const res = await list(formId, { afterDate: value });
		expect(res.status).toBe(400);
		expect(res.body.statusCode).toBe(400);
		expect(res.body.message).toMatch(/^afterDate must be an ISO 8601 date-time/);
	});

	it('refuses a bad beforeDate naming beforeDate', async () => {
		const res = await list(formId, { beforeDate: 'soon' });
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^beforeDate /);
	});
});

describe('status and previews', () => {
	let formId: string;
	beforeAll(async () => {
		formId = await freshForm(h.control);
		await generate(formId, { count: 4 });
		await generate(formId, { count: 3, status: 'in_progress' });
		await generate(formId, { count: 2, preview: true });
	});

	it('lists finished submissions by default', async () => {
		expect((await list(formId)).body.totalResponses).toBe(4);
		expect((await list(formId, { status: 'finished' })).body.totalResponses).toBe(4);
	});

	it('lists unfinished ones with status=in_progress', async () => {
		expect((await list(formId, { status: 'in_progress' })).body.totalResponses).toBe(3);
	});

	it('adds preview submissions with includePreview=true only', async () => {
		expect((await list(formId, { includePreview: true })).body.totalResponses).toBe(6);
		expect((await list(formId, { includePreview: false })).body.totalResponses).toBe(4);
	});

	it('has finished, in-progress and preview submissions in the seed', async () => {
		const feedback = h.sandbox.demo.formIds[0];
		const finished = (await list(feedback)).body.totalResponses;
		expect(finished).toBeGreaterThan(200);
		expect((await list(feedback, { status: 'in_progress' })).body.totalResponses).toBeGreaterThan(
			0,
		);
		expect((await list(feedback, { includePreview: true })).body.totalResponses).toBeGreaterThan(
			finished,
		);
	});
});

describe('search', () => {
	let formId: string;
	const made: Record<string, string> = {};
	beforeAll(async () => {
		formId = await freshForm(h.control, {
			questions: [
				{ name: 'Name', type: 'ShortAnswer' },
				{ name: 'Team size', type: 'NumberInput' },
				{ name: 'Address', type: 'Address' },
				{ name: 'Skills', type: 'Checkboxes', options: ['Go', 'Rust'] },
			],
			urlParameters: ['utm_source'],
		});
		const respond = async (label: string, body: Json) => {
			const res = await h.control.post(`/forms/${formId}/respond`, {
				fillUnanswered: false,
				...body,
			});
			expect(res.status).toBe(200);
			made[label] = res.body.submission.submissionId;
		};
		await respond('zoe', { answers: { Name: 'Zoë Øvergaard', 'Team size': 4217 } });
		await respond('tokyo', {
			answers: {
				Address: {
					address: '1-1 Chiyoda',
					city: '東京',
					state: '',
					zipCode: '100',
					country: 'Japan',
				},
			},
		});
		await respond('rust', { answers: { Skills: ['Go', 'Rust'] } });
		const utm = (await h.api.get(`/forms/${formId}`)).body.urlParameters[0];
		await respond('campaign', {
			submission: {
				urlParameters: [{ id: utm.id, name: 'utm_source', value: 'Spring-Newsletter' }],
			},
		});
	});

	const found = async (search: string) => ids(await list(formId, { search }));

	it('matches answer text case-insensitively, including non-ASCII', async () => {
		expect(await found('zoË')).toEqual([made.zoe]);
		expect(await found('øVERGAARD')).toEqual([made.zoe]);
	});

	it('matches numbers, nested objects and arrays', async () => {
		expect(await found('4217')).toEqual([made.zoe]);
		expect(await found('東京')).toEqual([made.tokyo]);
		expect(await found('rust')).toEqual([made.rust]);
	});

	it('matches URL parameter values and the submission id', async () => {
		expect(await found('spring-news')).toEqual([made.campaign]);
		expect(await found(made.rust.slice(4, 16).toUpperCase())).toEqual([made.rust]);
	});

	it('counts only matches in totalResponses and pageCount', async () => {
		const res = await list(formId, { search: 'nothing matches this', limit: 1 });
		expect(res.body).toEqual({ responses: [], totalResponses: 0, pageCount: 0 });
	});
});

describe('parameter errors', () => {
	const formId = () => h.sandbox.demo.formIds[0];
	it.each([
		['limit', '0', /^limit must be an integer between 1 and 150/],
		['limit', '151', /^limit must be an integer between 1 and 150/],
		['limit', 'ten', /^limit must be an integer between 1 and 150/],
		['limit', '1.5', /^limit must be an integer between 1 and 150/],
		['offset', '-1', /^offset must be an integer >= 0/],
		['offset', 'x', /^offset must be an integer >= 0/],
		['status', 'done', /^status must be one of: finished, in_progress/],
		['sort', 'newest', /^sort must be one of: asc, desc/],
		['includeEditLink', 'yes', /^includeEditLink must be one of: true, false/],
		['includePreview', '1', /^includePreview must be one of: true, false/],
	])('%s=%s answers 400 with a clear message', async (name, value, message) => {
		const res = await list(formId(), { [name]: value });
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			statusCode: 400,
			error: 'Bad Request',
			message: expect.stringMatching(message),
		});
	});

	it('refuses a repeated parameter', async () => {
		const res = await h.api.get(`/forms/${formId()}/submissions?limit=1&limit=2`);
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^limit /);
	});

	it('answers 404 for an unknown form', async () => {
		expect((await list('nope')).status).toBe(404);
	});
});

describe('edit links and single submissions', () => {
	let formId: string;
	let submissionId: string;
	beforeAll(async () => {
		formId = await freshForm(h.control);
		submissionId = (await generate(formId, { count: 1 })).submissionIds[0];
	});

	it('adds editLink, pointing at the sandbox, only with includeEditLink=true', async () => {
		const plain = (await list(formId)).body.responses[0];
		expect(plain).not.toHaveProperty('editLink');
		const linked = (await list(formId, { includeEditLink: true })).body.responses[0];
		expect(linked.editLink).toBe(`${h.sandbox.origin}/t/${formId}?session=${submissionId}`);
		const page = await fetch(linked.editLink);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain(submissionId);
	});

	it('GET one answers {submission}, with editLink on request', async () => {
		const res = await h.api.get(`/forms/${formId}/submissions/${submissionId}`);
		expect(res.status).toBe(200);
		expect(Object.keys(res.body)).toEqual(['submission']);
		expect(res.body.submission.submissionId).toBe(submissionId);
		expect(res.body.submission).not.toHaveProperty('editLink');
		const linked = await h.api.get(`/forms/${formId}/submissions/${submissionId}`, {
			includeEditLink: true,
		});
		expect(linked.body.submission.editLink).toContain(`session=${submissionId}`);
		expect(
			(await h.api.get(`/forms/${formId}/submissions/${submissionId}`, { includeEditLink: 'on' }))
				.status,
		).toBe(400);
	});

	it('GET one finds in-progress submissions too', async () => {
		const inProgress = (await generate(formId, { count: 1, status: 'in_progress' }))
			.submissionIds[0];
		expect((await h.api.get(`/forms/${formId}/submissions/${inProgress}`)).status).toBe(200);
	});

	it('GET one answers 404 for an unknown submission', async () => {
		const res = await h.api.get(
			`/forms/${formId}/submissions/00000000-0000-4000-8000-000000000000`,
		);
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			statusCode: 404,
			error: 'Not Found',
			message: expect.stringContaining('00000000-0000-4000-8000-000000000000'),
		});
	});
});

describe('seeded submissions look like the live service’s', () => {
	it('carry realistic values, calculations, URL parameters, scheduling, payments, quiz and login', async () => {
		const all: Json[] = [];
		for (const formId of h.sandbox.demo.formIds)
			all.push(...(await list(formId, { limit: 150 })).body.responses);
		const answers = all.flatMap((s) => s.questions);
		const byType = (type: string) =>
			answers
				.filter((q: Json) => q.type === type && q.value !== null && q.value !== '')
				.map((q: Json) => q.value);
		expect(byType('Address')[0]).toEqual({
			address: expect.any(String),
			city: expect.any(String),
			state: expect.any(String),
			zipCode: expect.any(String),
			country: expect.any(String),
		});
		expect(
			byType('Checkboxes').every(
				(v: Json) => Array.isArray(v) && v.every((x: Json) => typeof x === 'string'),
			),
		).toBe(true);
		expect(byType('MultiSelect').every((v: Json) => Array.isArray(v))).toBe(true);
		expect(byType('FileUpload')[0][0]).toEqual({
			// On the sandbox's file host: the other loopback name than the API's.
			url: expect.stringMatching(/^http:\/\/localhost:\d+\/files\//),
			filename: expect.any(String),
		});
		expect(byType('DatePicker').every((v: Json) => /^\d{4}-\d{2}-\d{2}$/.test(v))).toBe(true);
		expect(byType('NumberInput').every((v: Json) => typeof v === 'number')).toBe(true);
		expect(answers.some((q: Json) => q.value === null)).toBe(true);
		expect(answers.some((q: Json) => q.value === '')).toBe(true);
		const text = JSON.stringify(all);
		for (const sample of ['é', '王芳', 'محمد', '👍']) expect(text).toContain(sample);
		expect(
			all.some((s) =>
				s.calculations.some(
					(c: Json) => c.type === 'duration' && /^\d+:\d{2}:\d{2}$/.test(c.value),
				),
			),
		).toBe(true);
		const payment = all.flatMap((s) => s.payments ?? []).find((p: Json) => p.value)?.value;
		expect(payment).toEqual(
			expect.objectContaining({
				paymentId: expect.any(String),
				stripeCustomerId: expect.any(String),
				stripePaymentUrl: expect.any(String),
			}),
		);
		const booking = all.flatMap((s) => s.scheduling ?? []).find((p: Json) => p.value)?.value;
		expect(booking).toEqual(
			expect.objectContaining({
				fullName: expect.any(String),
				email: expect.any(String),
				timezone: expect.any(String),
				eventStartTime: expect.any(String),
			}),
		);
		expect(all.find((s) => s.quiz)?.quiz).toEqual({ score: expect.any(Number), maxScore: 5 });
		expect(all.find((s) => s.login)?.login).toEqual({ email: expect.stringContaining('@') });
	});
});
