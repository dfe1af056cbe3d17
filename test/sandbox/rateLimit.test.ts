/** Rate limiting: 5/s per key like the live service, its 429 and headers, isolation, and turning it off. */
import { startSandbox } from '../../sandbox';
import {
	apiClient,
	call,
	harnessFor,
	sleep,
	startHarness,
	type Harness,
	type HttpResult,
} from './support';

/** Limits are per bearer value: each test takes its own key, so no test waits for another's window. */
const KEYS = ['rl-key-1', 'rl-key-2', 'rl-key-3', 'rl-key-4', 'rl-key-5', 'rl-key-6', 'rl-key-7'];

const burst = (n: number, send: () => Promise<HttpResult>) =>
	Promise.all(Array.from({ length: n }, send));

describe('with the default limit of 5 per second', () => {
	let h: Harness;
	const client = (key: string) => apiClient(h.sandbox.apiRoot, key);
	beforeAll(async () => {
		h = harnessFor(await startSandbox({ port: 0, apiKeys: KEYS }));
	});
	afterAll(() => h.sandbox.close());

	it('lets exactly 5 of a burst of 8 through and refuses the rest with the live 429', async () => {
		const results = await burst(8, () => client(KEYS[0]).get('/forms'));
		expect(results.filter((r) => r.status === 200)).toHaveLength(5);
		const refused = results.filter((r) => r.status === 429);
		expect(refused).toHaveLength(3);
		for (const r of refused) {
			expect(r.body).toEqual({
				statusCode: 429,
				error: 'Too Many Requests',
				message: 'Too many requests. Try again soon.',
			});
			expect(r.headers.get('retry-after')).toBe('1');
			expect(r.headers.get('ratelimit-remaining')).toBe('0');
			expect(r.headers.get('ratelimit-limit')).toBe('5');
			expect(r.headers.get('ratelimit-policy')).toBe('5;w=1');
		}
		const remaining = results
			.filter((r) => r.status === 200)
			.map((r) => Number(r.headers.get('ratelimit-remaining')));
		expect(remaining.sort()).toEqual([0, 1, 2, 3, 4]);
	});

	it('sends the rate-limit headers on every API answer, errors included', async () => {
		const answers = [
			await client(KEYS[1]).get('/forms'),
			await client(KEYS[1]).get('/forms/unknown'),
			await call('GET', `${h.sandbox.apiRoot}/forms`, {
				headers: { authorization: 'Bearer not-a-key' },
			}),
		];
		expect(answers.map((a) => a.status)).toEqual([200, 404, 400]);
		for (const a of answers) {
			expect(a.headers.get('ratelimit-limit')).toBe('5');
			expect(a.headers.get('ratelimit-policy')).toBe('5;w=1');
			expect(a.headers.get('ratelimit-reset')).toBe('1');
			expect(a.headers.get('ratelimit-remaining')).toMatch(/^[0-4]$/);
		}
	});

	it('opens a new window after a second', async () => {
		const first = await burst(6, () => client(KEYS[2]).get('/forms'));
		expect(first.filter((r) => r.status === 429)).toHaveLength(1);
		await sleep(1050);
		expect((await client(KEYS[2]).get('/forms')).status).toBe(200);
	});

	it('limits each key on its own, and unauthenticated callers by address', async () => {
		await burst(5, () => client(KEYS[3]).get('/forms'));
		expect((await client(KEYS[3]).get('/forms')).status).toBe(429);
		expect((await client(KEYS[4]).get('/forms')).status).toBe(200);
		const anonymous = await burst(7, () => call('GET', `${h.sandbox.apiRoot}/forms`));
		expect(anonymous.filter((r) => r.status === 400)).toHaveLength(5);
		expect(anonymous.filter((r) => r.status === 429)).toHaveLength(2);
	});

	it('does not limit OAuth or control endpoints', async () => {
		const control = await burst(12, () => h.control.get('/info'));
		expect(control.every((r) => r.status === 200)).toBe(true);
		const token = await burst(12, () =>
			call('POST', `${h.sandbox.origin}/public/oauth/accessToken`, { json: {} }),
		);
		expect(token.every((r) => r.status === 400)).toBe(true);
		expect(token[0].headers.get('ratelimit-limit')).toBeNull();
	});

	it('counts refused requests in the stats, per key', async () => {
		await h.control.post('/stats/reset');
		const sentAt = Date.now();
		await burst(7, () => client(KEYS[5]).get('/forms'));
		const stats = (await h.control.get('/stats')).body;
		expect(stats.rateLimited).toBe(2);
		expect(stats.byKey[KEYS[5]]).toEqual({
			total: 7,
			rateLimited: 2,
			requests: { 'GET /v1/api/forms': 7 },
			refused: { 'GET /v1/api/forms': 2 },
			// Counted only while latency is added (none here).
			mostAtOnce: 0,
			firstAt: expect.any(Number),
		});
		const { firstAt } = stats.byKey[KEYS[5]];
		expect(firstAt).toBeGreaterThanOrEqual(sentAt);
		expect(firstAt).toBeLessThanOrEqual(Date.now());
		// The first request's time stays until the next reset.
		await sleep(20);
		await client(KEYS[5]).get('/forms');
		expect((await h.control.get('/stats')).body.byKey[KEYS[5]].firstAt).toBe(firstAt);
	});

	it('places each request of a key in time, refused ones marked, until the stats are reset', async () => {
		await h.control.post('/stats/reset');
		const sentAt = Date.now();
		await burst(6, () => client(KEYS[6]).get('/forms'));
		await sleep(1050);
		await client(KEYS[6]).get('/forms');
		const timeline = (
			await h.control.get<Array<[number, number]>>(`/stats/timeline?key=${KEYS[6]}`)
		).body;
		expect(timeline.map(([, refused]) => refused)).toEqual([0, 0, 0, 0, 0, 1, 0]);
		expect(timeline[0][0]).toBeGreaterThanOrEqual(sentAt);
		expect(timeline[6][0] - timeline[5][0]).toBeGreaterThanOrEqual(1000);
		expect((await h.control.get(`/stats/timeline?key=${KEYS[3]}`)).body).toEqual([]);
		await h.control.post('/stats/reset');
		expect((await h.control.get(`/stats/timeline?key=${KEYS[6]}`)).body).toEqual([]);
	});
});

describe('with another limit', () => {
	it('applies the configured limit and names it in the policy header', async () => {
		const h = await startHarness({ rateLimit: 2 });
		try {
			const results = await burst(4, () => h.api.get('/forms'));
			expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
			expect(results[0].headers.get('ratelimit-policy')).toBe('2;w=1');
		} finally {
			await h.sandbox.close();
		}
	});

	it('turns limiting off with 0: no 429s and no rate-limit headers', async () => {
		const h = await startHarness({ rateLimit: 0 });
		try {
			const results = await burst(30, () => h.api.get('/forms'));
			expect(results.every((r) => r.status === 200)).toBe(true);
			expect(results[0].headers.get('ratelimit-limit')).toBeNull();
		} finally {
			await h.sandbox.close();
		}
	});
});

describe('announcing a limit it does not keep (a proxy or a misread plan)', () => {
	it('announces the false limit and keeps the true one, with what the true window has left', async () => {
		const h = await startHarness({ rateLimit: 5, announcedLimit: 1000 });
		try {
			const results = await burst(8, () => h.api.get('/forms'));
			expect(results.filter((r) => r.status === 429)).toHaveLength(3);
			for (const r of results) {
				expect(r.headers.get('ratelimit-limit')).toBe('1000');
				expect(r.headers.get('ratelimit-policy')).toBe('1000;w=1');
			}
			const remaining = results.map((r) => Number(r.headers.get('ratelimit-remaining')));
			expect(remaining.sort()).toEqual([0, 0, 0, 0, 1, 2, 3, 4]);
		} finally {
			await h.sandbox.close();
		}
	});
});
