/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox is a dev tool: it is a node:http server */
/** Small HTTP toolkit: replies as values, body parsing, and route matching by path template. */
import type { IncomingMessage } from 'node:http';
import { ApiError, errorBody } from './errors';

/** Handlers return a Reply instead of writing, so the server can still drop it (fault injection). */
export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: string;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		body: JSON.stringify(value),
	};
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Reply {
	return { status, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body };
}

/** The reply with only the first `keep` entries of its JSON `submissions` list (other replies as they are). */
export function withFewerSubmissions(reply: Reply, keep: number): Reply {
	const value = parseJson(reply.body);
	if (!value.ok || typeof value.value !== 'object' || value.value === null) return reply;
	const { submissions } = value.value as { submissions?: unknown };
	if (!Array.isArray(submissions)) return reply;
	return {
		...reply,
		body: JSON.stringify({ ...value.value, submissions: submissions.slice(0, keep) }),
	};
}

export function html(status: number, markup: string): Reply {
	return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: markup };
}

export function redirect(location: string): Reply {
	return {
		status: 302,
		headers: { location, 'content-type': 'text/plain; charset=utf-8' },
		body: `Redirecting to ${location}`,
	};
}

export function errorReply(error: ApiError, headers: Record<string, string> = {}): Reply {
	return json(error.status, error.body(), headers);
}

export function unexpectedErrorReply(error: unknown): Reply {
	return json(500, errorBody(500, error instanceof Error ? error.message : String(error)));
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Uint8Array[] = [];
		let size = 0;
		req.on('data', (chunk: Uint8Array) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new ApiError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
				req.destroy();
			} else chunks.push(chunk);
		});
		req.on('end', () => resolve(new TextDecoder().decode(concat(chunks, size))));
		req.on('error', reject);
	});
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
	const all = new Uint8Array(size);
	let at = 0;
	for (const chunk of chunks) {
		all.set(chunk, at);
		at += chunk.length;
	}
	return all;
}

export type Headers = IncomingMessage['headers'];

export function mediaType(headers: Headers): string {
	return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** A JSON body; an empty body is `undefined`. Non-JSON media types are refused with 415. */
export function parseJsonBody(headers: Headers, text: string): unknown {
	if (text.trim() === '') return undefined;
	const type = mediaType(headers);
	if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
		throw new ApiError(415, `Unsupported Media Type: ${type}; send application/json`);
	}
	const parsed = parseJson(text);
	if (!parsed.ok) throw new ApiError(400, 'Body is not valid JSON');
	return parsed.value;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

/** A JSON object body; an empty body counts as `{}`. */
export function objectBody(headers: Headers, text: string): Record<string, unknown> {
	const body = parseJsonBody(headers, text) ?? {};
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw new ApiError(400, 'Body must be a JSON object');
	return body as Record<string, unknown>;
}

/** Fields of a JSON object or an application/x-www-form-urlencoded body, as strings. */
export function parseFieldsBody(headers: Headers, text: string): Record<string, string> {
	if (mediaType(headers) === 'application/x-www-form-urlencoded')
		return Object.fromEntries(new URLSearchParams(text));
	const value = parseJsonBody(headers, text);
	if (value === undefined) return {};
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw new ApiError(400, 'Body must be a JSON object');
	const fields: Record<string, string> = {};
	for (const [key, field] of Object.entries(value)) {
		if (typeof field === 'string' || typeof field === 'number') fields[key] = String(field);
	}
	return fields;
}

export interface Route<H> {
	method: string;
	/** e.g. '/forms/:formId/submissions'; also the name the stats use. */
	template: string;
	handler: H;
}

export type RouteMatch<H> =
	| { kind: 'found'; route: Route<H>; params: Record<string, string> }
	| { kind: 'none' };

function matchTemplate(template: string, path: string): Record<string, string> | undefined {
	const want = template.split('/');
	const got = path.split('/');
	if (want.length !== got.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < want.length; i++) {
		if (want[i].startsWith(':')) {
			if (got[i] === '') return undefined;
			try {
				params[want[i].slice(1)] = decodeURIComponent(got[i]);
			} catch {
				return undefined;
			}
		} else if (want[i] !== got[i]) return undefined;
	}
	return params;
}

export function matchRoute<H>(
	routes: ReadonlyArray<Route<H>>,
	method: string,
	path: string,
): RouteMatch<H> {
	for (const route of routes) {
		if (route.method !== method) continue;
		const params = matchTemplate(route.template, path);
		if (params) return { kind: 'found', route, params };
	}
	return { kind: 'none' };
}

/** Fastify's wording for unknown routes. */
export function routeNotFound(method: string, path: string): ApiError {
	return new ApiError(404, `Route ${method}:${path} not found`);
}
