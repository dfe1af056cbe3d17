import type {
	IBinaryData,
	IExecuteFunctions,
	IHttpRequestOptions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { contentLengthOf, isHttpUrl, mimeTypeFromResponse } from '../helpers/files';
import { credentialTypeOf, pacedForApi } from './index';

/**
 * Downloads of submission files into n8n's binary data store. File addresses are on
 * other hosts than the API, so they are fetched without the credential; only a file on
 * the API's own origin gets it (and is paced with the API's requests). Redirects are
 * followed here, a few at most, so a credential never follows one to another origin.
 */

export type FileContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export const MAX_FILE_REDIRECTS = 5;
const STALL_CHECK_MS = 500;

export interface DownloadLimits {
	maxBytes: number;
	/** No response, or no bytes, for this long fails the download. */
	timeoutMs: number;
}

/** Why a file could not be downloaded, in words for the item's error. */
export class FileDownloadProblem extends Error {}

/** The stream n8n's request helper returns with `encoding: 'stream'` (a Node Readable). */
interface BodyStream {
	pause(): unknown;
	resume(): unknown;
	destroy(error?: Error): unknown;
	on(event: 'data', listener: (chunk: { length: number }) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	on(event: 'newListener', listener: (event: string) => void): unknown;
}

interface StreamResponse {
	body: BodyStream;
	headers: Record<string, unknown>;
	statusCode: number;
}

function originOf(url: string): string {
	return new URL(url).origin;
}

function header(headers: Record<string, unknown>, name: string): unknown {
	return headers[name] ?? headers[name.toLowerCase()];
}

function describeNetworkError(error: unknown): string {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(String(message)))
		return 'the file host did not answer in time';
	return `the file host could not be reached (${typeof code === 'string' ? code : String(message)})`;
}

async function requestOnce(
	ctx: FileContext,
	url: string,
	apiRoot: string | undefined,
	timeoutMs: number,
): Promise<StreamResponse> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: timeoutMs,
	};
	const sent =
		apiRoot !== undefined
			? pacedForApi(ctx, apiRoot, () =>
					ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialTypeOf(ctx), options),
				)
			: ctx.helpers.httpRequest(options);
	const outcome = await sent.then(
		(response) => response as StreamResponse,
		(error: unknown) => new FileDownloadProblem(describeNetworkError(error)),
	);
	if (outcome instanceof FileDownloadProblem) throw outcome;
	return outcome;
}

/**
 * Opens the file, following redirects itself. The credential goes only to the API's
 * origin, and only when the address the submission gave is on it.
 */
async function openFile(
	ctx: FileContext,
	address: string,
	apiRoot: string | undefined,
	timeoutMs: number,
): Promise<StreamResponse> {
	const onApi =
		apiRoot !== undefined && isHttpUrl(address) && originOf(address) === originOf(apiRoot);
	let url = address;
	for (let hop = 0; ; hop++) {
		if (!isHttpUrl(url)) throw new FileDownloadProblem(`"${url}" is not an http(s) address`);
		const credential = onApi && originOf(url) === originOf(apiRoot) ? apiRoot : undefined;
		const response = await requestOnce(ctx, url, credential, timeoutMs);
		const location = header(response.headers, 'location');
		if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
			response.body.destroy();
			if (hop >= MAX_FILE_REDIRECTS)
				throw new FileDownloadProblem(`more than ${MAX_FILE_REDIRECTS} redirects`);
			url = new URL(location, url).href;
			continue;
		}
		if (response.statusCode < 200 || response.statusCode >= 300) {
			response.body.destroy();
			throw new FileDownloadProblem(`the file host answered ${response.statusCode}`);
		}
		return response;
	}
}

function tooLarge(maxBytes: number): FileDownloadProblem {
	return new FileDownloadProblem(
		`the file is larger than the Max File Size (${maxBytes / 1_000_000} MB)`,
	);
}

interface Guarded {
	/** Why the guard stopped the stream, if it did. */
	problem(): FileDownloadProblem | undefined;
	/** Bytes read so far. */
	received(): number;
	/** Whether the whole body arrived. */
	ended(): boolean;
}

/**
 * Counts the bytes as n8n reads them, and stops the stream past the limit or when it
 * stalls. 'data' is emitted to every reader (listener, pipe or async iteration alike).
 * The stream stays paused until n8n's reader attaches, so no byte flows past it; a
 * reader that listens for 'data' alone does not resume a paused stream, so that is done
 * here. The stall check is a loop of short sleeps (community nodes have no timers).
 */
function guard(body: BodyStream, limits: DownloadLimits): Guarded {
	let problem: FileDownloadProblem | undefined;
	let received = 0;
	let lastDataAt = Date.now();
	let finished = false;
	let ended = false;
	const stop = (reason: FileDownloadProblem) => {
		problem ??= reason;
		body.destroy(reason);
	};
	body.pause();
	body.on('data', (chunk) => {
		received += chunk.length;
		lastDataAt = Date.now();
		if (received > limits.maxBytes) stop(tooLarge(limits.maxBytes));
	});
	body.on('end', () => (ended = true));
	for (const event of ['end', 'close'] as const) body.on(event, () => (finished = true));
	body.on('error', () => (finished = true));
	// Registered after this guard's own 'data' listener, so only n8n's reader resumes.
	body.on('newListener', (event: string) => {
		if (event === 'data') body.resume();
	});
	void (async () => {
		while (!finished && problem === undefined) {
			await sleep(Math.min(STALL_CHECK_MS, limits.timeoutMs));
			if (!finished && Date.now() - lastDataAt > limits.timeoutMs)
				stop(new FileDownloadProblem('the file host stopped sending'));
		}
	})();
	return { problem: () => problem, received: () => received, ended: () => ended };
}

/**
 * Why a download that had started did not finish: the host closed it, or (the whole file
 * having arrived) n8n's binary data store refused it, e.g. over its size limit.
 */
function brokeOff(error: unknown, guarded: Guarded, length: number | undefined): string {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	if (guarded.ended()) return `n8n could not store the file (${String(message)})`;
	const of = length === undefined ? '' : ` of ${length}`;
	const why = typeof code === 'string' ? code : String(message);
	return `the download broke off after ${guarded.received()}${of} bytes (${why})`;
}

/**
 * Streams one file into n8n's binary data store (to disk in n8n's filesystem mode) and
 * returns its binary data. `apiRoot` is the credential's API root, for files on it.
 */
export async function downloadFile(
	ctx: FileContext,
	file: { url: string; fileName: string },
	limits: DownloadLimits,
	apiRoot?: string,
): Promise<IBinaryData> {
	const response = await openFile(ctx, file.url, apiRoot, limits.timeoutMs);
	const length = contentLengthOf(header(response.headers, 'content-length'));
	if (length !== undefined && length > limits.maxBytes) {
		response.body.destroy();
		throw tooLarge(limits.maxBytes);
	}
	const guarded = guard(response.body, limits);
	const mimeType = mimeTypeFromResponse(header(response.headers, 'content-type'));
	const stored = await ctx.helpers
		.prepareBinaryData(response.body as unknown as Buffer, file.fileName, mimeType)
		.catch(
			(error: unknown) =>
				guarded.problem() ?? new FileDownloadProblem(brokeOff(error, guarded, length)),
		);
	if (stored instanceof FileDownloadProblem) throw stored;
	return stored;
}
