import type {
	IBinaryData,
	IExecuteFunctions,
	IHttpRequestOptions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { privateAddressOf } from '../shared/networkAddress';
import { contentLengthOf, isHttpUrl, mimeTypeFromResponse } from './files';
import type { BodyStream, DownloadLimits } from './watchedDownload';
import { FileDownloadError, WatchedDownload } from './watchedDownload';

/**
 * Downloads of submission files into n8n's binary data store. A file address comes from
 * a respondent (or from whoever posts to a webhook), so: no file request carries the
 * credential (Fillout documents no file that needs it); redirects are followed here, each
 * hop checked for private addresses before it is requested; and every download is
 * watched (stall, deadline, cancel) and its connection closed when it fails.
 */

export type FileContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export const MAX_FILE_REDIRECTS = 5;

/** The stream n8n's request helper returns with `encoding: 'stream'` (a Node Readable). */
interface StreamResponse {
	body: BodyStream;
	headers: Record<string, unknown>;
	statusCode: number;
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

/** Refuses an address in a private network (unless allowed) or a metadata one (always). */
function checkAddress(url: string, hop: number, limits: DownloadLimits): void {
	const restricted = privateAddressOf(url);
	if (!restricted || (restricted.kind === 'private' && limits.allowPrivateAddresses)) return;
	const host = new URL(url).hostname;
	const lead = hop === 0 ? 'the address points at' : 'the file host redirected to';
	const tail =
		restricted.kind === 'metadata'
			? ', which is never fetched'
			: '; turn on "Allow Private Network Addresses" under File Options to fetch files from your own network';
	throw new FileDownloadError(`${lead} ${host} (${restricted.what})${tail}`);
}

async function requestOnce(
	ctx: FileContext,
	url: string,
	download: WatchedDownload,
	limits: DownloadLimits,
): Promise<StreamResponse> {
	const options: IHttpRequestOptions = {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: limits.timeoutMs,
		abortSignal: download.newRequest(),
	};
	const outcome = await ctx.helpers.httpRequest(options).then(
		(response) => response as StreamResponse,
		(error: unknown) => download.problem() ?? new FileDownloadError(describeNetworkError(error)),
	);
	if (outcome instanceof FileDownloadError) throw outcome;
	return outcome;
}

/** Opens the file, following redirects itself and checking every address before it is asked. */
async function openFile(
	ctx: FileContext,
	address: string,
	download: WatchedDownload,
	limits: DownloadLimits,
): Promise<StreamResponse> {
	let url = address;
	for (let hop = 0; ; hop++) {
		if (!isHttpUrl(url)) throw new FileDownloadError(`"${url}" is not an http(s) address`);
		checkAddress(url, hop, limits);
		const response = await requestOnce(ctx, url, download, limits);
		const location = header(response.headers, 'location');
		if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
			download.discard(response.body);
			if (hop >= MAX_FILE_REDIRECTS)
				throw new FileDownloadError(`more than ${MAX_FILE_REDIRECTS} redirects`);
			url = new URL(location, url).href;
			continue;
		}
		if (response.statusCode < 200 || response.statusCode >= 300) {
			download.discard(response.body);
			throw new FileDownloadError(`the file host answered ${response.statusCode}`);
		}
		return response;
	}
}

function tooLarge(maxBytes: number): FileDownloadError {
	return new FileDownloadError(
		`the file is larger than the Max File Size (${maxBytes / 1_000_000} MB)`,
	);
}

/**
 * Why a download that had started did not finish: the host closed it, or n8n's binary
 * data store refused it (with the whole file read, or giving up before the end).
 */
function interruptionReason(
	error: unknown,
	download: WatchedDownload,
	length: number | undefined,
): string {
	const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
	if (!download.broken()) return `n8n could not store the file (${String(message)})`;
	const of = length === undefined ? '' : ` of ${length}`;
	const why = typeof code === 'string' ? code : String(message);
	return `the download broke off after ${download.received()}${of} bytes (${why})`;
}

/**
 * Streams one file into n8n's binary data store (to disk in n8n's filesystem mode) and
 * returns its binary data. `stop` ends it early (another file of the item failed).
 */
export async function downloadFile(
	ctx: FileContext,
	file: { url: string; fileName: string },
	limits: DownloadLimits,
	stop?: AbortSignal,
): Promise<IBinaryData> {
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	const download = new WatchedDownload(limits, { cancel, stop });
	try {
		const response = await openFile(ctx, file.url, download, limits);
		const length = contentLengthOf(header(response.headers, 'content-length'));
		if (length !== undefined && length > limits.maxBytes) {
			download.discard(response.body);
			throw tooLarge(limits.maxBytes);
		}
		download.streaming(response.body, () => tooLarge(limits.maxBytes));
		const mimeType = mimeTypeFromResponse(header(response.headers, 'content-type'));
		const stored = await ctx.helpers
			.prepareBinaryData(response.body as unknown as Buffer, file.fileName, mimeType)
			.catch((error: unknown) => {
				const problem =
					download.problem() ?? new FileDownloadError(interruptionReason(error, download, length));
				// A store that gave up before the end leaves the connection open: close it.
				download.stop(problem);
				return problem;
			});
		if (stored instanceof FileDownloadError) throw stored;
		return stored;
	} finally {
		download.finish();
	}
}
