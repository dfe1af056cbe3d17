/** Fault injection through POST/DELETE /_sandbox/faults: latency, forced statuses, dropped connections. */
import { freshForm, useHarness } from './support';

let formId: string;
let questionId: string;
const h = useHarness();
beforeAll(async () => {
	formId = await freshForm(h.control);
	questionId = (await h.api.get(`/forms/${formId}`)).body.questions[0].id;
});
afterEach(() => h.control.delete('/faults'));

const total = async () =>
	(await h.api.get(`/forms/${formId}/submissions`)).body.totalResponses as number;
const create = () =>
	h.api.post(`/forms/${formId}/submissions`, {
		submissions: [{ questions: [{ id: questionId, value: 'x' }] }],
	});

it('adds latency to every API call until cleared', async () => {
	const latencyMs = 500;
	const timed = async (work: () => Promise<unknown>) => {
		const started = Date.now();
		await work();
		return Date.now() - started;
	};
	expect((await h.control.post('/faults', { latencyMs })).body.latencyMs).toBe(latencyMs);
	expect(await timed(() => h.api.get('/forms'))).toBeGreaterThanOrEqual(latencyMs - 10);
	expect(await timed(() => h.control.get('/info'))).toBeLessThan(latencyMs);
	await h.control.delete('/faults');
	expect(await timed(() => h.api.get('/forms'))).toBeLessThan(latencyMs);
});

it('adds up to latencyJitterMs more at random, each call its own', async () => {
	const timed = async () => {
		const started = performance.now();
		await h.api.get('/forms');
		return performance.now() - started;
	};
	const set = await h.control.post('/faults', { latencyMs: 100, latencyJitterMs: 200 });
	expect(set.body).toMatchObject({ latencyMs: 100, latencyJitterMs: 200 });
	const took = await Promise.all(Array.from({ length: 12 }, timed));
	// Never less than the latency; the most is not checked (a busy machine adds its own).
	for (const ms of took) expect(ms).toBeGreaterThanOrEqual(99);
	// Twelve draws from 200 ms of jitter: the chance that all land within 40 ms is below 1e-7,
	// or that none is under 180 ms (all would be 300 ms with the whole jitter every time).
	expect(Math.max(...took) - Math.min(...took)).toBeGreaterThan(40);
	expect(Math.min(...took)).toBeLessThan(100 + 180);
	await h.control.delete('/faults');
	expect((await h.control.get('/faults')).body.latencyJitterMs).toBe(0);
});

it('forces a status for the next N calls, in the usual body, without processing them', async () => {
	const before = await total();
	await h.control.post('/faults', { failNext: { count: 2, status: 503 } });
	const first = await create();
	expect(first.status).toBe(503);
	expect(first.body).toEqual({
		statusCode: 503,
		error: 'Service Unavailable',
		message: expect.any(String),
	});
	expect((await h.api.get('/forms')).status).toBe(503);
	expect(await total()).toBe(before);
	expect((await create()).status).toBe(200);
	expect(await total()).toBe(before + 1);
});

it('forces a given body, and a 429 with retry-after', async () => {
	await h.control.post('/faults', {
		failNext: [
			{
				count: 1,
				status: 400,
				body: { statusCode: 400, error: 'Bad Request', message: 'API Key invalid' },
			},
			{ count: 1, status: 429 },
		],
	});
	const first = await h.api.get('/forms');
	expect(first.status).toBe(400);
	expect(first.body.message).toBe('API Key invalid');
	const second = await h.api.get('/forms');
	expect(second.status).toBe(429);
	expect(second.headers.get('retry-after')).toBe('1');
	expect(second.body).toEqual({
		statusCode: 429,
		error: 'Too Many Requests',
		message: 'Too many requests. Try again soon.',
	});
});

it('forces a plain-text body', async () => {
	await h.control.post('/faults', {
		failNext: { count: 1, status: 400, text: 'Bad Request: no.' },
	});
	const res = await h.api.get('/forms');
	expect(res.status).toBe(400);
	expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
	expect(res.text).toBe('Bad Request: no.');
});

it('can answer a processed create with fewer submissions than it made', async () => {
	const before = await total();
	await h.control.post('/faults', { truncateNext: { count: 1, method: 'POST', keep: 1 } });
	const one = { questions: [{ id: questionId, value: 'x' }] };
	const createThree = () =>
		h.api.post(`/forms/${formId}/submissions`, { submissions: [one, one, one] });
	const res = await createThree();
	expect(res.status).toBe(200);
	expect(res.body.submissions).toHaveLength(1);
	expect(await total()).toBe(before + 3);
	expect((await createThree()).body.submissions).toHaveLength(3);
});

it('matches calls by method and path pattern', async () => {
	await h.control.post('/faults', {
		failNext: { count: 1, status: 500, method: 'post', pathPattern: '/forms/[^/]+/submissions$' },
	});
	expect((await h.api.get(`/forms/${formId}/submissions`)).status).toBe(200);
	expect(
		(await h.api.post('/webhook/create', { formId, url: 'https://example.com/x' })).status,
	).toBe(200);
	expect((await create()).status).toBe(500);
	expect((await h.control.get('/faults')).body.failNext).toEqual([]);
});

it('matches calls by body pattern', async () => {
	const createWith = (value: string) =>
		h.api.post(`/forms/${formId}/submissions`, {
			submissions: [{ questions: [{ id: questionId, value }] }],
		});
	await h.control.post('/faults', {
		failNext: { count: 1, status: 500, bodyPattern: '"Person 12"' },
	});
	expect((await h.control.get('/faults')).body.failNext[0].bodyPattern).toBe('"Person 12"');
	expect((await createWith('Person 1')).status).toBe(200);
	expect((await createWith('Person 120')).status).toBe(200);
	expect((await createWith('Person 12')).status).toBe(500);
	expect((await createWith('Person 12')).status).toBe(200);
});

it('drops the connection without processing the call', async () => {
	const before = await total();
	await h.control.post('/faults', { dropNext: { count: 1, method: 'POST' } });
	await expect(create()).rejects.toThrow();
	expect(await total()).toBe(before);
	expect((await create()).status).toBe(200);
});

it('can drop the connection after processing the call ("maybe processed")', async () => {
	const before = await total();
	await h.control.post('/faults', { dropAfterProcessingNext: { count: 1, method: 'POST' } });
	await expect(create()).rejects.toThrow();
	expect(await total()).toBe(before + 1);
});

it('never touches OAuth or control calls', async () => {
	await h.control.post('/faults', { failNext: { count: 5, status: 500 }, dropNext: { count: 5 } });
	expect((await h.control.get('/info')).status).toBe(200);
	const token = await fetch(`${h.sandbox.origin}/public/oauth/accessToken`, { method: 'POST' });
	expect(token.status).toBe(400);
	expect((await h.control.get('/faults')).body.dropNext[0].remaining).toBe(5);
});

it.each([
	[{ latencyMs: -1 }, /^latencyMs /],
	[{ latencyJitterMs: -5 }, /^latencyJitterMs /],
	[{ latencyJitterMs: '40' }, /^latencyJitterMs /],
	[{ failNext: { count: 1, status: 99 } }, /^failNext.status /],
	[{ failNext: { count: 0, status: 500 } }, /^failNext.count /],
	[{ dropNext: { count: 1, pathPattern: '(' } }, /^dropNext.pathPattern /],
	[{ dropNext: { count: 1, bodyPattern: 5 } }, /^dropNext.bodyPattern /],
	[{ dropNext: 'yes' }, /^dropNext must be /],
	[{ failNext: { count: 1, status: 400, text: 5 } }, /^failNext.text /],
	[{ failNext: { count: 1, status: 400, text: 'x', body: {} } }, /^failNext.text /],
	[{ truncateNext: { count: 1, keep: -1 } }, /^truncateNext.keep /],
])('refuses a bad fault %j with 400 and changes nothing', async (body, message) => {
	const res = await h.control.post('/faults', { latencyMs: 5, ...body });
	expect(res.status).toBe(400);
	expect(res.body.message).toMatch(message);
	expect((await h.control.get('/faults')).body.latencyMs).toBe(0);
});
