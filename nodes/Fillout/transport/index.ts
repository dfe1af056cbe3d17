import type {
	ICredentialsDecrypted,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { filloutError } from '../shared/nodeErrors';
import type { FormMetadata } from '../shared/interfaces';
import type { FilloutContext, FilloutCredentialType } from './apiRoot';
import { apiRootOf, credentialTypeOf } from './apiRoot';
import { pause, type Stop } from './deadline';
import type { FailureContext, ServiceFailure } from './errorMessages';
import type { PacerSlot, Pacing } from './pacing';
import { finishedWith, observeAnswer, pacingFor, waitForTurn } from './pacing';
import type { RequestSafety } from './retry';
import {
	deletedByEarlierAttempt,
	networkFailureOf,
	neverReachedService,
	RetryBudget,
	SEND_TIMEOUT_MS,
} from './retry';
import { readLimitSignal } from './sharedRate';

/**
 * The only code that talks to Fillout. Every request is paced (per credential, within
 * the limit the service announces), retried when that is safe, and its failures are
 * turned into errors that never carry the request's headers.
 */

export type { FilloutContext, FilloutCredentialType } from './apiRoot';
export { credentialTypeOf, resolveApiRoot } from './apiRoot';

export interface FilloutRequest {
	method: IHttpRequestMethods;
	/** Path under the API root, e.g. `/forms/abc/submissions`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Defaults: GET and DELETE are repeatable, POST is sent once. */
	safety?: RequestSafety;
	/** Names the form, submission or webhook in errors. */
	context?: FailureContext;
	itemIndex?: number;
	/** Reads the headers of the answer that succeeded (the polling trigger reads `date`). */
	onHeaders?: (header: (name: string) => string | undefined) => void;
	/** The caller's own stop (a read that ended early): no attempt starts once it aborts. */
	signal?: AbortSignal;
}

function safetyOf(request: FilloutRequest): RequestSafety {
	return request.safety ?? (request.method === 'POST' ? 'once' : 'repeatable');
}

export type FilloutOutcome<T> =
	| { ok: true; body: T }
	| {
			ok: false;
			failure: ServiceFailure;
			attempts: number;
			apiRoot: string;
			/** The failures of the attempts before the last, oldest first. */
			earlierFailures: ServiceFailure[];
	  };

interface FullResponse {
	body: unknown;
	headers: Record<string, unknown>;
	statusCode: number;
}

function headerValue(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	if (Array.isArray(value)) return value.length ? String(value[0]) : undefined;
	return value === undefined || value === null ? undefined : String(value);
}

/** Where one request goes, with which credential, and whose pacing it shares. */
interface Target {
	credentialType: FilloutCredentialType;
	/** Read before the request's turn, and handed to n8n's helper with it. */
	credential: ICredentialsDecrypted;
	apiRoot: string;
	pacing: Pacing;
}

/**
 * The credential is read here, once, and not again by n8n once the request has its turn:
 * in a poll on a busy machine a read took n8n 2.41 up to half a second, which held a
 * request that already counted at the pacer (docs/rate-limits.md, "Reading the credential").
 */
async function targetOf(ctx: FilloutContext): Promise<Target> {
	const credentialType = credentialTypeOf(ctx);
	const data = await ctx.getCredentials(credentialType);
	const apiRoot = apiRootOf(ctx, credentialType, data);
	const { id, name } = ctx.getNode().credentials?.[credentialType] ?? {};
	const key = `${credentialType}\n${id ?? name ?? ''}\n${apiRoot}`;
	const credential = { id: id ?? '', name: name ?? '', type: credentialType, data };
	return { credentialType, credential, apiRoot, pacing: pacingFor(key) };
}

/** One attempt, once the pacer gave it a start: the body, or how it failed. */
async function attempt<T>(
	ctx: FilloutContext,
	{ credentialType, credential, apiRoot, pacing }: Target,
	request: FilloutRequest,
	slot: PacerSlot,
): Promise<{ ok: true; body: T } | { ok: false; failure: ServiceFailure }> {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${apiRoot}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: SEND_TIMEOUT_MS,
	};
	if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
	if (request.body !== undefined) options.body = request.body;
	try {
		const response = (await finishedWith(
			pacing.pacer,
			slot,
			ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, options, {
				credentialsDecrypted: credential,
			}),
		)) as FullResponse;
		const header = (name: string) => headerValue(response.headers ?? {}, name);
		observeAnswer(pacing, slot, readLimitSignal(header, response.statusCode), performance.now());
		if (response.statusCode >= 200 && response.statusCode < 300) {
			request.onHeaders?.(header);
			return { ok: true, body: response.body as T };
		}
		const failure = {
			statusCode: response.statusCode,
			body: response.body,
			retryAfter: header('retry-after'),
		};
		return { ok: false, failure };
	} catch (error) {
		return { ok: false, failure: networkFailureOf(error) };
	}
}

/**
 * The execution's cancel signal, where n8n gives one (executions; not polls or webhooks),
 * and the request's own.
 */
function cancelSignalOf(ctx: FilloutContext, request: FilloutRequest): AbortSignal | undefined {
	const execution = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	if (!execution || !request.signal) return execution ?? request.signal;
	return AbortSignal.any([execution, request.signal]);
}

/**
 * Sends one request, pacing and retrying it. Resolves with the body, or with the
 * last failure when the request did not succeed (HTTP errors included): callers that
 * only want the body use `filloutRequest`. No attempt starts after the request's deadline
 * (retry.ts) or once its execution is cancelled.
 */
export async function sendFilloutRequest<T>(
	ctx: FilloutContext,
	request: FilloutRequest,
): Promise<FilloutOutcome<T>> {
	const target = await targetOf(ctx);
	const retries = new RetryBudget(safetyOf(request), performance.now());
	const stop: Stop = { lastStartAt: retries.lastStartAt, signal: cancelSignalOf(ctx, request) };
	const earlierFailures: ServiceFailure[] = [];
	const failed = (failure: ServiceFailure, attempts: number): FilloutOutcome<T> => ({
		ok: false,
		failure,
		attempts,
		apiRoot: target.apiRoot,
		earlierFailures,
	});
	const notSent = (): ServiceFailure => ({
		notSent: stop.signal?.aborted ? 'cancelled' : 'outOfTime',
	});

	for (let attempts = 1; ; attempts++) {
		const turn = await waitForTurn(target.pacing, stop);
		if (!turn) return failed(notSent(), attempts - 1);
		const outcome = await attempt<T>(ctx, target, request, turn.slot);
		if (outcome.ok) return outcome;
		const { failure } = outcome;

		const decision = retries.after(failure, performance.now());
		if (!decision.retry) return failed(failure, attempts);
		earlierFailures.push(failure);
		ctx.logger?.debug(
			`Fillout: retrying ${request.method} ${request.path} in ${decision.delayMs} ms`,
			{ statusCode: failure.statusCode, networkCode: failure.networkCode },
		);
		if (!(await pause(decision.delayMs, stop))) return failed(notSent(), attempts);
	}
}

/** Sends a request and returns its body, or throws a clear NodeApiError. */
export async function filloutRequest<T>(ctx: FilloutContext, request: FilloutRequest): Promise<T> {
	const outcome = await sendFilloutRequest<T>(ctx, request);
	if (outcome.ok) return outcome.body;
	const maybeProcessed = safetyOf(request) === 'once' && !neverReachedService(outcome.failure);
	throw filloutError(ctx, outcome, { ...request.context, maybeProcessed }, request.itemIndex);
}

/**
 * Deletes what the request names, retrying as any repeatable request. "Not found"
 * after an attempt that may have been processed counts as deleted: that attempt did it.
 */
export async function filloutDelete(ctx: FilloutContext, request: FilloutRequest): Promise<void> {
	const outcome = await sendFilloutRequest(ctx, { ...request, safety: 'repeatable' });
	if (outcome.ok || deletedByEarlierAttempt(outcome.failure, outcome.earlierFailures)) return;
	throw filloutError(ctx, outcome, request.context, request.itemIndex);
}

/** A form's metadata: its questions, calculations, URL parameters, scheduling and payment fields. */
export async function getFormMetadata(
	ctx: FilloutContext,
	formId: string,
	itemIndex?: number,
	onHeaders?: FilloutRequest['onHeaders'],
): Promise<FormMetadata> {
	return await filloutRequest<FormMetadata>(ctx, {
		method: 'GET',
		path: `/forms/${encodeURIComponent(formId)}`,
		context: { formId },
		itemIndex,
		onHeaders,
	});
}
