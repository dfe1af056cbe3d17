/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: webhook receivers are real node:http servers, and tests wait with timers */
/** Shared by the sandbox tests: HTTP calls over loopback and a real webhook receiver. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../sandbox';
import { http as call, type Json } from '../../support/http';
import { sandboxForTests } from '../../support/sandbox';

// The same fetch wrapper as the end-to-end suite; sandbox tests call it `call`.
export { http as call, type HttpResult, type Json } from '../../support/http';

/** Bearer-authenticated calls to one API root. */
export function apiClient(apiRoot: string, key: string) {
	const auth = { authorization: `Bearer ${key}` };
	const withQuery = (path: string, query?: Record<string, string | number | boolean>) => {
		const qs = query
			? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`
			: '';
		return `${apiRoot}${path}${qs}`;
	};
	return {
		get: <T = Json>(path: string, query?: Record<string, string | number | boolean>) =>
			call<T>('GET', withQuery(path, query), { headers: auth }),
		post: <T = Json>(path: string, json: unknown) =>
			call<T>('POST', withQuery(path), { headers: auth, json }),
		delete: <T = Json>(path: string) => call<T>('DELETE', withQuery(path), { headers: auth }),
	};
}

/** Calls to the unauthenticated /_sandbox/ control API. */
export function controlClient(origin: string) {
	return {
		get: <T = Json>(path: string) => call<T>('GET', `${origin}/_sandbox${path}`),
		post: <T = Json>(path: string, json: unknown = {}) =>
			call<T>('POST', `${origin}/_sandbox${path}`, { json }),
		patch: <T = Json>(path: string, json: unknown) =>
			call<T>('PATCH', `${origin}/_sandbox${path}`, { json }),
		delete: <T = Json>(path: string) => call<T>('DELETE', `${origin}/_sandbox${path}`),
	};
}

export interface Harness {
	sandbox: RunningSandbox;
	api: ReturnType<typeof apiClient>;
	control: ReturnType<typeof controlClient>;
}

/** Starts a sandbox on a free port; rate limiting is off unless the test asks for it. */
export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
	return harnessFor(await startSandbox({ port: 0, rateLimit: 0, ...options }));
}

/** startHarness for a file's (or describe block's) tests: the fields are set once they start. */
export function useHarness(options: SandboxOptions = {}): Harness {
	const sandbox = sandboxForTests({ rateLimit: 0, ...options });
	const h = {} as Harness;
	beforeAll(() => {
		Object.assign(h, harnessFor(sandbox()));
	});
	return h;
}

export function harnessFor(sandbox: RunningSandbox): Harness {
	return {
		sandbox,
		api: apiClient(sandbox.apiRoot, sandbox.demo.apiKey),
		control: controlClient(sandbox.origin),
	};
}

/** A fresh form in the demo account, so counts in a test are exact. */
export async function freshForm(
	control: ReturnType<typeof controlClient>,
	body: Record<string, unknown> = {},
): Promise<string> {
	const res = await control.post('/forms', { name: 'Test form', ...body });
	if (res.status !== 200) throw new Error(`creating a form failed: ${res.status} ${res.text}`);
	return res.body.id as string;
}

export { sleep } from '../../../sandbox/timers';

export interface ReceivedDelivery {
	headers: IncomingHttpHeaders;
	body: Json;
}

export interface Receiver {
	url: string;
	received: ReceivedDelivery[];
	close(): Promise<void>;
}

/** A real HTTP server that records JSON deliveries and answers after `delayMs` with `status`. */
export async function startReceiver(
	reply: { status?: number; delayMs?: number } = {},
): Promise<Receiver> {
	const received: ReceivedDelivery[] = [];
	const pending = new Set<ReturnType<typeof setTimeout>>();
	const server: Server = createServer((req, res) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => (text += chunk));
		req.on('end', () => {
			received.push({ headers: req.headers, body: JSON.parse(text) });
			const answer = () =>
				res
					.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
					.end('{"ok":true}');
			if (!reply.delayMs) {
				answer();
				return;
			}
			const timer = setTimeout(() => {
				pending.delete(timer);
				answer();
			}, reply.delayMs);
			pending.add(timer);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of pending) clearTimeout(timer);
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
