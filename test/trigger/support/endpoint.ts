/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: a node:http server stands in for n8n's webhook endpoint */
/**
 * n8n's webhook endpoint for the trigger tests that receive real deliveries: a tiny
 * node:http server that hands each request (method, headers, query, the body as n8n
 * parses it, raw bytes) to the trigger's webhook() through the harness. As n8n's HTTP server, it
 * answers the caller as soon as the node ends its response (the trigger may go on
 * working, e.g. downloading files, after that), or with n8n's 200 once webhook()
 * returned without answering.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeExecutionData } from 'n8n-workflow';

import type { TriggerHarness } from '../../harness';

export interface Received {
	path: string;
	query: Record<string, string>;
	status: number;
	items: INodeExecutionData[];
	/** performance.now() when the caller was answered, and when webhook() returned. */
	answeredAt: number;
	returnedAt: number;
}

export interface Endpoint {
	url: string;
	/** One entry per request, once its webhook() call has returned. */
	received: Received[];
	/** The trigger whose webhook() answers; set by each test. */
	trigger?: TriggerHarness;
	/** Resolves when every webhook() call started so far has returned. */
	settled(): Promise<void>;
	close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * As n8n 2.41.1 and 1.123 do for a version-1 webhook node (n8n's body-parser.js
 * `parseBody`): JSON arrives parsed (unparseable: 422 before the node runs), text/plain
 * as a string, form fields parsed, any other or no Content-Type leaves the body unset;
 * the raw bytes stay on the request either way.
 */
function parsedBody(req: IncomingMessage, raw: Buffer): { body: unknown } | undefined {
	const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	if (raw.length === 0) return { body: undefined };
	const text = raw.toString('utf8');
	if (type === 'application/json') {
		try {
			return { body: JSON.parse(text.replace(/^\uFEFF/, '')) };
		} catch {
			return undefined;
		}
	}
	if (type === 'text/plain') return { body: text };
	if (type === 'application/x-www-form-urlencoded') {
		return { body: Object.fromEntries(new URLSearchParams(text)) };
	}
	return { body: undefined };
}

function stringHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (typeof value === 'string') headers[name] = value;
	}
	return headers;
}

export async function startEndpoint(): Promise<Endpoint> {
	const pending = new Set<Promise<void>>();
	const endpoint: Endpoint = {
		url: '',
		received: [],
		settled: async () => {
			while (pending.size) await Promise.all(pending);
		},
		close: async () => {},
	};
	const server: Server = createServer((req, res) => {
		let answeredAt = 0;
		const answer = (status: number, body: unknown) => {
			if (res.headersSent) return;
			answeredAt = performance.now();
			res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		};
		const work = (async () => {
			const raw = await readBody(req);
			const url = new URL(req.url ?? '/', endpoint.url);
			const trigger = endpoint.trigger;
			const isTest = url.pathname.startsWith('/webhook-test/');
			const registered = trigger?.webhookUrl({ mode: isTest ? 'manual' : 'trigger' });
			if (!trigger || !registered || new URL(registered).pathname !== url.pathname) {
				answer(404, { message: 'The requested webhook is not registered.' });
				return;
			}
			const parsed = parsedBody(req, raw);
			if (!parsed) return answer(422, { message: 'Failed to parse request body' });
			const query = Object.fromEntries(url.searchParams);
			const result = await trigger.receive(
				{ method: 'POST', headers: stringHeaders(req), query, body: parsed.body, rawBody: raw },
				{
					mode: isTest ? 'manual' : 'trigger',
					onResponseEnd: (sent) => answer(sent.statusCode, sent.body ?? {}),
				},
			);
			answer(200, { message: 'Workflow was started' });
			const status = result.res.ended ? result.res.statusCode : 200;
			endpoint.received.push({
				path: url.pathname,
				query,
				status,
				items: result.items,
				answeredAt,
				returnedAt: performance.now(),
			});
		})().catch((error: unknown) => answer(500, { message: String(error) }));
		pending.add(work);
		void work.finally(() => pending.delete(work));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	endpoint.close = () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return endpoint;
}
