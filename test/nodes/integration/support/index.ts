/**
 * Shared by the node's integration tests: a sandbox per test file, its control API, and
 * the node run in n8n-core's engine (test/harness) with credentials pointing at it.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSandbox, SandboxOptions } from '../../../../sandbox';
import { sleep } from '../../../../sandbox/timers';
import { runNode, type RunNodeOptions, type RunNodeResult } from '../../../harness';
import { sandboxForTests } from '../../../support/sandbox';
import { Fillout } from '../../../../nodes/Fillout/Fillout.node';

/** Parsed JSON from the sandbox; tests read into it freely. */
export type Json = ReturnType<typeof JSON.parse>;

/**
 * A second key of the demo account for the tests' own direct API calls: each key has its
 * own rate limit, so checking a result never uses up the node's.
 */
export const DIRECT_KEY = 'direct-test-key';

/** Starts a sandbox (rate limit on, as the live service) before the file's tests and stops it after them. */
export function useSandbox(options: SandboxOptions = {}): () => RunningSandbox {
	return sandboxForTests({
		rateLimit: 5,
		quiet: true,
		...options,
		apiKeys: [DIRECT_KEY, ...(options.apiKeys ?? [])],
	});
}

/** A call to the sandbox's /_sandbox/ control API (no auth, JSON). */
export async function control(
	sandbox: RunningSandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<Json> {
	const response = await fetch(`${sandbox.origin}/_sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} /_sandbox${path} → ${response.status}: ${text}`);
	return text ? JSON.parse(text) : undefined;
}

/** API requests the sandbox counted per route, e.g. `GET /v1/api/forms/:formId/submissions`. */
export async function requestCounts(sandbox: RunningSandbox): Promise<Record<string, number>> {
	const stats = await control(sandbox, 'GET', '/stats');
	return stats.requests as Record<string, number>;
}

export async function resetStats(sandbox: RunningSandbox): Promise<void> {
	await control(sandbox, 'POST', '/stats/reset');
}

export const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';
export const CREATE_ROUTE = 'POST /v1/api/forms/:formId/submissions';
export const METADATA_ROUTE = 'GET /v1/api/forms/:formId';

/** A new empty form in the demo account (default questions unless given). */
export async function newForm(sandbox: RunningSandbox, body: IDataObject = {}): Promise<Json> {
	return await control(sandbox, 'POST', '/forms', { name: `Test form ${Math.random()}`, ...body });
}

export async function generate(
	sandbox: RunningSandbox,
	formId: string,
	body: IDataObject,
): Promise<Json> {
	return await control(sandbox, 'POST', `/forms/${formId}/generate`, body);
}

export function apiKeyCredentials(
	sandbox: RunningSandbox,
	apiKey = sandbox.demo.apiKey,
): Record<string, ICredentialDataDecryptedObject> {
	return { filloutFormsApi: { apiKey, region: 'custom', baseUrl: sandbox.origin } };
}

export function formById(formId: string): INodeParameters {
	return { __rl: true, mode: 'id', value: formId };
}

/** Runs the Fillout node with the demo API key unless other credentials are given. */
export async function runFillout(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	options: Partial<RunNodeOptions> = {},
): Promise<RunNodeResult> {
	return await runNode({
		nodeType: Fillout,
		parameters,
		credentials: apiKeyCredentials(sandbox),
		timezone: 'Europe/Berlin',
		...options,
	});
}

/** Submission → Get Many, Return All, raw, in `count` executions at once on one credential. */
export async function concurrentExports(
	sandbox: RunningSandbox,
	formId: string,
	count: number,
): Promise<RunNodeResult[]> {
	const parameters = {
		resource: 'submission',
		operation: 'getMany',
		form: formById(formId),
		returnAll: true,
		simplify: false,
	};
	return await Promise.all(
		Array.from({ length: count }, async () => await runFillout(sandbox, parameters)),
	);
}

/** Requests on a route the sandbox served (answered other than 429). */
export function servedCount(stats: IDataObject, route: string): number {
	const { requests, refused } = stats as {
		requests: Record<string, number>;
		refused: Record<string, number>;
	};
	return (requests[route] ?? 0) - (refused[route] ?? 0);
}

/**
 * Submission → Get Many, Return All, raw, over a form, with the sandbox's stats reset
 * first: the run, its wall time, the list requests served and the 429s sent.
 */
export async function listAllSubmissions(
	sandbox: RunningSandbox,
	formId: string,
	extra: INodeParameters = {},
): Promise<{ result: RunNodeResult; elapsed: number; listRequests: number; rateLimited: number }> {
	await resetStats(sandbox);
	const started = Date.now();
	const result = await runFillout(sandbox, {
		resource: 'submission',
		operation: 'getMany',
		form: formById(formId),
		returnAll: true,
		simplify: false,
		...extra,
	});
	const elapsed = Date.now() - started;
	const stats = await control(sandbox, 'GET', '/stats');
	return {
		result,
		elapsed,
		listRequests: servedCount(stats, LIST_ROUTE),
		rateLimited: stats.rateLimited as number,
	};
}

/** The json of each output item. */
export function jsonOf(result: RunNodeResult): IDataObject[] {
	return result.items.map((item) => item.json);
}

/** The id of a seeded demo form, by the start of its name. */
export async function demoFormId(
	sandbox: RunningSandbox,
	nameStart: string,
	accountId = 'acct_demo',
): Promise<string> {
	const info = await control(sandbox, 'GET', '/info');
	const account = (info.accounts as Json[]).find((a) => a.id === accountId);
	const form = (account?.forms as Json[] | undefined)?.find((f) =>
		String(f.name).startsWith(nameStart),
	);
	if (!form) throw new Error(`No demo form named "${nameStart}…" in ${accountId}`);
	return form.formId as string;
}

/** Lists a form's submissions straight from the sandbox API (not through the node). */
export async function listDirect(
	sandbox: RunningSandbox,
	formId: string,
	query: Record<string, string> = {},
): Promise<Json> {
	const qs = new URLSearchParams({ limit: '150', ...query });
	return await getDirect(`${sandbox.apiRoot}/forms/${formId}/submissions?${qs}`);
}

/** A GET with the tests' own key, waiting out its rate limit once; fails on an error answer. */
async function getDirect(url: string): Promise<Json> {
	let response = await fetch(url, { headers: { authorization: `Bearer ${DIRECT_KEY}` } });
	if (response.status === 429) {
		await sleep(1100);
		response = await fetch(url, { headers: { authorization: `Bearer ${DIRECT_KEY}` } });
	}
	const body = await response.json();
	if (!response.ok)
		throw new Error(`Direct GET ${url} → ${response.status}: ${JSON.stringify(body)}`);
	return body;
}

/** A form's metadata straight from the sandbox API. */
export async function metadataDirect(sandbox: RunningSandbox, formId: string): Promise<Json> {
	return await getDirect(`${sandbox.apiRoot}/forms/${formId}`);
}

export async function setFaults(sandbox: RunningSandbox, faults: IDataObject): Promise<void> {
	await control(sandbox, 'POST', '/faults', faults);
}

export async function clearFaults(sandbox: RunningSandbox): Promise<void> {
	await control(sandbox, 'DELETE', '/faults');
}

/** The item index an output item is paired to. */
export function pairedIndex(item: { pairedItem?: unknown }): number | undefined {
	const paired = item.pairedItem as { item?: number } | undefined;
	return paired?.item;
}

/** The HTTP status a NodeApiError carried (n8n stores it as a string). */
export function httpCodeOf(error: unknown): string | undefined {
	return (error as { httpCode?: string } | undefined)?.httpCode;
}
