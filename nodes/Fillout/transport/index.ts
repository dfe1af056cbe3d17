import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiRootForRegion, normalizeApiRoot } from '../helpers/apiRoot';
import type { FailureContext, ServiceFailure } from '../helpers/failures';
import type { FormMetadata } from '../helpers/interfaces';
import { SlidingWindowPacer } from '../helpers/pacing';
import { readLimitSignal, SharedRate } from '../helpers/sharedRate';
import type { RequestSafety, RetryCounts } from '../helpers/retry';
import {
	deletedByEarlierAttempt,
	networkFailureOf,
	neverReachedService,
	retryDecision,
} from '../helpers/retry';
import { filloutError } from '../shared/nodeErrors';

/**
 * The only code that talks to Fillout. Every request is paced (per credential, within
 * the limit the service announces), retried when that is safe, and its failures are
 * turned into errors that never carry the request's headers.
 */

export type FilloutContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| IWebhookFunctions;

export type FilloutCredentialType = 'filloutFormsApi' | 'filloutFormsOAuth2Api';

/** The credential the node's "Authentication" parameter selects (API key by default). */
export function credentialTypeOf(ctx: FilloutContext): FilloutCredentialType {
	return ctx.getNode().parameters.authentication === 'oAuth2'
		? 'filloutFormsOAuth2Api'
		: 'filloutFormsApi';
}

/** Where the API lives for this node's credential: region, custom Base URL, or OAuth2 `base_url`. */
export async function resolveApiRoot(ctx: FilloutContext): Promise<string> {
	const credentialType = credentialTypeOf(ctx);
	const credentials = await ctx.getCredentials(credentialType);
	if (credentialType === 'filloutFormsOAuth2Api') {
		const tokenData = credentials.oauthTokenData as IDataObject | undefined;
		const root = normalizeApiRoot(tokenData?.base_url);
		if (root === undefined) {
			throw new NodeOperationError(
				ctx.getNode(),
				'The Fillout OAuth2 connection has no API address (base_url)',
				{
					description:
						'Fillout returns the account’s API address together with the access token. Reconnect the credential (Connect my account) so that it is stored.',
				},
			);
		}
		return root;
	}
	const root = apiRootForRegion(credentials.region, credentials.baseUrl);
	if (root === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'The Fillout credential has no valid Base URL', {
			description:
				'With the region "Custom (Self-Hosted)" the Base URL must be an http:// or https:// address, such as https://fillout.example.com.',
		});
	}
	return root;
}

/**
 * How one credential's requests are paced in this process: the pacer keeps this process
 * within the limit, the rate slows it down when other processes use the same account.
 */
interface Pacing {
	pacer: SlidingWindowPacer;
	rate: SharedRate;
}

/** One per credential and API root, shared by every execution in this process. */
const pacings = new Map<string, Pacing>();

function pacingFor(
	ctx: FilloutContext,
	credentialType: FilloutCredentialType,
	apiRoot: string,
): Pacing {
	const credential = ctx.getNode().credentials?.[credentialType];
	const key = `${credentialType}\n${credential?.id ?? credential?.name ?? ''}\n${apiRoot}`;
	let pacing = pacings.get(key);
	if (!pacing) {
		pacing = { pacer: new SlidingWindowPacer(), rate: new SharedRate() };
		pacings.set(key, pacing);
	}
	return pacing;
}

/** Waits for a start within the announced limit and this process's shared-key rate. */
async function waitForTurn({ pacer, rate }: Pacing) {
	pacer.limit = rate.limit;
	const { waitMs, slot } = pacer.reserve(performance.now(), rate.spacingMs);
	if (waitMs > 0) await sleep(waitMs);
	return { slot, waitMs };
}

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

/**
 * Sends one request, pacing and retrying it. Resolves with the body, or with the
 * last failure when the request did not succeed (HTTP errors included): callers that
 * only want the body use `filloutRequest`.
 */
export async function sendFilloutRequest<T>(
	ctx: FilloutContext,
	request: FilloutRequest,
): Promise<FilloutOutcome<T>> {
	const credentialType = credentialTypeOf(ctx);
	const apiRoot = await resolveApiRoot(ctx);
	const pacing = pacingFor(ctx, credentialType, apiRoot);
	const safety = safetyOf(request);
	const firstAttemptAt = performance.now();
	const counts: RetryCounts = { rateLimited: 0, transient: 0, elapsedMs: 0 };
	const earlierFailures: ServiceFailure[] = [];
	// The 429 budget counts the service's refusals, not this process's own queueing.
	let pacedMs = 0;

	for (let attempt = 1; ; attempt++) {
		const { slot, waitMs } = await waitForTurn(pacing);
		pacedMs += waitMs;

		const options: IHttpRequestOptions = {
			method: request.method,
			url: `${apiRoot}${request.path}`,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 60_000,
		};
		if (request.qs && Object.keys(request.qs).length) options.qs = request.qs;
		if (request.body !== undefined) options.body = request.body;

		let failure: ServiceFailure;
		try {
			const response = (await ctx.helpers.httpRequestWithAuthentication
				.call(ctx, credentialType, options)
				.finally(() => pacing.pacer.finish(slot, performance.now()))) as FullResponse;
			const headers = response.headers ?? {};
			pacing.rate.observe(
				readLimitSignal((name) => headerValue(headers, name), response.statusCode),
				performance.now(),
			);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				request.onHeaders?.((name) => headerValue(headers, name));
				return { ok: true, body: response.body as T };
			}
			failure = {
				statusCode: response.statusCode,
				body: response.body,
				retryAfter: headerValue(headers, 'retry-after'),
			};
		} catch (error) {
			failure = networkFailureOf(error);
		}

		counts.elapsedMs = performance.now() - firstAttemptAt - pacedMs;
		const decision = retryDecision(failure, safety, counts, Date.now());
		if (!decision.retry) return { ok: false, failure, attempts: attempt, apiRoot, earlierFailures };
		earlierFailures.push(failure);
		if (decision.reason === 'rateLimit') counts.rateLimited++;
		else counts.transient++;
		ctx.logger?.debug(
			`Fillout: retrying ${request.method} ${request.path} in ${decision.delayMs} ms`,
			{
				statusCode: failure.statusCode,
				networkCode: failure.networkCode,
			},
		);
		await sleep(decision.delayMs);
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
