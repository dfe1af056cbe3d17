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
	/** Milliseconds since the first attempt, less the waits for this process's own pacing. */
	elapsedMs: number;
}

/**
 * A 429 is retried for as long as this lasts from the first attempt, not a fixed number
 * of times: with several processes on one key a busy account can refuse a request a few
 * times in a row, and it will serve it once the others' share passes. Waiting for this
 * process's own (slowed) pacing does not count: it is not the service refusing.
 */
export const RATE_LIMIT_BUDGET_MS = 60_000;
/** The random part added to retry-after grows with each 429, up to this. */
export const RATE_LIMIT_JITTER_CAP_MS = 4_000;
const RATE_LIMIT_JITTER_BASE_MS = 500;
/** Transient failures: 4 attempts in all. */
export const MAX_TRANSIENT_RETRIES = 3;
export const BACKOFF_BASE_MS = 250;
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
 * together do not all come back together. Undefined once the budget would be spent.
 */
export function rateLimitDelay(
	retryAfter: string | undefined,
	counts: RetryCounts,
	now: number,
	random: () => number,
): number | undefined {
	const span = Math.min(
		RATE_LIMIT_JITTER_CAP_MS,
		RATE_LIMIT_JITTER_BASE_MS * 2 ** counts.rateLimited,
	);
	const delayMs = Math.round(retryAfterMs(retryAfter, now) + random() * span);
	return counts.elapsedMs + delayMs >= RATE_LIMIT_BUDGET_MS ? undefined : delayMs;
}

export function retryDecision(
	failure: ServiceFailure,
	safety: RequestSafety,
	counts: RetryCounts,
	now: number,
	random: () => number = Math.random,
): RetryDecision {
	if (failure.statusCode === 429) {
		const delayMs = rateLimitDelay(failure.retryAfter, counts, now, random);
		return delayMs === undefined ? { retry: false } : { retry: true, delayMs, reason: 'rateLimit' };
	}
	if (!isTransient(failure)) return { retry: false };
	if (safety === 'once' && !neverReachedService(failure)) return { retry: false };
	if (counts.transient >= MAX_TRANSIENT_RETRIES) return { retry: false };
	return { retry: true, delayMs: BACKOFF_BASE_MS * 2 ** counts.transient, reason: 'transient' };
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
