/** The /_sandbox/ control API that tests in other processes rely on. */
import {
	apiClient,
	call,
	freshForm,
	startHarness,
	useHarness,
	type Harness,
	type Json,
} from './support';

const h = useHarness();

describe('GET /_sandbox/info', () => {
	it('tells where everything is and the demo credentials', async () => {
		const res = await h.control.get('/info');
		expect(res.status).toBe(200);
		expect(res.body.apiRoot).toBe(h.sandbox.apiRoot);
		const [demo, eu] = res.body.accounts;
		expect(demo).toMatchObject({
			id: 'acct_demo',
			basePath: '',
			apiRoot: h.sandbox.apiRoot,
			apiKeys: [h.sandbox.demo.apiKey],
		});
		expect(demo.forms.map((f: Json) => f.formId)).toEqual(h.sandbox.demo.formIds);
		expect(eu).toMatchObject({
			basePath: '/eu',
			apiRoot: h.sandbox.demo.euApiRoot,
			apiKeys: [h.sandbox.demo.euApiKey],
		});
		expect(res.body.oauthClients[0]).toMatchObject(h.sandbox.demo.oauthClient);
	});
});

describe('POST /_sandbox/forms', () => {
	it('creates an empty form with default questions and returns its metadata', async () => {
		const res = await h.control.post('/forms', { name: 'Blank' });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ name: 'Blank', id: expect.any(String) });
		expect(res.body.questions.length).toBeGreaterThan(0);
		expect((await h.api.get(`/forms/${res.body.id}`)).body).toEqual(res.body);
		expect((await h.api.get(`/forms/${res.body.id}/submissions`)).body.totalResponses).toBe(0);
	});

	it('takes questions, URL parameters and quiz answers', async () => {
		const res = await h.control.post('/forms', {
			name: 'Custom',
			questions: [
				{
					id: 'q1',
					name: 'Colour',
					type: 'Dropdown',
					options: ['Red', { value: 'blue', label: 'Blue' }],
				},
				{ name: 'Scan', type: 'HologramInput' },
			],
			urlParameters: ['campaign'],
			quiz: true,
		});
		expect(res.body.questions[0]).toEqual({
			id: 'q1',
			name: 'Colour',
			type: 'Dropdown',
			options: [
				{ id: expect.any(String), value: 'Red', label: 'Red' },
				{ id: expect.any(String), value: 'blue', label: 'Blue' },
			],
		});
		expect(res.body.urlParameters).toEqual([{ id: expect.any(String), name: 'campaign' }]);
		expect(res.body.quiz).toEqual({ enabled: true });
	});

	it('creates forms for another account by its key', async () => {
		const res = await h.control.post('/forms', {
			name: 'EU only',
			accountKey: h.sandbox.demo.euApiKey,
		});
		const euForms = (
			await apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey).get('/forms')
		).body;
		expect(euForms.map((f: Json) => f.formId)).toContain(res.body.id);
		expect((await h.api.get(`/forms/${res.body.id}`)).status).toBe(404);
	});

	it.each([
		[{}, /^name is required/],
		[{ name: 'x', accountKey: 'nobody' }, /^accountKey /],
		[{ name: 'x', questions: [{ name: 'no type' }] }, /questions\[0\]/],
		[
			{
				name: 'x',
				questions: [
					{ id: 'a', name: 'A', type: 'ShortAnswer' },
					{ id: 'a', name: 'B', type: 'ShortAnswer' },
				],
			},
			/used twice/,
		],
	])('refuses %j with 400', async (body, message) => {
		const res = await h.control.post('/forms', body);
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(message);
	});
});

describe('POST /_sandbox/forms/:formId/generate', () => {
	it('creates 10,000 submissions, deterministic in time order', async () => {
		const formId = await freshForm(h.control);
		const res = await h.control.post(`/forms/${formId}/generate`, {
			count: 10_000,
			startTime: '2024-01-01T00:00:00Z',
			stepMs: 1000,
		});
		expect(res.status).toBe(200);
		expect(res.body.count).toBe(10_000);
		expect(new Set(res.body.submissionIds).size).toBe(10_000);
		expect(res.body.firstSubmissionTime).toBe('2024-01-01T00:00:00.000Z');
		expect(res.body.lastSubmissionTime).toBe(
			new Date(Date.UTC(2024, 0, 1) + 9_999_000).toISOString(),
		);
		const last = await h.api.get(`/forms/${formId}/submissions`, { sort: 'desc', limit: 1 });
		expect(last.body.totalResponses).toBe(10_000);
		expect(last.body.responses[0].submissionId).toBe(res.body.submissionIds[9_999]);
	});

	it('appends after the newest submission by default', async () => {
		const formId = await freshForm(h.control);
		const first = (await h.control.post(`/forms/${formId}/generate`, { count: 2 })).body;
		const second = (await h.control.post(`/forms/${formId}/generate`, { count: 2 })).body;
		expect(Date.parse(second.firstSubmissionTime)).toBeGreaterThan(
			Date.parse(first.lastSubmissionTime),
		);
	});

	it('produces the same data on every fresh start', async () => {
		const other = await startHarness();
		try {
			const make = async (harness: Harness) => {
				const formId = await freshForm(harness.control, { name: 'Same' });
				await harness.control.post(`/forms/${formId}/generate`, { count: 3 });
				return (await harness.api.get(`/forms/${formId}/submissions`)).body;
			};
			await h.control.post('/reset');
			expect(await make(other)).toEqual(await make(h));
		} finally {
			await other.sandbox.close();
		}
	});

	it.each([
		[{ count: -1 }],
		[{ count: 'many' }],
		[{ count: 1, stepMs: -5 }],
		[{ count: 1, startTime: 'now' }],
		[{ count: 1, status: 'draft' }],
	])('refuses %j with 400', async (body) => {
		const formId = await freshForm(h.control);
		expect((await h.control.post(`/forms/${formId}/generate`, body)).status).toBe(400);
	});

	it('answers 404 for an unknown form', async () => {
		expect((await h.control.post('/forms/none/generate', { count: 1 })).status).toBe(404);
	});
});

describe('POST /_sandbox/forms/:formId/respond', () => {
	it('fills realistic values for every question when given nothing', async () => {
		const formId = await freshForm(h.control);
		const res = await h.control.post(`/forms/${formId}/respond`);
		expect(res.status).toBe(200);
		expect(res.body.deliveries).toEqual([]);
		const values = res.body.submission.questions.map((q: Json) => q.value);
		expect(values.filter((v: Json) => v !== null && v !== '').length).toBeGreaterThan(0);
		expect((await h.api.get(`/forms/${formId}/submissions`)).body.totalResponses).toBe(1);
	});

	it('takes answers by question id or name, and submission fields to override', async () => {
		const form = (
			await h.control.post('/forms', {
				name: 'Dup',
				questions: [
					{ name: 'Email', type: 'EmailInput' },
					{ name: 'Email', type: 'EmailInput' },
				],
			})
		).body;
		const res = await h.control.post(`/forms/${form.id}/respond`, {
			answers: { Email: 'first@example.com', [form.questions[1].id]: 'second@example.com' },
			submission: { submissionId: 'my-own-id', submissionTime: '2024-02-03T04:05:06+01:00' },
		});
		expect(res.body.submission.submissionId).toBe('my-own-id');
		expect(res.body.submission.submissionTime).toBe('2024-02-03T03:05:06.000Z');
		expect(res.body.submission.questions.map((q: Json) => q.value)).toEqual([
			'first@example.com',
			'second@example.com',
		]);
		expect(
			(
				await h.control.post(`/forms/${form.id}/respond`, {
					submission: { submissionId: 'my-own-id' },
				})
			).status,
		).toBe(409);
	});

	it('stores in-progress respondents under status=in_progress', async () => {
		const formId = await freshForm(h.control);
		await h.control.post(`/forms/${formId}/respond`, { status: 'in_progress' });
		expect((await h.api.get(`/forms/${formId}/submissions`)).body.totalResponses).toBe(0);
		expect(
			(await h.api.get(`/forms/${formId}/submissions`, { status: 'in_progress' })).body
				.totalResponses,
		).toBe(1);
	});

	it('refuses an unknown question', async () => {
		const formId = await freshForm(h.control);
		const res = await h.control.post(`/forms/${formId}/respond`, { answers: { Nope: 1 } });
		expect(res.status).toBe(400);
		expect(res.body.message).toContain('"Nope"');
	});
});

describe('paging while submissions are added and deleted', () => {
	it('sees additions and deletions on the next page request', async () => {
		const formId = await freshForm(h.control);
		const made = (
			await h.control.post(`/forms/${formId}/generate`, {
				count: 20,
				startTime: '2024-01-01T00:00:00Z',
			})
		).body.submissionIds;
		const page1 = (await h.api.get(`/forms/${formId}/submissions`, { limit: 10 })).body;
		expect(page1.responses[0].submissionId).toBe(made[0]);
		expect((await h.control.delete(`/forms/${formId}/submissions/${made[0]}`)).status).toBe(200);
		await h.control.post(`/forms/${formId}/generate`, { count: 5 });
		const page2 = (await h.api.get(`/forms/${formId}/submissions`, { limit: 10, offset: 10 })).body;
		expect(page2.totalResponses).toBe(24);
		expect(page2.pageCount).toBe(3);
		// One earlier submission is gone, so everything shifted left by one.
		expect(page2.responses[0].submissionId).toBe(made[11]);
		expect((await h.control.delete(`/forms/${formId}/submissions/${made[0]}`)).status).toBe(404);
	});
});

describe('churn: changes after each list request', () => {
	it('changes the form after each list request, seeded, and tells what it did', async () => {
		const runs: Json[] = [];
		for (let run = 0; run < 2; run++) {
			const formId = await freshForm(h.control);
			await h.control.post(`/forms/${formId}/generate`, {
				count: 50,
				startTime: '2024-01-01T00:00:00Z',
			});
			expect(
				(await h.control.post(`/forms/${formId}/churn`, { seed: 'fixed', changesPerList: 4 })).body
					.active,
			).toBe(true);
			const before = (await h.api.get(`/forms/${formId}/submissions`, { limit: 150 })).body;
			for (let i = 0; i < 5; i++) await h.api.get(`/forms/${formId}/submissions`, { limit: 10 });
			const churn = (await h.control.get(`/forms/${formId}/churn`)).body;
			const after = (await h.api.get(`/forms/${formId}/submissions`, { limit: 150 })).body;
			expect(churn.lists).toBe(6);
			expect(churn.inserted.length + churn.deleted.length).toBeGreaterThanOrEqual(6);
			expect(after.totalResponses).toBe(
				before.totalResponses + churn.inserted.length - churn.deleted.length,
			);
			const ids = new Set(after.responses.map((r: Json) => r.submissionId));
			expect(churn.deleted.filter((id: string) => ids.has(id))).toEqual([]);
			expect((await h.control.delete(`/forms/${formId}/churn`)).body.active).toBe(false);
			const stopped = (await h.api.get(`/forms/${formId}/submissions`, { limit: 150 })).body;
			expect(stopped.totalResponses).toBe(
				(await h.api.get(`/forms/${formId}/submissions`, { limit: 1 })).body.totalResponses,
			);
			runs.push({ inserted: churn.inserted.length, deleted: churn.deleted.length });
		}
		// The same seed makes the same kinds of change.
		expect(runs[1]).toEqual(runs[0]);
	});
});

describe('accounts, stats and reset', () => {
	it('creates accounts with their own key and region root', async () => {
		const res = await h.control.post('/accounts', {
			name: 'Canada',
			basePath: '/ca',
			apiKey: 'ca-key',
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			id: expect.any(String),
			name: 'Canada',
			basePath: '/ca',
			apiKey: 'ca-key',
			apiRoot: `${h.sandbox.origin}/ca/v1/api`,
		});
		const ca = apiClient(res.body.apiRoot, 'ca-key');
		expect((await ca.get('/forms')).body).toEqual([]);
		await h.control.post('/forms', { name: 'Maple', accountKey: 'ca-key' });
		expect((await ca.get('/forms')).body.map((f: Json) => f.name)).toEqual(['Maple']);
		expect((await apiClient(h.sandbox.apiRoot, 'ca-key').get('/forms')).body.message).toBe(
			'API Key invalid',
		);
		const generated = await h.control.post('/accounts', {});
		expect(generated.body.apiKey).toMatch(/^sk_prod_/);
		expect((await h.control.post('/accounts', { basePath: '/v1' })).status).toBe(400);
		expect((await h.control.post('/accounts', { apiKey: 'ca-key' })).status).toBe(400);
	});

	it('counts API requests per route template and per key', async () => {
		await h.control.post('/stats/reset');
		const formId = h.sandbox.demo.formIds[0];
		await h.api.get('/forms');
		await h.api.get(`/forms/${formId}/submissions`);
		await h.api.get(`/forms/${formId}/submissions`);
		await call('GET', `${h.sandbox.apiRoot}/forms`);
		const stats = (await h.control.get('/stats')).body;
		expect(stats.total).toBe(4);
		expect(stats.requests).toEqual({
			'GET /v1/api/forms': 2,
			'GET /v1/api/forms/:formId/submissions': 2,
		});
		expect(stats.byKey[h.sandbox.demo.apiKey].total).toBe(3);
		expect(stats.byKey['ip:127.0.0.1'].total).toBe(1);
	});

	it('resets to the seed', async () => {
		const formId = await freshForm(h.control);
		expect((await h.api.get(`/forms/${formId}`)).status).toBe(200);
		await h.control.post('/faults', { latencyMs: 10 });
		expect((await h.control.post('/reset')).status).toBe(200);
		expect((await h.api.get(`/forms/${formId}`)).status).toBe(404);
		expect((await h.api.get('/forms')).body.map((f: Json) => f.formId)).toEqual(
			h.sandbox.demo.formIds,
		);
		expect((await h.control.get('/faults')).body.latencyMs).toBe(0);
		expect((await h.control.get('/webhooks')).body).toEqual([]);
	});

	it('answers unknown control routes with 404', async () => {
		expect((await h.control.get('/nothing')).status).toBe(404);
	});
});
