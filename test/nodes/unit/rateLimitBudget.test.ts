import type { IExecuteFunctions } from 'n8n-workflow';

import { filloutRequest, sendFilloutRequest } from '../../../nodes/Fillout/transport';

/**
 * The 429 retry budget of the transport under mocked time (jest's fake timers, which
 * also drive performance.now()): a storm of `retry-after: 20` gives up after about a
 * minute with a clear error, and a storm that has cut this process's shared-key rate is
 * still retried, since waiting for its own pacing is not the service refusing. Last, the
 * pacing is per credential: two credentials on one host do not wait for each other.
 * The service is a stub that answers 429 (with Fillout's headers) a given number of times.
 */

interface Storm {
	ctx: IExecuteFunctions;
	/** Simulated time of each attempt, in ms since the storm began. */
	attempts: number[];
}

function storm(credentialId: string, refusals: number, retryAfter: string): Storm {
	const began = performance.now();
	const attempts: number[] = [];
	const ctx = {
		getNode: () => ({
			name: 'Fillout',
			type: 'n8n-nodes-fillout-forms.fillout',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { filloutFormsApi: { id: credentialId, name: credentialId } },
		}),
		getCredentials: async () => ({ apiKey: 'secret', region: 'us' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				attempts.push(performance.now() - began);
				if (attempts.length <= refusals) {
					return {
						statusCode: 429,
						headers: {
							'retry-after': retryAfter,
							'ratelimit-limit': '5',
							'ratelimit-remaining': '0',
						},
						body: { message: 'Too many requests. Try again soon.' },
					};
				}
				return {
					statusCode: 200,
					headers: { 'ratelimit-limit': '5', 'ratelimit-remaining': '4' },
					body: { forms: [] },
				};
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, attempts };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('a storm of retry-after: 20 gives up after about a minute, with a clear error', async () => {
	const { ctx, attempts } = storm('storm-20', Infinity, '20');
	let settled: unknown;
	const request = filloutRequest(ctx, { method: 'GET', path: '/forms' }).then(
		() => (settled = 'answered'),
		(error: Error) => (settled = error),
	);
	await jest.advanceTimersByTimeAsync(180_000);
	// A budget whose time never advanced would still be retrying here, every 20 s.
	expect(settled).toBeInstanceOf(Error);
	await request;
	const error = settled as Error & { description?: string };
	expect(error.message).toMatch(/rate limit .*still exceeded after retrying/);
	expect(error.description).toContain(`Gave up after ${attempts.length} attempts`);
	// 20 s and a little jitter apart: 0, ~20, ~41; the next wait would end past the minute.
	expect(attempts).toHaveLength(3);
	expect(attempts[2]).toBeGreaterThanOrEqual(40_000);
	expect(attempts[2]).toBeLessThan(60_000);
});

it('keeps retrying a storm that has cut the rate: waiting for its own pacing is not spent budget', async () => {
	// 14 refusals at retry-after: 1 cut this credential's rate to its floor (a request every
	// 20 s): over 80 s pass, most of them waiting for the pacer, before the 15th attempt.
	const { ctx, attempts } = storm('storm-1', 14, '1');
	let outcome: Awaited<ReturnType<typeof sendFilloutRequest>> | undefined;
	const request = sendFilloutRequest(ctx, { method: 'GET', path: '/forms' }).then(
		(result) => (outcome = result),
	);
	await jest.advanceTimersByTimeAsync(600_000);
	await request;
	expect(outcome?.ok).toBe(true);
	expect(attempts).toHaveLength(15);
	expect(attempts[14]).toBeGreaterThan(60_000);
});

describe('pacing per credential', () => {
	const fiveRequests = (ctx: IExecuteFunctions) =>
		Array.from({ length: 5 }, () => filloutRequest(ctx, { method: 'GET', path: '/forms' }));

	it('lets two credentials send their first 5 requests at once', async () => {
		const first = storm('pacing-first', 0, '1');
		const second = storm('pacing-second', 0, '1');
		const requests = [...fiveRequests(first.ctx), ...fiveRequests(second.ctx)];
		await jest.advanceTimersByTimeAsync(5_000);
		await Promise.all(requests);
		// Neither waited: a window of 5 shared by both would hold the second five back a second.
		expect([...first.attempts, ...second.attempts]).toHaveLength(10);
		expect(Math.max(...first.attempts, ...second.attempts)).toBeLessThan(100);
	});

	it('holds the 6th request of one credential until its window has room', async () => {
		const { ctx, attempts } = storm('pacing-single', 0, '1');
		const requests = [...fiveRequests(ctx), filloutRequest(ctx, { method: 'GET', path: '/forms' })];
		await jest.advanceTimersByTimeAsync(5_000);
		await Promise.all(requests);
		expect(attempts).toHaveLength(6);
		expect(Math.max(...attempts.slice(0, 5))).toBeLessThan(100);
		expect(attempts[5]).toBeGreaterThanOrEqual(1_000);
	});
});
