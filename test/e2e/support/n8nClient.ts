/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test-only: the owner of a throwaway n8n in a temp folder has a fixed password */
/**
 * A small typed client for n8n's internal REST API (`/rest/...`, cookie session), as
 * the editor uses it. Checked against n8n 2.41.1 and 1.123.81; where they differ
 * (creating, running and activating workflows) it asks n8n for its version and sends
 * what that version's editor sends.
 */
import { parse as parseFlatted } from 'flatted';

import { http, HttpError, type HttpOptions, type HttpResult, type Json } from '../../support/http';
import { n8nMajorVersion } from './paths';
import { sleep, waitFor } from './processes';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export const DEFAULT_OWNER: Owner = {
	email: 'e2e-owner@example.com',
	password: 'E2e-Passw0rd-Fillout',
	firstName: 'End',
	lastName: 'ToEnd',
};

export interface CredentialRecord {
	id: string;
	name: string;
	type: string;
	/** Only with `includeData`; secrets are redacted, and `oauthTokenData` shows as `true`. */
	data?: Record<string, unknown>;
}

export interface NodeDefinition {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	disabled?: boolean;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	[key: string]: unknown;
}

/** An editor request for a node's dynamic parameters. */
export interface DynamicParametersRequest {
	nodeType: string;
	nodeVersion?: number;
	/** The parameter asking, e.g. "parameters.form" or "parameters.columns". */
	path: string;
	methodName: string;
	/** The node's current parameters (as the editor holds them). */
	parameters: Record<string, unknown>;
	/** The node's credentials: `{ filloutFormsApi: { id, name } }`. */
	credentials: Record<string, { id: string; name: string }>;
}

export interface WorkflowDefinition {
	name: string;
	nodes: NodeDefinition[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	/** Items pinned to a node (e.g. the Manual Trigger): manual runs start with them. */
	pinData?: Record<string, Array<{ json: Record<string, unknown> }>>;
	staticData?: Record<string, unknown> | null;
}

export interface WorkflowRecord extends WorkflowDefinition {
	id: string;
	active: boolean;
	versionId: string;
	activeVersionId?: string | null;
	isArchived?: boolean;
}

export type ExecutionStatus =
	| 'new'
	| 'running'
	| 'success'
	| 'error'
	| 'canceled'
	| 'crashed'
	| 'waiting'
	| 'unknown';

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: ExecutionStatus;
	createdAt: string;
	startedAt?: string;
	stoppedAt?: string;
}

/** One node run as n8n stores it (the parts the suite reads). */
export interface TaskData {
	startTime: number;
	executionTime: number;
	executionStatus?: string;
	data?: { main: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null> };
	error?: NodeErrorData;
}

export interface NodeErrorData {
	name?: string;
	message: string;
	description?: string | null;
	httpCode?: string | null;
	node?: { name: string };
	[key: string]: unknown;
}

/** The parsed `data` of an execution (IRunExecutionData, the parts the suite reads). */
export interface RunExecutionData {
	resultData: {
		runData: Record<string, TaskData[]>;
		error?: NodeErrorData;
		lastNodeExecuted?: string;
	};
	[key: string]: unknown;
}

/** A finished (or stopped) execution with its data parsed from n8n's `flatted` form. */
export class Execution {
	constructor(
		readonly id: string,
		readonly status: ExecutionStatus,
		readonly mode: string,
		readonly workflowId: string,
		readonly data: RunExecutionData,
	) {}

	/** The items a node put on an output (default: first run, first output). */
	items(
		nodeName: string,
		options: { run?: number; output?: number } = {},
	): Array<Record<string, unknown>> {
		const run = this.nodeRun(nodeName, options.run ?? 0);
		const output = run.data?.main?.[options.output ?? 0] ?? [];
		return output.map((item) => item.json);
	}

	/** The full items (json plus pairedItem …) of a node's output. */
	rawItems(nodeName: string, options: { run?: number; output?: number } = {}) {
		return this.nodeRun(nodeName, options.run ?? 0).data?.main?.[options.output ?? 0] ?? [];
	}

	nodeRun(nodeName: string, run = 0): TaskData {
		const runs = this.data.resultData.runData[nodeName];
		if (!runs?.[run]) {
			const ran = Object.keys(this.data.resultData.runData).join(', ');
			throw new Error(
				`execution ${this.id} (${this.status}) has no run ${run} of node "${nodeName}" (nodes that ran: ${ran || 'none'})${this.error ? `; error: ${this.error.message}` : ''}`,
			);
		}
		return runs[run];
	}

	/** Names of the nodes that ran. */
	get nodesRun(): string[] {
		return Object.keys(this.data.resultData.runData);
	}

	/** The workflow's error (the failing node's error), if any. */
	get error(): NodeErrorData | undefined {
		return this.data.resultData.error;
	}
}

export class N8nApiError extends HttpError {}

/** Cookie-authenticated calls to one n8n. */
export class N8nClient {
	private cookie = '';
	private major?: number;

	constructor(readonly baseUrl: string) {}

	/** n8n's major version (1 or 2), from its public settings; asked once. */
	async majorVersion(): Promise<number> {
		if (this.major === undefined) {
			const settings = await this.rest<{ versionCli: string }>('GET', '/settings');
			this.major = n8nMajorVersion(settings.versionCli);
		}
		return this.major;
	}

	/** n8n 1.x: no publish model; workflows are switched on and off with PATCH `{active}`. */
	private async isV1(): Promise<boolean> {
		return (await this.majorVersion()) < 2;
	}

	/** A raw call with the session cookie; no status check. */
	async raw<T = Json>(
		method: string,
		path: string,
		options: HttpOptions = {},
	): Promise<HttpResult<T>> {
		const result = await http<T>(method, `${this.baseUrl}${path}`, {
			...options,
			headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...options.headers },
		});
		const setCookie = result.headers.getSetCookie?.() ?? [];
		const auth = setCookie
			.map((line) => line.split(';')[0])
			.find((pair) => pair.startsWith('n8n-auth='));
		if (auth) this.cookie = auth;
		return result;
	}

	/** A REST call: 2xx or N8nApiError, and the `data` of n8n's `{data}` envelope. */
	async rest<T = Json>(method: string, path: string, json?: unknown): Promise<T> {
		const result = await this.raw<{ data: T }>(method, `/rest${path}`, { json });
		if (result.status < 200 || result.status >= 300) {
			throw new N8nApiError(method, `${this.baseUrl}/rest${path}`, result.status, result.text);
		}
		return result.body.data;
	}

	/** The session cookie (`n8n-auth=…`), e.g. for a browser. */
	get sessionCookie(): string {
		return this.cookie;
	}

	/**
	 * Reuses a session (`n8n-auth=…`) from another client: n8n allows only 5 logins per
	 * minute per user, so test files share the global setup's session instead of logging in.
	 */
	useSession(cookie: string): void {
		this.cookie = cookie;
	}

	/** Whether the session is valid (`GET /rest/login` answers the current user). */
	async hasSession(): Promise<boolean> {
		if (!this.cookie) return false;
		return (await this.raw('GET', '/rest/login')).status === 200;
	}

	// --- users -------------------------------------------------------------------------

	/** Whether the instance still waits for its owner account. */
	async needsOwnerSetup(): Promise<boolean> {
		const settings = await this.rest<{ userManagement: { showSetupOnFirstLoad?: boolean } }>(
			'GET',
			'/settings',
		);
		return settings.userManagement.showSetupOnFirstLoad === true;
	}

	async setupOwner(owner: Owner = DEFAULT_OWNER): Promise<void> {
		await this.rest('POST', '/owner/setup', owner);
	}

	/** Logs in; waits out n8n's login rate limit (5 per minute per user) when it is hit. */
	async login(owner: Pick<Owner, 'email' | 'password'> = DEFAULT_OWNER): Promise<void> {
		const body = { emailOrLdapLoginId: owner.email, password: owner.password };
		for (let attempt = 1; ; attempt++) {
			const result = await this.raw('POST', '/rest/login', { json: body });
			if (result.status === 200) return;
			if (result.status !== 429 || attempt >= 4) {
				throw new N8nApiError('POST', `${this.baseUrl}/rest/login`, result.status, result.text);
			}
			const retryAfter = Number(result.headers.get('retry-after'));
			await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 20_000);
		}
	}

	/** Sets up the owner on a fresh instance, then logs in (unless the session is valid). */
	async signIn(owner: Owner = DEFAULT_OWNER): Promise<void> {
		if (await this.needsOwnerSetup()) await this.setupOwner(owner);
		if (!(await this.hasSession())) await this.login(owner);
	}

	// --- types -------------------------------------------------------------------------

	/** Names of every loaded node type (`GET /types/nodes.json`, needs a session). */
	async nodeTypes(): Promise<
		Array<{ name: string; version: number | number[]; [key: string]: unknown }>
	> {
		const result = await this.raw<Array<{ name: string; version: number | number[] }>>(
			'GET',
			'/types/nodes.json',
		);
		if (result.status !== 200) {
			throw new N8nApiError('GET', `${this.baseUrl}/types/nodes.json`, result.status, result.text);
		}
		return result.body;
	}

	async credentialTypes(): Promise<
		Array<{ name: string; extends?: string[]; [key: string]: unknown }>
	> {
		const result = await this.raw<Array<{ name: string; extends?: string[] }>>(
			'GET',
			'/types/credentials.json',
		);
		if (result.status !== 200) {
			throw new N8nApiError(
				'GET',
				`${this.baseUrl}/types/credentials.json`,
				result.status,
				result.text,
			);
		}
		return result.body;
	}

	// --- credentials -------------------------------------------------------------------

	async createCredential(credential: {
		name: string;
		type: string;
		data: Record<string, unknown>;
	}): Promise<CredentialRecord> {
		const created = await this.rest<CredentialRecord>('POST', '/credentials', credential);
		return { id: created.id, name: created.name, type: created.type };
	}

	async getCredential(
		id: string,
		options: { includeData?: boolean } = {},
	): Promise<CredentialRecord> {
		return await this.rest(
			'GET',
			`/credentials/${id}${options.includeData ? '?includeData=true' : ''}`,
		);
	}

	async deleteCredential(id: string): Promise<void> {
		await this.rest('DELETE', `/credentials/${id}`);
	}

	/**
	 * The editor's "Test" of a saved credential: sends the stored (redacted) data, which
	 * n8n completes from the database, with `changes` applied on top.
	 */
	async testCredential(
		credential: Pick<CredentialRecord, 'id'>,
		changes: Record<string, unknown> = {},
	): Promise<{ status: 'OK' | 'Error'; message: string }> {
		const stored = await this.getCredential(credential.id, { includeData: true });
		return await this.rest('POST', '/credentials/test', {
			credentials: {
				id: stored.id,
				name: stored.name,
				type: stored.type,
				data: { ...stored.data, ...changes },
			},
		});
	}

	/** The authorization address n8n builds for "Connect my account" (with its `state`). */
	async oauth2AuthorizeUrl(credentialId: string): Promise<string> {
		return await this.rest<string>(
			'GET',
			`/oauth2-credential/auth?id=${encodeURIComponent(credentialId)}`,
		);
	}

	// --- editor requests (dynamic node parameters) --------------------------------------

	/** What the editor asks while a node is open: list search, options, mapper columns. */
	private async dynamicParameters<T>(
		endpoint: 'options' | 'resource-locator-results' | 'resource-mapper-fields',
		request: DynamicParametersRequest & { filter?: string; paginationToken?: string },
	): Promise<T> {
		return await this.rest<T>('POST', `/dynamic-node-parameters/${endpoint}`, {
			path: request.path,
			nodeTypeAndVersion: { name: request.nodeType, version: request.nodeVersion ?? 1 },
			currentNodeParameters: request.parameters,
			methodName: request.methodName,
			credentials: request.credentials,
			...(request.filter !== undefined ? { filter: request.filter } : {}),
			...(request.paginationToken !== undefined
				? { paginationToken: request.paginationToken }
				: {}),
		});
	}

	/** A "From List" search of a resource locator (`listSearch` method). */
	async listSearch(
		request: DynamicParametersRequest & { filter?: string; paginationToken?: string },
	): Promise<{
		results: Array<{ name: string; value: string; url?: string }>;
		paginationToken?: unknown;
	}> {
		return await this.dynamicParameters('resource-locator-results', request);
	}

	/** The options of a dropdown (`loadOptions` method). */
	async loadOptions(
		request: DynamicParametersRequest,
	): Promise<Array<{ name: string; value: string | number; description?: string }>> {
		return await this.dynamicParameters('options', request);
	}

	/** The columns of a resource mapper (`resourceMapping` method). */
	async resourceMapperFields(request: DynamicParametersRequest): Promise<{
		fields: Array<{ id: string; displayName: string; type?: string; options?: unknown[] }>;
		emptyFieldsNotice?: string;
	}> {
		return await this.dynamicParameters('resource-mapper-fields', request);
	}

	// --- workflows ---------------------------------------------------------------------

	async createWorkflow(workflow: WorkflowDefinition): Promise<WorkflowRecord> {
		// n8n 1.x stores `active` as given and refuses a workflow without it.
		const v1 = (await this.isV1()) ? { active: false } : {};
		return await this.rest('POST', '/workflows', { settings: {}, ...workflow, ...v1 });
	}

	/**
	 * Imports an exported workflow (a file from "Download", or `getWorkflow`'s answer) as
	 * a new, inactive workflow: what identifies or activates the original (id, versionId,
	 * active, static data, dates, sharing, tags) is left out, as the editor's "Import" does.
	 */
	async importWorkflow(
		exported: WorkflowDefinition & Record<string, unknown>,
	): Promise<WorkflowRecord> {
		const { name, nodes, connections, settings, pinData, meta } = exported;
		return await this.createWorkflow({
			name,
			nodes,
			connections,
			settings,
			...(pinData ? { pinData } : {}),
			...(meta ? { meta } : {}),
		} as WorkflowDefinition);
	}

	async getWorkflow(id: string): Promise<WorkflowRecord> {
		return await this.rest('GET', `/workflows/${id}`);
	}

	/**
	 * Saves changes (nodes, connections, name, settings …) as a new version. An active
	 * workflow keeps running its published version until `activateWorkflow` publishes
	 * the new one (n8n 2.x); n8n 1.x runs the saved version at once.
	 */
	async updateWorkflow(id: string, changes: Partial<WorkflowDefinition>): Promise<WorkflowRecord> {
		// n8n 1.x refuses a save without the versionId it holds (another user's change).
		const v1 = (await this.isV1()) ? { versionId: (await this.getWorkflow(id)).versionId } : {};
		return await this.rest('PATCH', `/workflows/${id}`, { ...v1, ...changes });
	}

	/** Archives (n8n 2.x wants that first) and deletes. */
	async deleteWorkflow(id: string): Promise<void> {
		const workflow = await this.getWorkflow(id);
		if (workflow.active) await this.deactivateWorkflow(id);
		if (!workflow.isArchived) await this.rest('POST', `/workflows/${id}/archive`, {});
		await this.rest('DELETE', `/workflows/${id}`);
	}

	/**
	 * Publishes the workflow's current version (n8n 2.x needs its versionId); on n8n 1.x
	 * switches it on as the editor's Active toggle does.
	 */
	async activateWorkflow(id: string, versionId?: string): Promise<WorkflowRecord> {
		const version = versionId ?? (await this.getWorkflow(id)).versionId;
		if (await this.isV1()) return await this.setActiveV1(id, true, version);
		return await this.rest('POST', `/workflows/${id}/activate`, { versionId: version });
	}

	async deactivateWorkflow(id: string): Promise<WorkflowRecord> {
		if (await this.isV1()) {
			return await this.setActiveV1(id, false, (await this.getWorkflow(id)).versionId);
		}
		return await this.rest('POST', `/workflows/${id}/deactivate`, {});
	}

	private async setActiveV1(id: string, active: boolean, versionId: string) {
		return await this.rest<WorkflowRecord>('PATCH', `/workflows/${id}`, { active, versionId });
	}

	// --- executions --------------------------------------------------------------------

	/** Starts a manual run from the named trigger (default: the Manual Trigger "Start"). */
	async runWorkflow(id: string, triggerName = 'Start'): Promise<string> {
		const started = await this.rest<{ executionId: string }>(
			'POST',
			`/workflows/${id}/run`,
			await this.manualRunBody(id, triggerName),
		);
		return started.executionId;
	}

	/** n8n 2.x runs the saved workflow; n8n 1.x runs the one sent, as its editor sends it. */
	private async manualRunBody(id: string, triggerName: string) {
		const triggerToStartFrom = { name: triggerName };
		if (!(await this.isV1())) return { triggerToStartFrom };
		return { workflowData: await this.getWorkflow(id), triggerToStartFrom };
	}

	/**
	 * "Listen for test event" on a webhook trigger: n8n registers the test webhook
	 * (`/webhook-test/...`) and waits for one event, then removes it. Resolves with
	 * whether n8n is now waiting (false: it ran at once, e.g. from pinned data).
	 */
	async listenForTestEvent(id: string, triggerName: string): Promise<boolean> {
		const answer = await this.rest<{ waitingForWebhook?: boolean; executionId?: string }>(
			'POST',
			`/workflows/${id}/run`,
			await this.manualRunBody(id, triggerName),
		);
		return answer.waitingForWebhook === true;
	}

	async listExecutions(
		filter: { workflowId?: string; status?: ExecutionStatus } = {},
		limit = 100,
	): Promise<ExecutionSummary[]> {
		const query = new URLSearchParams({ filter: JSON.stringify(filter), limit: String(limit) });
		const page = await this.rest<{ results: ExecutionSummary[] }>('GET', `/executions?${query}`);
		return page.results;
	}

	/** Deletes executions as the editor's Delete does (with their binary data). */
	async deleteExecutions(ids: string[]): Promise<void> {
		await this.rest('POST', '/executions/delete', { ids });
	}

	/**
	 * The execution with its data parsed; undefined while n8n has not stored it. A large
	 * execution (binary data held in memory) needs more than the default 30 s.
	 */
	async getExecution(id: string, timeoutMs?: number): Promise<Execution | undefined> {
		const result = await this.raw<{
			data: {
				id: string;
				status: ExecutionStatus;
				mode: string;
				workflowId: string;
				data: string;
			} | null;
		}>('GET', `/rest/executions/${id}`, { timeoutMs });
		if (result.status === 404 || !result.body?.data) return undefined;
		if (result.status !== 200) {
			throw new N8nApiError(
				'GET',
				`${this.baseUrl}/rest/executions/${id}`,
				result.status,
				result.text,
			);
		}
		const { status, mode, workflowId, data } = result.body.data;
		return new Execution(id, status, mode, workflowId, parseFlatted(data) as RunExecutionData);
	}

	/** Polls until the execution has ended (any status but new, running or waiting). */
	async waitForExecution(id: string, timeoutMs = 60_000): Promise<Execution> {
		return await waitFor(
			async () => {
				const execution = await this.getExecution(id);
				if (!execution || ['new', 'running', 'waiting'].includes(execution.status))
					return undefined;
				return execution;
			},
			{ timeoutMs, intervalMs: 150, description: `execution ${id} to finish` },
		);
	}

	/**
	 * Creates (imports) the workflow, runs it manually and waits for the result. The
	 * workflow stays (its executions go with it), unless `deleteAfter`.
	 */
	async runOnce(
		workflow: WorkflowDefinition,
		options: { triggerName?: string; deleteAfter?: boolean; timeoutMs?: number } = {},
	): Promise<Execution> {
		const created = await this.createWorkflow(workflow);
		try {
			const executionId = await this.runWorkflow(created.id, options.triggerName);
			return await this.waitForExecution(executionId, options.timeoutMs);
		} finally {
			if (options.deleteAfter) await this.deleteWorkflow(created.id).catch(() => undefined);
		}
	}

	/** Waits until the workflow has at least `count` ended executions; newest first. */
	async waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 30_000,
	): Promise<ExecutionSummary[]> {
		return await waitFor(
			async () => {
				const list = await this.listExecutions({ workflowId });
				const ended = list.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
				return ended.length >= count ? ended : undefined;
			},
			{
				timeoutMs,
				intervalMs: 200,
				description: `${count} execution(s) of workflow ${workflowId}`,
			},
		);
	}
}
