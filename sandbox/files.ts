/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox is a dev tool: it is a node:http server */
/**
 * The file host: real bytes for the FileUpload, Signature and document addresses the
 * submissions carry. Content is generated from the address (the same bytes every time,
 * so tests can hash-compare), never stored. Fillout's files live on other hosts than its
 * API, and a client must never send them its credential: any request with an
 * Authorization header is recorded and refused.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep } from './timers';

/**
 * The Download Files options a workflow needs to fetch this sandbox's files: they are on
 * 127.0.0.1 / localhost, which the node refuses unless private addresses are allowed.
 */
export const SANDBOX_FILE_OPTIONS = { allowPrivateAddresses: true };

/** Where seeded answers point; replies rewrite it to this sandbox's file host. */
export const SEED_FILE_ORIGIN = 'https://uploads.fillout.example';
export const FILES_PATH = '/files/';

const CONTENT_TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	txt: 'text/plain; charset=utf-8',
	csv: 'text/csv',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	webm: 'audio/webm',
};

export interface FileRequestRecord {
	path: string;
	host: string;
	authorization: boolean;
	/** Bytes of content written before the file ended or the client went away. */
	bytesSent: number;
}

/** What the file routes saw, for tests: every request, and which carried a credential. */
export class FileLog {
	requests: FileRequestRecord[] = [];

	withAuthorization(): FileRequestRecord[] {
		return this.requests.filter((r) => r.authorization);
	}

	reset(): void {
		this.requests = [];
	}
}

/**
 * The host files are served from: the other loopback name than the one the client used
 * for the API (127.0.0.1 ↔ localhost), so file addresses are on another host than the API,
 * as on the live service. Other names are kept as they are.
 */
export function fileOriginFor(apiOrigin: string): string {
	const url = new URL(apiOrigin);
	if (url.hostname === '127.0.0.1') url.hostname = 'localhost';
	else if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
	return url.origin;
}

/** A reply body with the seeded file addresses pointing at this sandbox's file host. */
export function withFileAddresses(body: string, apiOrigin: string): string {
	if (!body.includes(SEED_FILE_ORIGIN)) return body;
	return body.split(`${SEED_FILE_ORIGIN}/`).join(`${fileOriginFor(apiOrigin)}${FILES_PATH}`);
}

/** FNV-1a of the address: the seed of its content and of its default size. */
function hashOf(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash || 1;
}

/** Deterministic bytes: an xorshift32 stream seeded by the file's path (without query). */
export function* fileChunks(path: string, size: number, chunkSize = 64 * 1024): Generator<Buffer> {
	let state = hashOf(path);
	for (let sent = 0; sent < size; ) {
		const length = Math.min(chunkSize, size - sent);
		const chunk = Buffer.allocUnsafe(length);
		for (let i = 0; i < length; i += 4) {
			state ^= state << 13;
			state ^= state >>> 17;
			state ^= state << 5;
			state >>>= 0;
			for (let b = 0; b < 4 && i + b < length; b++) chunk[i + b] = (state >>> (8 * b)) & 0xff;
		}
		sent += length;
		yield chunk;
	}
}

/** Without `?size=`, a file is 1 KiB to 256 KiB, fixed by its path. */
export function defaultFileSize(path: string): number {
	return 1024 + (hashOf(`size:${path}`) % (255 * 1024));
}

export function contentTypeOf(path: string): string {
	const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
	return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

interface FileQuery {
	size: number;
	delayMs: number;
	/** Send no Content-Length (chunked), as some hosts do. */
	chunked: boolean;
	/** Close the connection after this many bytes of content (a host that dies mid-file). */
	breakAfter?: number;
}

function fileQuery(path: string, query: URLSearchParams): FileQuery {
	const size = Number(query.get('size'));
	const delayMs = Number(query.get('delayMs'));
	const breakAfter = Number(query.get('breakAfter'));
	return {
		size:
			Number.isSafeInteger(size) && size >= 0 && query.has('size') ? size : defaultFileSize(path),
		delayMs: Number.isFinite(delayMs) && delayMs > 0 ? delayMs : 0,
		chunked: query.get('chunked') === '1',
		breakAfter:
			query.has('breakAfter') && Number.isSafeInteger(breakAfter) && breakAfter >= 0
				? breakAfter
				: undefined,
	};
}

function plain(res: ServerResponse, status: number, text: string, headers = {}): void {
	res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
	res.end(text);
}

/**
 * Writes the chunks with backpressure; stops when the client goes away. With
 * `breakAfter`, the connection is closed once that many bytes are written.
 */
async function writeChunks(
	res: ServerResponse,
	chunks: Iterable<Buffer>,
	record: FileRequestRecord,
	breakAfter = Infinity,
): Promise<void> {
	for (const whole of chunks) {
		if (res.destroyed) return;
		const chunk = whole.subarray(0, Math.max(0, breakAfter - record.bytesSent));
		record.bytesSent += chunk.length;
		if (record.bytesSent >= breakAfter) {
			res.write(chunk, () => res.destroy());
			return;
		}
		if (!res.write(chunk)) {
			await new Promise<void>((resolve) => {
				const done = () => {
					res.off('drain', done);
					res.off('close', done);
					resolve();
				};
				res.on('drain', done);
				res.on('close', done);
			});
		}
	}
	res.end();
}

/**
 * `GET /files/<token>/<name>[?size=N&delayMs=M&chunked=1&breakAfter=B]` serves the file; the token
 * `missing` answers 404 and `redirect` answers 302 to `?to=<address>`. `viaApi`: the API
 * host's own file route (`<basePath>/v1/api/files/…`) passed the API's checks, bearer
 * included, and these are its rate-limit headers.
 */
export async function serveFile(
	log: FileLog,
	req: IncomingMessage,
	res: ServerResponse,
	url: URL,
	{ viaApi }: { viaApi?: Record<string, string> } = {},
): Promise<void> {
	const authorization = req.headers.authorization !== undefined;
	const record = { path: url.pathname, host: req.headers.host ?? '', authorization, bytesSent: 0 };
	log.requests.push(record);
	if (authorization && !viaApi) {
		plain(res, 401, 'File routes take no Authorization header: the credential leaked here.');
		return;
	}
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		plain(res, 405, 'Only GET');
		return;
	}
	const [token] = url.pathname
		.slice(url.pathname.indexOf(FILES_PATH) + FILES_PATH.length)
		.split('/');
	if (token === 'missing') return plain(res, 404, 'No such file (or its link expired).');
	if (token === 'redirect') {
		const to = url.searchParams.get('to') ?? '';
		return plain(res, 302, `Redirecting to ${to}`, { location: to });
	}
	const query = fileQuery(url.pathname, url.searchParams);
	if (query.delayMs) await sleep(query.delayMs);
	if (res.destroyed) return;
	const name = decodeURIComponent(url.pathname.split('/').pop() ?? 'file');
	res.writeHead(200, {
		...viaApi,
		'content-type': contentTypeOf(url.pathname),
		'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
		...(query.chunked ? {} : { 'content-length': String(query.size) }),
	});
	if (req.method === 'HEAD') return void res.end();
	await writeChunks(res, fileChunks(url.pathname, query.size), record, query.breakAfter);
}
