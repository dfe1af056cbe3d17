import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';

import {
	deletedByEarlierAttempt,
	isTransient,
	rateLimitDelay,
	networkFailureOf,
	neverReachedService,
	retryAfterMs,
	RetryBudget,
	retryDecision,
} from '../../../nodes/Fillout/transport/retry';

/**
 * Expected values are the documented figures (docs/rate-limits.md, "Retries"),
 * written out: a changed constant fails here.
 */
const none = { rateLimited: 0, transient: 0, elapsedMs: 0 };
const noJitter = () => 0;
const fullJitter = () => 1;

describe('retryDecision', () => {
	it('waits at least retry-after on 429, for reads and creates alike, while the next attempt can start in time', () => {
		for (const safety of ['repeatable', 'once'] as const) {
			expect(
				retryDecision({ statusCode: 429, retryAfter: '2' }, safety, none, 0, noJitter),
			).toEqual({ retry: true, delayMs: 2000, reason: 'rateLimit' });
		}
		// Not a fixed count: the 20th 429 is still retried while there is time.
		const late = { rateLimited: 20, transient: 0, elapsedMs: 100_000 };
		expect(retryDecision({ statusCode: 429 }, 'repeatable', late, 0, noJitter).retry).toBe(true);
		// The next attempt must start before 2 minutes since the node asked.
		const almost = { rateLimited: 1, transient: 0, elapsedMs: 118_999 };
		expect(retryDecision({ statusCode: 429 }, 'repeatable', almost, 0, noJitter)).toEqual({
			retry: true,
			delayMs: 1000,
			reason: 'rateLimit',
		});
		const spent = { rateLimited: 1, transient: 0, elapsedMs: 119_000 };
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
				[250, 500, 1000].map((delayMs) => ({ retry: true, delayMs, reason: 'transient' })),
			);
			expect(
				retryDecision(failure, 'repeatable', { rateLimited: 0, transient: 3, elapsedMs: 0 }, 0),
			).toEqual({ retry: false });
		}
	});

	it('gives a transient failure no retry past the deadline either', () => {
		const at = (elapsedMs: number) => ({ rateLimited: 0, transient: 1, elapsedMs });
		expect(retryDecision({ statusCode: 502 }, 'repeatable', at(119_499), 0).retry).toBe(true);
		expect(retryDecision({ statusCode: 502 }, 'repeatable', at(119_500), 0)).toEqual({
			retry: false,
		});
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
		// A request given up before it was sent reached nothing, whatever came before.
		expect(neverReachedService({ notSent: 'cancelled' })).toBe(true);
		expect(neverReachedService({ notSent: 'outOfTime' })).toBe(true);
	});

	it('never retries client errors', () => {
		for (const statusCode of [400, 401, 404, 422]) {
			expect(retryDecision({ statusCode }, 'repeatable', none, 0)).toEqual({ retry: false });
		}
	});
});

describe('RetryBudget', () => {
	it('widens the jitter with each 429 it retried: 0.5, 1, 2, 4 s, then 4 s', () => {
		const budget = new RetryBudget('repeatable', 0);
		const delays = [0, 2, 5, 9, 15, 21].map((at) =>
			budget.after({ statusCode: 429, retryAfter: '1' }, at * 1000, fullJitter, 0),
		);
		expect(delays.map((decision) => decision.retry && decision.delayMs)).toEqual([
			1500, 2000, 3000, 5000, 5000, 5000,
		]);
	});

	it('counts transient retries apart from 429s: 3 in all, whatever the 429s between', () => {
		const budget = new RetryBudget('repeatable', 0);
		const reset = { networkCode: 'ECONNRESET' };
		const tooMany = { statusCode: 429, retryAfter: '1' };
		const decisions = [reset, tooMany, reset, tooMany, reset, reset].map((failure) =>
			budget.after(failure, 0, noJitter, 0),
		);
		expect(decisions).toEqual([
			{ retry: true, delayMs: 250, reason: 'transient' },
			{ retry: true, delayMs: 1000, reason: 'rateLimit' },
			{ retry: true, delayMs: 500, reason: 'transient' },
			{ retry: true, delayMs: 1000, reason: 'rateLimit' },
			{ retry: true, delayMs: 1000, reason: 'transient' },
			{ retry: false },
		]);
	});

	it('counts its time from when the node asked, and its last start 2 minutes after that', () => {
		const budget = new RetryBudget('repeatable', 5_000);
		expect(budget.lastStartAt).toBe(125_000);
		const refused = { statusCode: 429, retryAfter: '1' };
		expect(budget.after(refused, 123_999, noJitter, 0)).toEqual({
			retry: true,
			delayMs: 1000,
			reason: 'rateLimit',
		});
		expect(budget.after(refused, 124_000, noJitter, 0)).toEqual({ retry: false });
	});

	it('does not retry what a create may have done', () => {
		const budget = new RetryBudget('once', 0);
		expect(budget.after({ statusCode: 502 }, 0, noJitter, 0)).toEqual({ retry: false });
	});
});

describe('rateLimitDelay', () => {
	it('adds full jitter over a span that doubles per 429, capped at 4 s', () => {
		const spans = [0, 1, 2, 3, 4, 10].map((rateLimited) =>
			rateLimitDelay('1', { rateLimited, transient: 0, elapsedMs: 0 }, 0, fullJitter),
		);
		expect(spans).toEqual([1500, 2000, 3000, 5000, 5000, 5000]);
		expect(rateLimitDelay('1', none, 0, () => 0)).toBe(1000);
		expect(rateLimitDelay('1', none, 0, () => 0.5)).toBe(1250);
	});

	it('gives up at once when the service asks for a wait of a minute or more', () => {
		expect(rateLimitDelay('61', none, 0, noJitter)).toBeUndefined();
		expect(rateLimitDelay('60', none, 0, noJitter)).toBeUndefined();
		expect(rateLimitDelay('59', none, 0, noJitter)).toBe(59_000);
	});

	it('never waits less than retry-after, whatever the random draw (randomized)', () => {
		for (let i = 0; i < 1000; i++) {
			const retryAfter = String(Math.floor(Math.random() * 5));
			const counts = { rateLimited: i % 12, transient: 0, elapsedMs: 0 };
			const delay = rateLimitDelay(retryAfter, counts, 0, Math.random) ?? -1;
			expect(delay).toBeGreaterThanOrEqual(Number(retryAfter) * 1000);
			expect(delay).toBeLessThanOrEqual(Number(retryAfter) * 1000 + 4000);
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
