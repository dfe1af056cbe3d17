/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: a node:http file host that drips and stalls on timers */
/**
 * A file host that misbehaves on purpose, over real HTTP on 127.0.0.1, for the Download
 * Files tests: it records every request and when the client's connection closed.
 *
 * - `/stall/<name>?bytes=N[&length=L]`: headers (Content-Length L, or chunked without it),
 *   N bytes, then silence for good.
 * - `/drip/<name>?size=N&overMs=T`: N bytes in 20 even steps over T ms.
 * - `/redirect/<name>?to=<address>[&delayMs=M]`: 302 to the address (after M ms).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sleep } from '../../../../sandbox/timers';

export interface HostedRequest {
	path: string;
	headers: IncomingMessage['headers'];
	startedAt: number;
	/** Content bytes written. */
	bytesSent: number;
	/** When the client's connection went away (undefined while it is open). */
	closedAt?: number;
}

export interface FileHost {
	origin: string;
	requests: HostedRequest[];
	/** Resolves once `count` requests have arrived and a first chunk went out to the last. */
	sending(count?: number): Promise<void>;
	/** Waits up to `ms` for every request's connection to close; returns those still open. */
	openAfter(ms: number): Promise<HostedRequest[]>;
	close(): Promise<void>;
}

function serve(req: IncomingMessage, res: ServerResponse, record: HostedRequest): void {
	const url = new URL(req.url ?? '/', 'http://host');
	const [, kind] = url.pathname.split('/');
	const number = (name: string, fallback: number) =>
		url.searchParams.has(name) ? Number(url.searchParams.get(name)) : fallback;
	if (kind === 'redirect') {
		void sleep(number('delayMs', 0)).then(() => {
			res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
			res.end();
		});
		return;
	}
	if (kind === 'stall') {
		const length = url.searchParams.get('length');
		res.writeHead(200, {
			'content-type': 'application/pdf',
			...(length === null ? {} : { 'content-length': length }),
		});
		const bytes = number('bytes', 65_536);
		record.bytesSent = bytes;
		return void res.write(Buffer.alloc(bytes, 1));
	}
	if (kind === 'drip') {
		const size = number('size', 20_000);
		const overMs = number('overMs', 3_000);
		res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(size) });
		void (async () => {
			const step = Math.ceil(size / 20);
			while (record.bytesSent < size && !res.destroyed) {
				const chunk = Math.min(step, size - record.bytesSent);
				res.write(Buffer.alloc(chunk, 2));
				record.bytesSent += chunk;
				await sleep(overMs / 20);
			}
			if (!res.destroyed) res.end();
		})();
		return;
	}
	res.writeHead(404);
	res.end();
}

export async function startFileHost(): Promise<FileHost> {
	const requests: HostedRequest[] = [];
	const server = createServer((req, res) => {
		const record: HostedRequest = {
			path: req.url ?? '',
			headers: req.headers,
			startedAt: Date.now(),
			bytesSent: 0,
		};
		requests.push(record);
		res.on('close', () => (record.closedAt = Date.now()));
		serve(req, res, record);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		requests,
		async sending(count = 1) {
			while (requests.length < count || requests[count - 1].bytesSent === 0) await sleep(10);
		},
		async openAfter(ms) {
			const until = Date.now() + ms;
			while (Date.now() < until && requests.some((r) => r.closedAt === undefined)) await sleep(10);
			return requests.filter((r) => r.closedAt === undefined);
		},
		async close() {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
