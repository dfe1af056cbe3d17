/** What every handler may use: the state and the sandbox-wide machinery around it. */
import type { Churn } from './churn';
import type { Faults } from './faults';
import type { FileLog } from './files';
import type { Headers } from './http';
import type { RateLimiter } from './rateLimit';
import type { Stats } from './stats';
import type { SandboxStore } from './store';

export interface SandboxContext {
	store: SandboxStore;
	faults: Faults;
	/** Changes made between list requests, for testing clients that page. */
	churn: Churn;
	stats: Stats;
	/** Requests to the file routes, and which carried a credential. */
	files: FileLog;
	rateLimiter: RateLimiter;
	/** Lifetime of OAuth authorization codes. */
	codeTtlMs: number;
	/** Default time-out of one webhook delivery. */
	deliveryTimeoutMs: number;
	/** The status /webhook/delete answers for an id it cannot delete (unknown or another account's). */
	unknownWebhookStatus: 400 | 404;
	/** A delivery answered 404 disables its webhook (n8n answers 404 for a webhook it has not registered yet). */
	disableWebhookOn404: boolean;
}

/** One incoming request, read and parsed as far as every route needs. */
export interface Incoming {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: Headers;
	bodyText: string;
	/** Origin as the client reached the sandbox (from the Host header), for links it hands out. */
	origin: string;
	remoteAddress: string;
}
