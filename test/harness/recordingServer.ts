/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: a real local HTTP listener needs node:http */
/**
 * A real HTTP server on 127.0.0.1 (random port) that records every request and answers
 * with whatever the test's handler returns. Use it as the "API" a node calls, or as the
 * listener a webhook URL points at.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
	method: string;
	/** Path plus query string, as received. */
	url: string;
	/** Path only. */
	path: string;
	query: Record<string, string>;
	/** Lower-cased header names, as node:http gives them. */
	headers: IncomingHttpHeaders;
	/** Raw body text ('' when none). */
	body: string;
	/** Body parsed as JSON when it is JSON, else undefined. */
	json?: unknown;
}

export interface ServerReply {
	status?: number;
	headers?: Record<string, string>;
	/** Objects and arrays are sent as JSON; strings as text. */
	body?: unknown;
}

export type RequestHandler = (request: RecordedRequest) => ServerReply | Promise<ServerReply>;

export interface RecordingServer {
	/** e.g. `http://127.0.0.1:54321` (no trailing slash). */
	readonly url: string;
	readonly port: number;
	readonly requests: RecordedRequest[];
	/** Replace the handler for the following requests. */
	setHandler(handler: RequestHandler): void;
	close(): Promise<void>;
}

const defaultHandler: RequestHandler = () => ({ status: 200, body: {} });

function concat(chunks: Uint8Array[]): Uint8Array {
	const all = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
	let offset = 0;
	for (const chunk of chunks) {
		all.set(chunk, offset);
		offset += chunk.length;
	}
	return all;
}

function parseJson(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

export async function startRecordingServer(
	handler: RequestHandler = defaultHandler,
): Promise<RecordingServer> {
	let current = handler;
	const requests: RecordedRequest[] = [];
	const server: Server = createServer((req, res) => {
		const chunks: Uint8Array[] = [];
		req.on('data', (chunk: Uint8Array) => chunks.push(chunk));
		req.on('end', () => {
			const body = new TextDecoder().decode(concat(chunks));
			const parsed = new URL(req.url ?? '/', 'http://127.0.0.1');
			const recorded: RecordedRequest = {
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				path: parsed.pathname,
				query: Object.fromEntries(parsed.searchParams.entries()),
				headers: req.headers,
				body,
				json: parseJson(body),
			};
			requests.push(recorded);
			Promise.resolve()
				.then(async () => await current(recorded))
				.then(
					(reply) => {
						const status = reply.status ?? 200;
						const headers = { ...(reply.headers ?? {}) };
						let payload = '';
						if (typeof reply.body === 'string') {
							payload = reply.body;
							headers['content-type'] ??= 'text/plain';
						} else if (reply.body !== undefined) {
							payload = JSON.stringify(reply.body);
							headers['content-type'] ??= 'application/json';
						}
						res.writeHead(status, headers);
						res.end(payload);
					},
					(error: unknown) => {
						res.writeHead(500, { 'content-type': 'text/plain' });
						res.end(`recording server handler failed: ${String(error)}`);
					},
				);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		requests,
		setHandler(next) {
			current = next;
		},
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) =>
				server.close((error) => (error ? reject(error) : resolve())),
			);
		},
	};
}

/** A URL on 127.0.0.1 whose port was free a moment ago and has nothing listening. */
export async function closedPortUrl(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}

/**
 * One recording server for a whole test file: started in `beforeAll`, closed in
 * `afterAll`; before each test its request log is cleared and its handler reset to
 * `handler`. Use the returned object inside tests only.
 */
export function useRecordingServer(handler: RequestHandler = defaultHandler): RecordingServer {
	let server: RecordingServer | undefined;
	const current = (): RecordingServer => {
		if (server === undefined) throw new Error('useRecordingServer: use it inside a test');
		return server;
	};
	beforeAll(async () => {
		server = await startRecordingServer(handler);
	});
	beforeEach(() => {
		current().requests.length = 0;
		current().setHandler(handler);
	});
	afterAll(async () => await server?.close());
	return {
		get url() {
			return current().url;
		},
		get port() {
			return current().port;
		},
		get requests() {
			return current().requests;
		},
		setHandler: (next) => current().setHandler(next),
		close: async () => await current().close(),
	};
}
