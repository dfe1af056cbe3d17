/**
 * Turns what Fillout answered (or how the connection failed) into a message a user can
 * act on. Pure: the transport gathers the facts, this writes the message. Nothing here
 * ever sees request headers, so keys and tokens cannot end up in a message.
 */
import type { JsonObject } from 'n8n-workflow';

import { formatIssuePath, parseValidationIssues } from './validationIssues';

export interface ServiceFailure {
	statusCode?: number;
	/** The parsed response body; Fillout sends `{statusCode, error, message}`. */
	body?: unknown;
	/** Node's network error code (ECONNRESET, ECONNREFUSED, …), when no response came. */
	networkCode?: string;
	networkMessage?: string;
	retryAfter?: string;
	/** Never sent: the execution was cancelled, or the request's time to start ran out. */
	notSent?: 'cancelled' | 'outOfTime';
}

/** What the request was about, so that a 404 can say which form or submission. */
export interface FailureContext {
	formId?: string;
	submissionId?: string;
	webhookId?: string | number;
	/** `host/v1/api`, named in connection errors. */
	apiRoot?: string;
	attempts?: number;
	/** The request may have been processed although it failed (create). */
	maybeProcessed?: boolean;
}

/** What an error says to the user. */
export interface ErrorText {
	message: string;
	description?: string;
	httpCode?: string;
	/** The plain data kept with the error (by default the message alone): never a request or its headers. */
	facts?: JsonObject;
}

export interface FailureDescription extends ErrorText {
	kind:
		| 'credentials'
		| 'notFound'
		| 'rateLimit'
		| 'badRequest'
		| 'server'
		| 'network'
		| 'cancelled'
		| 'other';
}

const CREDENTIAL_MESSAGE =
	/api key invalid|incorrectly formatted api key|authorization header missing|api authorization|invalid (access )?token|unauthori[sz]ed|invalid api key/i;

/** The service's own message, from `{message}` or a plain text body. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (typeof body === 'object' && body !== null) {
		const { message, error } = body as { message?: unknown; error?: unknown };
		if (typeof message === 'string' && message.trim()) return message.trim();
		if (Array.isArray(message)) return message.map(String).join('; ');
		if (typeof error === 'string' && error.trim()) return error.trim();
	}
	return undefined;
}

function notFoundMessage(context: FailureContext): string {
	if (context.submissionId !== undefined) {
		return context.formId !== undefined
			? `Submission ${context.submissionId} not found in form ${context.formId}`
			: `Submission ${context.submissionId} not found`;
	}
	if (context.formId !== undefined) return `Form ${context.formId} not found`;
	if (context.webhookId !== undefined) return `Webhook ${context.webhookId} not found`;
	return 'Fillout could not find what was asked for';
}

const MAYBE_PROCESSED =
	' The request may or may not have been processed: check Fillout before running it again.';

export function describeFailure(
	failure: ServiceFailure,
	context: FailureContext = {},
): FailureDescription {
	if (failure.notSent) return notSent(failure.notSent, context);
	const said = serviceMessage(failure.body);
	const { statusCode } = failure;
	if (statusCode === undefined) return connectionFailure(failure, context);
	const httpCode = String(statusCode);
	if (isCredentialFailure(statusCode, said)) {
		return {
			kind: 'credentials',
			httpCode,
			message: 'Fillout refused the credentials',
			description: `${said ? `Fillout said: "${said}". ` : ''}Check that the API key is complete and not revoked (or reconnect the OAuth2 credential), and that the region matches the account.`,
		};
	}
	if (statusCode === 404) {
		return { kind: 'notFound', httpCode, message: notFoundMessage(context), description: said };
	}
	if (statusCode === 429) {
		return {
			kind: 'rateLimit',
			httpCode,
			message: 'Fillout’s rate limit (5 requests per second) was still exceeded after retrying',
			description: `Gave up after ${attemptsText(context.attempts)}: ${TIME_RULE} A wait of a minute or more, when Fillout asks for it, is not retried. ${SHARED_ACCOUNT}`,
		};
	}
	if (statusCode >= 500) {
		const uncertain = context.maybeProcessed ? MAYBE_PROCESSED : '';
		return {
			kind: 'server',
			httpCode,
			message: `Fillout failed to process the request (HTTP ${statusCode})`,
			description: `${said ? `Fillout said: "${said}".` : ''}${uncertain}`.trim() || undefined,
		};
	}
	if (statusCode >= 400) return badRequest(statusCode, said);
	return {
		kind: 'other',
		httpCode,
		message: `Unexpected answer from Fillout (HTTP ${statusCode})`,
	};
}

const TIME_RULE =
	'a request is sent only while that can happen within 2 minutes of when the node asked for it, its waits behind the credential’s other requests included.';
const SHARED_ACCOUNT =
	'Other workflows or n8n processes may be using the same account: spread them out or run fewer at once.';

function attemptsText(attempts = 1): string {
	return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/** A request that was never sent, and why. */
function notSent(reason: 'cancelled' | 'outOfTime', context: FailureContext): FailureDescription {
	if (reason === 'cancelled') {
		return { kind: 'cancelled', message: 'The execution was cancelled before Fillout answered' };
	}
	const tried = context.attempts
		? `Tried ${attemptsText(context.attempts)}; its next turn`
		: 'Never sent; its turn';
	return {
		kind: 'rateLimit',
		message:
			'The request waited too long for its turn within Fillout’s rate limit (5 requests per second)',
		description: `${tried} did not come in time: ${TIME_RULE} ${SHARED_ACCOUNT}`,
	};
}

/** Fillout answers a bad key with 401, 403, or a 400 or 404 saying so. */
function isCredentialFailure(statusCode: number, said: string | undefined): boolean {
	if (statusCode === 401 || statusCode === 403) return true;
	return (
		(statusCode === 400 || statusCode === 404) &&
		said !== undefined &&
		CREDENTIAL_MESSAGE.test(said)
	);
}

function connectionFailure(failure: ServiceFailure, context: FailureContext): FailureDescription {
	// The code goes in the description: n8n replaces messages that contain one.
	const reason = failure.networkCode ?? failure.networkMessage ?? 'no response';
	const hint =
		failure.networkCode === 'ECONNREFUSED' || failure.networkCode === 'ENOTFOUND'
			? 'Check the region or Base URL of the credential.'
			: 'The connection failed before Fillout answered.';
	return {
		kind: 'network',
		message: `Could not reach Fillout${context.apiRoot ? ` at ${context.apiRoot}` : ''}`,
		description: `Connection error: ${reason}. ${hint}${context.maybeProcessed ? MAYBE_PROCESSED : ''}`,
	};
}

/** A 4xx: Fillout's message, or each validation issue with its path. */
function badRequest(statusCode: number, said: string | undefined): FailureDescription {
	const issues = parseValidationIssues(said);
	const text = issues
		? issues
				.map((issue) => `${formatIssuePath(issue.path) || 'request'}: ${issue.message}`)
				.join('; ')
		: said;
	return {
		kind: 'badRequest',
		httpCode: String(statusCode),
		message: text
			? `Fillout rejected the request: ${text}`
			: `Fillout rejected the request (HTTP ${statusCode})`,
	};
}

/** A request that failed, as the transport reports it. */
export interface FailedRequest {
	failure: ServiceFailure;
	attempts: number;
	apiRoot: string;
}

/**
 * The error text for a failed request, and the plain facts an error keeps of it (status,
 * network code, Fillout's body), never the request or its headers.
 */
export function describeFailedRequest(
	request: FailedRequest,
	context: FailureContext = {},
): FailureDescription & { facts: JsonObject } {
	const { failure } = request;
	const described = describeFailure(failure, {
		...context,
		apiRoot: context.apiRoot ?? request.apiRoot,
		attempts: request.attempts,
	});
	const facts: JsonObject = { message: described.message, kind: described.kind }; // kind: for agentTool/toolErrors.ts
	if (failure.statusCode !== undefined) facts.statusCode = failure.statusCode;
	if (failure.networkCode !== undefined) facts.networkCode = failure.networkCode;
	if (typeof failure.body === 'object' && failure.body !== null)
		facts.body = failure.body as JsonObject;
	return { ...described, facts };
}
