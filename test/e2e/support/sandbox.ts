/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: runs the sandbox CLI as a child process (node:fs/path/os, process.execPath) */
/**
 * The local Fillout API (sandbox/) as its own process, the way `npm run sandbox` runs
 * it, plus typed clients for its control API and for checking data through its API.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Counted } from '../../../sandbox/stats';
import { http, httpOk, type Json } from '../../support/http';
import { REPO_ROOT } from './paths';
import type { StopOptions } from './processes';
import { cleanEnvironment, logTail, spawnManaged, waitFor } from './processes';

export interface SandboxProcessOptions {
	/** Default 0: any free port. */
	port?: number;
	/** Requests per second per key (default 5, as Fillout; 0 = off). */
	rateLimit?: number;
	/** Extra keys accepted for the demo account. */
	apiKeys?: string[];
	/** Persist state in this file. */
	dataFile?: string;
	codeTtlMs?: number;
	deliveryTimeoutMs?: number;
	/** Default: a file in a new temp folder. */
	logFile?: string;
}

export interface SandboxConnection {
	origin: string;
	/** The demo account's API root (`<origin>/v1/api`). */
	apiRoot: string;
	pid: number;
	logFile: string;
}

export interface RunningSandboxProcess extends SandboxConnection {
	control: SandboxControl;
	stop(options?: StopOptions): Promise<void>;
}

/** Starts `ts-node --transpile-only sandbox/cli.ts` and waits for its banner and control API. */
export async function startSandboxProcess(
	options: SandboxProcessOptions = {},
): Promise<RunningSandboxProcess> {
	const logFile =
		options.logFile ?? join(mkdtempSync(join(tmpdir(), 'fillout-sandbox-')), 'sandbox.log');
	const args = [
		require.resolve('ts-node/dist/bin.js'),
		'--transpile-only',
		join(REPO_ROOT, 'sandbox', 'cli.ts'),
		'--port',
		String(options.port ?? 0),
	];
	if (options.rateLimit !== undefined) args.push('--rate-limit', String(options.rateLimit));
	for (const key of options.apiKeys ?? []) args.push('--api-key', key);
	if (options.dataFile) args.push('--data', options.dataFile);
	if (options.codeTtlMs !== undefined) args.push('--code-ttl', String(options.codeTtlMs));
	if (options.deliveryTimeoutMs !== undefined) {
		args.push('--delivery-timeout', String(options.deliveryTimeoutMs));
	}
	const child = spawnManaged(process.execPath, args, {
		cwd: REPO_ROOT,
		env: cleanEnvironment(),
		logFile,
	});
	let started = false;
	try {
		const apiRoot = await waitFor(
			async () => {
				if (!child.isRunning()) throw new Error(`the sandbox exited:\n${logTail(logFile)}`);
				const match = /^API root: (\S+)$/m.exec(readFileSync(logFile, 'utf8'));
				return match?.[1];
			},
			{ timeoutMs: 60_000, intervalMs: 100, description: 'the sandbox banner' },
		);
		const origin = new URL(apiRoot).origin;
		const control = new SandboxControl(origin);
		await waitFor(async () => (await control.info()).origin === origin, {
			timeoutMs: 10_000,
			description: 'the sandbox control API',
		});
		started = true;
		return {
			origin,
			apiRoot,
			pid: child.pid,
			logFile,
			control,
			stop: async (stopOptions) => await child.stop(stopOptions),
		};
	} finally {
		if (!started) await child.stop({ kill: true });
	}
}

export interface SandboxAccount {
	id: string;
	name: string;
	basePath: string;
	apiRoot: string;
	apiKeys: string[];
	forms: Array<{ formId: string; name: string; submissions: number }>;
}

export interface SandboxInfo {
	origin: string;
	apiRoot: string;
	authorizeUrl: string;
	accessTokenUrl: string;
	accounts: SandboxAccount[];
	oauthClients: Array<{
		clientId: string;
		clientSecret: string;
		name: string;
		redirectUris: string[];
	}>;
}

export interface SandboxWebhook {
	id: number;
	formId: string;
	url: string;
	account: string;
	createdAt: string;
	shape: 'wrapped' | 'bare';
	timeoutMs?: number;
	deliveries: Array<{
		submissionId: string;
		shape: string;
		at: string;
		statusCode?: number;
		error?: string;
		durationMs: number;
	}>;
}

export interface QuestionSpec {
	id?: string;
	name: string;
	type: string;
	options?: Array<string | { id?: string; value: string; label?: string }>;
}

export interface NewForm {
	name: string;
	accountId?: string;
	formId?: string;
	questions?: QuestionSpec[];
	urlParameters?: string[];
	scheduling?: string[];
	payments?: string[];
	tags?: string[];
	quiz?: boolean;
	login?: boolean;
}

export interface Respond {
	answers?: Record<string, unknown>;
	submission?: Record<string, unknown>;
	status?: 'finished' | 'in_progress';
	preview?: boolean;
	fillUnanswered?: boolean;
}

export interface RespondResult {
	submission: Submission;
	deliveries: Array<{
		webhookId: number;
		url: string;
		shape: string;
		statusCode?: number;
		error?: string;
		durationMs: number;
	}>;
}

/** A submission as the Fillout API shows it (only what the suite reads is typed). */
export interface Submission {
	submissionId: string;
	submissionTime: string;
	lastUpdatedAt?: string;
	questions: Array<{ id: string; name: string; type: string; value: unknown }>;
	[key: string]: unknown;
}

export interface FormMetadata {
	id: string;
	name: string;
	questions: Array<{ id: string; name: string; type: string; options?: unknown[] }>;
	[key: string]: unknown;
}

export interface SandboxStats {
	total: number;
	rateLimited: number;
	requests: Record<string, number>;
	byKey: Record<
		string,
		{
			total: number;
			rateLimited: number;
			requests: Record<string, number>;
			/** The requests answered 429, per route. */
			refused: Record<string, number>;
			/** When the key's first request since the last reset came in (ms since the epoch). */
			firstAt?: number;
		}
	>;
}

/** The sandbox's `/_sandbox/` control API. */
export class SandboxControl {
	constructor(readonly origin: string) {}

	private async call<T>(method: string, path: string, json?: unknown): Promise<T> {
		return (await httpOk<T>(method, `${this.origin}/_sandbox${path}`, { json })).body;
	}

	async info(): Promise<SandboxInfo> {
		return await this.call('GET', '/info');
	}

	async account(id: string): Promise<SandboxAccount> {
		const account = (await this.info()).accounts.find((candidate) => candidate.id === id);
		if (!account) throw new Error(`the sandbox has no account ${id}`);
		return account;
	}

	async reset(): Promise<void> {
		await this.call('POST', '/reset');
	}

	async webhooks(): Promise<SandboxWebhook[]> {
		return await this.call('GET', '/webhooks');
	}

	async webhooksOf(formId: string): Promise<SandboxWebhook[]> {
		return (await this.webhooks()).filter((webhook) => webhook.formId === formId);
	}

	/** Changes how a webhook is delivered: the live wrapped shape or the bare Submission. */
	async updateWebhook(
		id: number,
		changes: { shape?: 'wrapped' | 'bare'; timeoutMs?: number },
	): Promise<SandboxWebhook> {
		return await this.call('PATCH', `/webhooks/${id}`, changes);
	}

	/** Fillout drops the webhook on its side (deleted or disabled): no more deliveries. */
	async dropWebhook(id: number): Promise<void> {
		await this.call('DELETE', `/webhooks/${id}`);
	}

	async createForm(form: NewForm): Promise<FormMetadata> {
		return await this.call('POST', '/forms', form);
	}

	async respond(formId: string, body: Respond = {}): Promise<RespondResult> {
		return await this.call('POST', `/forms/${encodeURIComponent(formId)}/respond`, body);
	}

	async generate(
		formId: string,
		body: {
			count: number;
			status?: string;
			startTime?: string;
			stepMs?: number;
			preview?: boolean;
		},
	): Promise<{
		count: number;
		submissionIds: string[];
		firstSubmissionTime: string;
		lastSubmissionTime: string;
	}> {
		return await this.call('POST', `/forms/${encodeURIComponent(formId)}/generate`, body);
	}

	async stats(): Promise<SandboxStats> {
		return await this.call('GET', '/stats');
	}

	/** When each of the key's requests was counted against its rate limit (ms since the epoch), and whether it was refused (1). */
	async timeline(key: string): Promise<Counted[]> {
		return await this.call('GET', `/stats/timeline?key=${encodeURIComponent(key)}`);
	}

	async resetStats(): Promise<SandboxStats> {
		return await this.call('POST', '/stats/reset');
	}

	async setFaults(faults: Json): Promise<Json> {
		return await this.call('POST', '/faults', faults);
	}

	async clearFaults(): Promise<Json> {
		return await this.call('DELETE', '/faults');
	}

	/** The fault rules still armed (each with the count it has left). */
	async faults(): Promise<{ dropNext: Array<{ remaining: number }> } & Record<string, unknown>> {
		return await this.call('GET', '/faults');
	}

	/** Registers an OAuth app (e.g. with exactly n8n's callback as its redirect URI). */
	async createOAuthClient(body: {
		redirectUris: string[];
		clientId?: string;
		clientSecret?: string;
		name?: string;
	}): Promise<{ clientId: string; clientSecret: string; name: string; redirectUris: string[] }> {
		return await this.call('POST', '/oauth/clients', body);
	}

	async createAccount(body: { apiKey?: string; basePath?: string; name?: string } = {}): Promise<{
		id: string;
		name: string;
		basePath: string;
		apiKey: string;
		apiRoot: string;
	}> {
		return await this.call('POST', '/accounts', body);
	}
}

/** Reads through the Fillout API itself, to check what the nodes did (own key, own rate limit). */
export class FilloutApi {
	constructor(
		readonly apiRoot: string,
		readonly key: string,
	) {}

	private url(path: string, query: Record<string, string | number | boolean> = {}): string {
		const qs = new URLSearchParams(
			Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
		).toString();
		return `${this.apiRoot}${path}${qs ? `?${qs}` : ''}`;
	}

	/** GET with retries on 429 (the suite shares the sandbox's rate limit with n8n). */
	async get<T = Json>(
		path: string,
		query?: Record<string, string | number | boolean>,
	): Promise<{ status: number; body: T }> {
		for (let attempt = 1; ; attempt++) {
			const result = await http<T>('GET', this.url(path, query), {
				headers: { authorization: `Bearer ${this.key}` },
			});
			if (result.status !== 429 || attempt >= 10) return result;
			await new Promise((resolve) => setTimeout(resolve, 1_000));
		}
	}

	private async getOk<T>(
		path: string,
		query?: Record<string, string | number | boolean>,
	): Promise<T> {
		const result = await this.get<T>(path, query);
		if (result.status !== 200) {
			throw new Error(`GET ${path} answered ${result.status}: ${JSON.stringify(result.body)}`);
		}
		return result.body;
	}

	async forms(): Promise<Array<{ formId: string; name: string; [key: string]: unknown }>> {
		return await this.getOk('/forms');
	}

	async form(formId: string): Promise<FormMetadata> {
		return await this.getOk(`/forms/${encodeURIComponent(formId)}`);
	}

	/** Every submission matching the query, paging with limit 150. */
	async allSubmissions(
		formId: string,
		query: Record<string, string | number | boolean> = {},
	): Promise<Submission[]> {
		const all: Submission[] = [];
		for (let offset = 0; ; offset += 150) {
			const page = await this.getOk<{ responses: Submission[]; totalResponses: number }>(
				`/forms/${encodeURIComponent(formId)}/submissions`,
				{ ...query, limit: 150, offset },
			);
			all.push(...page.responses);
			if (page.responses.length < 150 || all.length >= page.totalResponses) return all;
		}
	}

	/** The submission, or undefined on 404. */
	async submission(formId: string, submissionId: string): Promise<Submission | undefined> {
		const result = await this.get<{ submission: Submission }>(
			`/forms/${encodeURIComponent(formId)}/submissions/${encodeURIComponent(submissionId)}`,
		);
		if (result.status === 404) return undefined;
		if (result.status !== 200) {
			throw new Error(`GET submission ${submissionId} answered ${result.status}`);
		}
		return result.body.submission;
	}
}

/** A form's webhooks once they stop changing (activation runs partly in the background). */
export async function settledWebhooks(
	control: SandboxControl,
	formId: string,
	atLeast = 0,
): Promise<SandboxWebhook[]> {
	let previous = '';
	let stableSince = Date.now();
	return await waitFor(
		async () => {
			const list = await control.webhooksOf(formId);
			const key = JSON.stringify(list.map((webhook) => [webhook.id, webhook.url]));
			if (key !== previous) {
				previous = key;
				stableSince = Date.now();
				return undefined;
			}
			return list.length >= atLeast && Date.now() - stableSince >= 1_500 ? list : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 250, description: `the webhooks of form ${formId} to settle` },
	);
}
