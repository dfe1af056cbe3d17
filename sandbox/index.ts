/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox is a dev tool: it is a node:http server */
/**
 * Local stand-in for the Fillout forms API (endpoints 1–10 of docs/fillout-api.md plus
 * `POST /webhook/delete`), behaving like the live service where it differs from Fillout's reference.
 * In-process tests call startSandbox(); other processes use the CLI and /_sandbox/ endpoints.
 */
import type { AddressInfo } from 'node:net';
import { Churn } from './churn';
import type { SandboxContext } from './context';
import { Faults } from './faults';
import { FileLog } from './files';
import { readStateFile, StateFile } from './persistence';
import { RateLimiter } from './rateLimit';
import { DEMO_ACCOUNT_ID, EU_ACCOUNT_ID } from './seed';
import { createSandboxServer } from './server';
import { Stats } from './stats';
import { SandboxStore, type PersistedState } from './store';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Requests per second per key; default 5, 0 turns limiting off. */
	rateLimit?: number;
	/** What `ratelimit-limit` announces; default `rateLimit` (another figure: a lying proxy). */
	announcedLimit?: number;
	/** Extra keys valid for the demo account, whatever their format. */
	apiKeys?: string[];
	/** Keep state in this JSON file across restarts; in memory only when absent. */
	dataFile?: string;
	/** Lifetime of OAuth authorization codes; default 60 000 ms. */
	codeTtlMs?: number;
	/** Time-out of one webhook delivery; default 10 000 ms. */
	deliveryTimeoutMs?: number;
	/** What /webhook/delete answers for an unknown or another account's id: 404 (default) or 400, as the live service answers many errors. */
	unknownWebhookStatus?: 400 | 404;
	/** Disable a webhook whose delivery is answered 404, as some form services do (default off). */
	disableWebhookOn404?: boolean;
	/** Accepted for callers that pass it; the library itself never prints. */
	quiet?: boolean;
}

export interface RunningSandbox {
	/** http://127.0.0.1:PORT */
	origin: string;
	/** origin + '/v1/api' */
	apiRoot: string;
	demo: {
		apiKey: string;
		formIds: string[];
		euApiKey: string;
		euApiRoot: string;
		oauthClient: { clientId: string; clientSecret: string };
	};
	/** Typed access to the state for tests in the same process; other processes use /_sandbox/. */
	context: SandboxContext;
	close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const host = options.host ?? '127.0.0.1';
	let stateFile: StateFile | undefined;
	const store = new SandboxStore(options.apiKeys ?? [], () => stateFile?.schedule());
	if (options.dataFile) {
		const saved = readStateFile<PersistedState>(options.dataFile);
		if (saved) {
			if (saved.version !== 1)
				throw new Error(`${options.dataFile}: unsupported state version ${String(saved.version)}`);
			store.load(saved);
		}
		stateFile = new StateFile(options.dataFile, () => store.snapshot());
		stateFile.schedule();
	}
	const context: SandboxContext = {
		store,
		faults: new Faults(),
		churn: new Churn(),
		stats: new Stats(),
		files: new FileLog(),
		rateLimiter: new RateLimiter(options.rateLimit ?? 5, Date.now, options.announcedLimit),
		codeTtlMs: options.codeTtlMs ?? 60_000,
		deliveryTimeoutMs: options.deliveryTimeoutMs ?? 10_000,
		unknownWebhookStatus: options.unknownWebhookStatus ?? 404,
		disableWebhookOn404: options.disableWebhookOn404 ?? false,
	};
	let origin = '';
	const server = createSandboxServer(context, () => origin);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => resolve());
	});
	const { port } = server.address() as AddressInfo;
	origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

	const demoAccount = store.accounts.get(DEMO_ACCOUNT_ID);
	const euAccount = store.accounts.get(EU_ACCOUNT_ID);
	const demoClient = [...store.oauthClients.values()][0];
	let closed: Promise<void> | undefined;
	return {
		origin,
		apiRoot: `${origin}/v1/api`,
		demo: {
			apiKey: demoAccount?.apiKeys[0].key ?? '',
			formIds: [...store.demoFormIds],
			euApiKey: euAccount?.apiKeys[0].key ?? '',
			euApiRoot: `${origin}${euAccount?.basePath ?? '/eu'}/v1/api`,
			oauthClient: {
				clientId: demoClient?.clientId ?? '',
				clientSecret: demoClient?.clientSecret ?? '',
			},
		},
		context,
		close() {
			closed ??= new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}).then(() => stateFile?.flush());
			return closed;
		},
	};
}
