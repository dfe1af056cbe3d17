import type { IExecuteFunctions } from 'n8n-workflow';

import { filloutRequest } from '../../../nodes/Fillout/transport';
import { transportContext } from './support/transportContext';

/**
 * The transport's retries and deadline under mocked time (jest's fake timers, which also
 * drive performance.now()): no attempt of a request starts later than 2 minutes after the
 * node asked for it, its waits in the credential's line included, so a storm ends with a
 * clear error however many requests wait (docs/rate-limits.md, "Retries"); a
 * cancelled execution's requests leave the line unsent. Last, the pacing is per
 * credential: two credentials on one host do not wait for each other. The service is a
 * stub that answers 429 (with Fillout's headers) a given number of times.
 */

interface Storm {
	ctx: IExecuteFunctions;
	/** Simulated time of each attempt, in ms since the storm began. */
	attempts: number[];
}

/** As n8n's request helper: a request of a cancelled execution is refused before it is sent. */
function cancelledError(): Error {
	return Object.assign(new Error('canceled'), { code: 'ERR_CANCELED' });
}

function storm(
	credentialId: string,
	refusals: number,
	retryAfter: string,
	signal?: AbortSignal,
): Storm {
	const began = performance.now();
	const attempts: number[] = [];
	const answer = async () => {
		if (signal?.aborted) throw cancelledError();
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
	};
	const ctx = transportContext(
		credentialId,
		answer,
		signal ? { getExecutionCancelSignal: () => signal } : {},
	);
	return { ctx, attempts };
}

/** When each request settled, in ms of simulated time since `began`, and how. */
function settling<T>(requests: Array<Promise<T>>, began = performance.now()) {
	const settled: Array<{ atMs: number; error?: Error & { description?: string } }> = [];
	const all = requests.map((request) =>
		request.then(
			() => settled.push({ atMs: performance.now() - began }),
			(error: Error) => settled.push({ atMs: performance.now() - began, error }),
		),
	);
	return { settled, all: Promise.all(all) };
}

const getForms = (ctx: IExecuteFunctions) => filloutRequest(ctx, { method: 'GET', path: '/forms' });

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

it('a storm of retry-after: 20 gives up within 2 minutes, with an error that says so', async () => {
	const { ctx, attempts } = storm('storm-20', Infinity, '20');
	const { settled, all } = settling([getForms(ctx)]);
	await jest.advanceTimersByTimeAsync(120_000);
	expect(settled).toHaveLength(1);
	await all;
	const { error } = settled[0];
	expect(error?.message).toBe(
		'Fillout’s rate limit (5 requests per second) was still exceeded after retrying',
	);
	expect(error?.description).toBe(
		`Gave up after ${attempts.length} attempts: a request is sent only while that can happen within 2 minutes of when the node asked for it, its waits behind the credential’s other requests included. A wait of a minute or more, when Fillout asks for it, is not retried. Other workflows or n8n processes may be using the same account: spread them out or run fewer at once.`,
	);
	// 20 s and up to 4 s of jitter apart: 5 or 6 attempts, the last before 2 minutes.
	expect(attempts.length).toBeGreaterThanOrEqual(5);
	expect(attempts.length).toBeLessThanOrEqual(6);
	expect(attempts[attempts.length - 1]).toBeLessThan(120_000);
});

it('widens the jitter after each 429 of a request (0.5, 1, 2, 4 s at most)', async () => {
	jest.spyOn(Math, 'random').mockReturnValue(1);
	const { ctx, attempts } = storm('jitter', 4, '1');
	const { settled, all } = settling([getForms(ctx)]);
	await jest.advanceTimersByTimeAsync(20_000);
	await all;
	expect(settled[0].error).toBeUndefined();
	// retry-after (1 s) plus the whole span: 1.5, 2, 3 and 5 s after each refusal.
	expect(attempts).toEqual([0, 1_500, 3_500, 6_500, 11_500]);
});

it('a storm that has cut the rate is still retried while there is time', async () => {
	// 10 refusals at retry-after: 1 cut this credential's rate to its floor (a request every
	// 20 s): the 11th attempt succeeds after half a minute, most of it spent in the line.
	const { ctx, attempts } = storm('storm-1', 10, '1');
	const { settled, all } = settling([getForms(ctx)]);
	await jest.advanceTimersByTimeAsync(120_000);
	await all;
	expect(settled[0].error).toBeUndefined();
	expect(attempts).toHaveLength(11);
	expect(attempts[10]).toBeGreaterThan(30_000);
});

describe('the deadline holds however many requests wait in the line', () => {
	it.each([1, 5, 20])(
		'%i request(s) in a storm that never ends: each gives up within 2 minutes',
		async (count) => {
			const { ctx, attempts } = storm(`storm-line-${count}`, Infinity, '1');
			const { settled, all } = settling(Array.from({ length: count }, () => getForms(ctx)));
			await jest.advanceTimersByTimeAsync(120_000);
			// All asked at 0: every one has settled by 2 minutes (the stub answers at once).
			expect(settled).toHaveLength(count);
			await all;
			expect(Math.max(...attempts)).toBeLessThan(120_000);
			for (const { atMs, error } of settled) {
				expect(atMs).toBeLessThanOrEqual(120_000);
				expect(error?.message).toMatch(/rate limit/);
			}
		},
	);

	it('one that never had a turn says it was never sent', async () => {
		const { ctx, attempts } = storm('storm-never', Infinity, '1');
		const { settled, all } = settling(Array.from({ length: 20 }, () => getForms(ctx)));
		await jest.advanceTimersByTimeAsync(120_000);
		await all;
		const never = settled.filter(({ error }) => error?.description?.startsWith('Never sent'));
		// At the floor's one start per 20 s, 20 requests cannot all be sent in 2 minutes.
		expect(attempts.length).toBeLessThan(60);
		expect(never.length).toBeGreaterThan(0);
		expect(never[0].error?.message).toBe(
			'The request waited too long for its turn within Fillout’s rate limit (5 requests per second)',
		);
	});
});

describe('a cancelled execution', () => {
	it('takes its queued requests out of the line unsent, and the others go on at once', async () => {
		const cancel = new AbortController();
		const cancelled = storm('cancel-line', 0, '1', cancel.signal);
		const other = storm('cancel-line', 0, '1');
		const queued = settling(Array.from({ length: 20 }, () => getForms(cancelled.ctx)));
		await jest.advanceTimersByTimeAsync(10);
		// The first 5 went out in the first window; 15 wait for the next.
		expect(cancelled.attempts).toHaveLength(5);
		cancel.abort();
		const next = settling([getForms(other.ctx)]);
		await jest.advanceTimersByTimeAsync(10);
		expect(queued.settled).toHaveLength(20);
		await queued.all;
		expect(cancelled.attempts).toHaveLength(5);
		expect(queued.settled.filter(({ error }) => error).map(({ error }) => error?.message)).toEqual(
			Array(15).fill('The execution was cancelled before Fillout answered'),
		);
		// The other execution's request takes the next window's first place, not the 16th.
		await jest.advanceTimersByTimeAsync(2_000);
		await next.all;
		expect(other.attempts).toHaveLength(1);
		expect(other.attempts[0]).toBeLessThan(1_100);
	});

	it('does not send a request again once it is cancelled during a retry-after wait', async () => {
		const cancel = new AbortController();
		const { ctx, attempts } = storm('cancel-wait', Infinity, '20', cancel.signal);
		const { settled, all } = settling([getForms(ctx)]);
		await jest.advanceTimersByTimeAsync(5_000);
		cancel.abort();
		await jest.advanceTimersByTimeAsync(1);
		expect(settled).toHaveLength(1);
		await all;
		expect(attempts).toEqual([0]);
		expect(settled[0].error?.message).toBe('The execution was cancelled before Fillout answered');
	});
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
