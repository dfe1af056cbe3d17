import type { ServiceFailure } from './errorMessages';

/**
 * When to send a failed request again. Reads (GET) and deletes may be repeated
 * safely. Creating submissions or webhooks is repeated only when the service
 * certainly did not act on it: it answered 429, or no connection was ever made.
 */
export type RequestSafety = 'repeatable' | 'once';

/** ECONNRESET, UND_ERR_SOCKET …; not an HTTP status. */
function networkCodeIn(value: unknown): string | undefined {
	return typeof value === 'string' && /^[A-Z_]+$/.test(value) ? value : undefined;
}

/**
 * The network error code and message of a request that failed without an answer.
 * n8n wraps the HTTP client's error (which holds the request, headers included) in a
 * NodeApiError; only these two plain strings are taken from it. n8n 2.x keeps the
 * client's error as `cause`; n8n 1.x loses it and keeps only the code, as `httpCode`
 * (its message is then n8n's own wording).
 */
export function networkFailureOf(error: unknown): ServiceFailure {
	let code: string | undefined;
	let message: string | undefined;
	let level: unknown = error;
	for (let depth = 0; depth < 5 && typeof level === 'object' && level !== null; depth++) {
		const candidate = level as {
			code?: unknown;
			httpCode?: unknown;
			message?: unknown;
			cause?: unknown;
		};
		code ??= networkCodeIn(candidate.code) ?? networkCodeIn(candidate.httpCode);
		if (typeof candidate.message === 'string' && candidate.message) message = candidate.message;
		level = candidate.cause;
	}
	return { networkCode: code, networkMessage: message };
}

export interface RetryCounts {
	rateLimited: number;
	transient: number;
	/** Milliseconds since the node asked to send the request, its waits in the line included. */
	elapsedMs: number;
}

/**
 * No attempt of a request starts later than this after the node asked to send it: its
 * waits in the credential's line, for retry-after and for its earlier attempts all count.
 * With the timeout of each attempt, every request ends within 3 minutes.
 */
export const LAST_START_MS = 120_000;
export const SEND_TIMEOUT_MS = 60_000;
/** The random part added to retry-after grows with each 429, up to this. */
export const RATE_LIMIT_JITTER_CAP_MS = 4_000;
const RATE_LIMIT_JITTER_BASE_MS = 500;
/** Transient failures: 4 attempts in all. */
export const MAX_TRANSIENT_RETRIES = 3;
export const BACKOFF_BASE_MS = 250;
/** A 429 asking for this wait or more is not retried: Fillout will not serve it soon. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The request never reached the service: nothing can have been processed. */
const NEVER_CONNECTED = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** The connection failed or broke: the service may or may not have acted. */
const TRANSIENT_NETWORK = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'ESOCKETTIMEDOUT',
	'UND_ERR_SOCKET',
	'ERR_BAD_RESPONSE',
]);

export function neverReachedService(failure: ServiceFailure): boolean {
	return (
		failure.notSent !== undefined ||
		failure.statusCode === 429 ||
		(failure.networkCode !== undefined && NEVER_CONNECTED.has(failure.networkCode))
	);
}

export function isTransient(failure: ServiceFailure): boolean {
	if (failure.statusCode !== undefined) return failure.statusCode >= 500;
	if (
		failure.networkCode !== undefined &&
		(TRANSIENT_NETWORK.has(failure.networkCode) || NEVER_CONNECTED.has(failure.networkCode))
	) {
		return true;
	}
	return /socket hang up|network error|timeout/i.test(failure.networkMessage ?? '');
}

/** `retry-after` in seconds or as an HTTP date; one second when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number {
	if (header !== undefined && header.trim() !== '') {
		const seconds = Number(header);
		if (Number.isFinite(seconds) && seconds >= 0)
			return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
		const date = Date.parse(header);
		if (!Number.isNaN(date)) return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
	}
	return 1000;
}

export type RetryDecision =
	| { retry: false }
	| { retry: true; delayMs: number; reason: 'rateLimit' | 'transient' };

/**
 * How long to wait after a 429: at least what retry-after asks, plus a random part
 * (full jitter over a span that doubles with each 429) so that processes refused
 * together do not all come back together.
 */
export function rateLimitDelay(
	retryAfter: string | undefined,
	counts: RetryCounts,
	now: number,
	random: () => number,
): number | undefined {
	const askedMs = retryAfterMs(retryAfter, now);
	if (askedMs >= MAX_RETRY_AFTER_MS) return undefined;
	const span = Math.min(
		RATE_LIMIT_JITTER_CAP_MS,
		RATE_LIMIT_JITTER_BASE_MS * 2 ** counts.rateLimited,
	);
	return Math.round(askedMs + random() * span);
}

function transientDelay(failure: ServiceFailure, safety: RequestSafety, counts: RetryCounts) {
	if (!isTransient(failure)) return undefined;
	if (safety === 'once' && !neverReachedService(failure)) return undefined;
	if (counts.transient >= MAX_TRANSIENT_RETRIES) return undefined;
	return BACKOFF_BASE_MS * 2 ** counts.transient;
}

/** Whether and when to try a failed attempt again: only while the next may still start in time. */
export function retryDecision(
	failure: ServiceFailure,
	safety: RequestSafety,
	counts: RetryCounts,
	now: number,
	random: () => number = Math.random,
): RetryDecision {
	const reason = failure.statusCode === 429 ? 'rateLimit' : 'transient';
	const delayMs =
		reason === 'rateLimit'
			? rateLimitDelay(failure.retryAfter, counts, now, random)
			: transientDelay(failure, safety, counts);
	if (delayMs === undefined || counts.elapsedMs + delayMs >= LAST_START_MS) return { retry: false };
	return { retry: true, delayMs, reason };
}

/**
 * One request's retries: its deadline and its counts. The transport's loop and the
 * shared-account model both ask it after each failure.
 */
export class RetryBudget {
	readonly lastStartAt: number;
	private readonly counts: RetryCounts = { rateLimited: 0, transient: 0, elapsedMs: 0 };

	/** `askedAt`: when the node asked to send the request (performance.now()). */
	constructor(
		private readonly safety: RequestSafety,
		private readonly askedAt: number,
	) {
		this.lastStartAt = askedAt + LAST_START_MS;
	}

	/** After an attempt failed at `now`: wait and try again, or give up. */
	after(
		failure: ServiceFailure,
		now: number,
		random: () => number = Math.random,
		wallClock = Date.now(),
	): RetryDecision {
		this.counts.elapsedMs = now - this.askedAt;
		const decision = retryDecision(failure, this.safety, this.counts, wallClock, random);
		if (decision.retry)
			this.counts[decision.reason === 'rateLimit' ? 'rateLimited' : 'transient']++;
		return decision;
	}
}

/**
 * A delete answered "not found" after an earlier attempt that may have been processed
 * (a server error, a connection broken after sending): that attempt deleted it and its
 * answer was lost. A "not found" with no such attempt before it stays one.
 */
export function deletedByEarlierAttempt(
	last: ServiceFailure,
	earlier: readonly ServiceFailure[],
): boolean {
	return last.statusCode === 404 && earlier.some((failure) => !neverReachedService(failure));
}
