import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import {
	BACKOFF_BASE_MS,
	deletedByEarlierAttempt,
	isTransient,
	RATE_LIMIT_BUDGET_MS,
	RATE_LIMIT_JITTER_CAP_MS,
	rateLimitDelay,
	MAX_TRANSIENT_RETRIES,
	networkFailureOf,
	neverReachedService,
	retryAfterMs,
	retryDecision,
} from '../../../nodes/Fillout/transport/retry';

const none = { rateLimited: 0, transient: 0, elapsedMs: 0 };
const noJitter = () => 0;

describe('retryDecision', () => {
	it('waits at least retry-after on 429, for reads and creates alike, within a time budget', () => {
		for (const safety of ['repeatable', 'once'] as const) {
			expect(
				retryDecision({ statusCode: 429, retryAfter: '2' }, safety, none, 0, noJitter),
			).toEqual({ retry: true, delayMs: 2000, reason: 'rateLimit' });
		}
		// Not a fixed count: the 20th 429 is still retried while the budget lasts.
		const late = { rateLimited: 20, transient: 0, elapsedMs: 30_000 };
		expect(retryDecision({ statusCode: 429 }, 'repeatable', late, 0, noJitter).retry).toBe(true);
		const spent = { rateLimited: 1, transient: 0, elapsedMs: RATE_LIMIT_BUDGET_MS - 999 };
		expect(retryDecision({ statusCode: 429 }, 'repeatable', spent, 0, noJitter)).toEqual({
			retry: false,
		});
	});

	it('retries 5xx and broken connections of repeatable requests with exponential backoff, 4 attempts', () => {
		const failures = [
			{ statusCode: 500 },
			{ statusCode: 503 },
			{ networkCode: 'ECONNRESET' },
			{ networkCode: 'ETIMEDOUT' },
			{ networkMessage: 'socket hang up' },
			{ networkCode: 'ECONNREFUSED' },
		];
		for (const failure of failures) {
			const delays = [0, 1, 2].map((transient) =>
				retryDecision(failure, 'repeatable', { rateLimited: 0, transient, elapsedMs: 0 }, 0),
			);
			expect(delays).toEqual(
				[1, 2, 4].map((k) => ({ retry: true, delayMs: BACKOFF_BASE_MS * k, reason: 'transient' })),
			);
			expect(
				retryDecision(
					failure,
					'repeatable',
					{ rateLimited: 0, transient: MAX_TRANSIENT_RETRIES, elapsedMs: 0 },
					0,
				),
			).toEqual({ retry: false });
		}
	});

	it('sends a create again only when the service certainly did not process it', () => {
		expect(retryDecision({ networkCode: 'ECONNREFUSED' }, 'once', none, 0).retry).toBe(true);
		for (const failure of [
			{ statusCode: 500 },
			{ statusCode: 502 },
			{ networkCode: 'ECONNRESET' },
			{ networkCode: 'ETIMEDOUT' },
			{ networkMessage: 'socket hang up' },
		]) {
			expect(retryDecision(failure, 'once', none, 0)).toEqual({ retry: false });
			expect(neverReachedService(failure)).toBe(false);
		}
		expect(neverReachedService({ statusCode: 429 })).toBe(true);
	});

	it('never retries client errors', () => {
		for (const statusCode of [400, 401, 404, 422]) {
			expect(retryDecision({ statusCode }, 'repeatable', none, 0)).toEqual({ retry: false });
		}
	});
});

describe('rateLimitDelay', () => {
	it('adds full jitter over a span that doubles per 429, capped', () => {
		const spans = [0, 1, 2, 3, 4, 10].map((rateLimited) =>
			rateLimitDelay('1', { rateLimited, transient: 0, elapsedMs: 0 }, 0, () => 1),
		);
		expect(spans).toEqual([1500, 2000, 3000, 5000, 1000 + RATE_LIMIT_JITTER_CAP_MS, 5000]);
		expect(rateLimitDelay('1', none, 0, () => 0)).toBe(1000);
		expect(rateLimitDelay('1', none, 0, () => 0.5)).toBe(1250);
	});

	it('gives up at once when the service asks for a wait beyond the budget', () => {
		expect(rateLimitDelay('61', none, 0, noJitter)).toBeUndefined();
		expect(rateLimitDelay('59', none, 0, noJitter)).toBe(59_000);
	});

	it('never waits less than retry-after, whatever the random draw (randomized)', () => {
		for (let i = 0; i < 1000; i++) {
			const retryAfter = String(Math.floor(Math.random() * 5));
			const counts = { rateLimited: i % 12, transient: 0, elapsedMs: 0 };
			const delay = rateLimitDelay(retryAfter, counts, 0, Math.random) ?? -1;
			expect(delay).toBeGreaterThanOrEqual(Number(retryAfter) * 1000);
			expect(delay).toBeLessThanOrEqual(Number(retryAfter) * 1000 + RATE_LIMIT_JITTER_CAP_MS);
		}
	});
});

describe('retryAfterMs', () => {
	it('reads seconds or an HTTP date, defaulting to one second and capping at a minute', () => {
		expect(retryAfterMs('1', 0)).toBe(1000);
		expect(retryAfterMs('0.5', 0)).toBe(500);
		expect(retryAfterMs(undefined, 0)).toBe(1000);
		expect(retryAfterMs('soon', 0)).toBe(1000);
		expect(retryAfterMs('3600', 0)).toBe(60_000);
		const now = Date.UTC(2024, 0, 1);
		expect(retryAfterMs(new Date(now + 3000).toUTCString(), now)).toBe(3000);
	});
});

describe('deletedByEarlierAttempt', () => {
	it('takes "not found" after an attempt that may have been processed as done', () => {
		expect(deletedByEarlierAttempt({ statusCode: 404 }, [{ networkCode: 'ECONNRESET' }])).toBe(
			true,
		);
		expect(deletedByEarlierAttempt({ statusCode: 404 }, [{ statusCode: 502 }])).toBe(true);
	});

	it('keeps "not found" when no earlier attempt can have deleted anything', () => {
		expect(deletedByEarlierAttempt({ statusCode: 404 }, [])).toBe(false);
		expect(
			deletedByEarlierAttempt({ statusCode: 404 }, [
				{ statusCode: 429 },
				{ networkCode: 'ECONNREFUSED' },
			]),
		).toBe(false);
	});

	it('is about "not found" only', () => {
		expect(deletedByEarlierAttempt({ statusCode: 500 }, [{ networkCode: 'ECONNRESET' }])).toBe(
			false,
		);
	});
});

describe('networkFailureOf', () => {
	const node: INode = {
		id: 'node',
		name: 'Fillout',
		type: 'n8n-nodes-fillout-forms.fillout',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};

	/** What n8n's request helper throws when the connection broke: the HTTP client's error wrapped. */
	function wrapped(code: string, message: string): NodeApiError {
		const clientError = Object.assign(new Error(message), {
			code,
			config: { headers: { Authorization: 'Bearer sk_prod_secret' } },
		});
		return new NodeApiError(node, clientError as unknown as JsonObject);
	}

	/**
	 * n8n 1.x throws the same NodeApiError, but its `cause` is gone: n8n-workflow 1.x
	 * declares `cause` as a class field, which resets it after the constructor set it.
	 */
	function asN8nV1(error: NodeApiError): NodeApiError {
		Object.defineProperty(error, 'cause', { value: undefined });
		return error;
	}

	it('reads the network code from the wrapped error (n8n 2.x)', () => {
		const failure = networkFailureOf(wrapped('ECONNRESET', 'socket hang up'));
		expect(failure.networkCode).toBe('ECONNRESET');
		expect(isTransient(failure)).toBe(true);
	});

	it('reads the network code n8n 1.x keeps as httpCode when it dropped the wrapped error', () => {
		const reset = asN8nV1(wrapped('ECONNRESET', 'socket hang up'));
		expect(reset.cause).toBeUndefined();
		expect(reset.message).not.toMatch(/socket hang up/);
		const failure = networkFailureOf(reset);
		expect(failure.networkCode).toBe('ECONNRESET');
		expect(isTransient(failure)).toBe(true);

		const refused = networkFailureOf(asN8nV1(wrapped('ECONNREFUSED', 'connect ECONNREFUSED')));
		expect(refused.networkCode).toBe('ECONNREFUSED');
		// Never connected: even a create may be sent again.
		expect(neverReachedService(refused)).toBe(true);
	});

	it('takes no HTTP status for a network code, and nothing but the code and the message', () => {
		const gateway = asN8nV1(new NodeApiError(node, { message: 'Bad gateway', httpCode: '502' }));
		expect(networkFailureOf(gateway).networkCode).toBeUndefined();
		const failure = networkFailureOf(wrapped('ECONNRESET', 'socket hang up'));
		expect(Object.keys(failure).sort()).toEqual(['networkCode', 'networkMessage']);
		expect(JSON.stringify(failure)).not.toContain('sk_prod_secret');
	});
});
