/**
 * Drives a webhook trigger node the way n8n's server does
 * (n8n 2.41.1: packages/cli/src/webhooks/webhook.service.ts and the active-workflow manager):
 * `webhookMethods.<name>.{checkExists,create,delete}` through n8n-core's real
 * `HookContext`, and `webhook()` through n8n-core's real `WebhookContext` with an
 * express-like request and a response that records what the node sent.
 *
 * Workflow static data persists across calls on one `TriggerHarness`, as n8n saves it
 * after activation, deactivation and each delivery; read or replace `staticData` to
 * simulate a restart or a re-activation.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	INodeExecutionData,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	WebhookSetupMethodNames,
	WebhookType,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError, deepCopy } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials';
import {
	type HarnessBaseOptions,
	type SingleNodeWorkflow,
	credentialsHelperFor,
	plainStaticData,
	singleNodeWorkflow,
} from './setup';

/** The webhook id the trigger node carries unless a test gives another. */
export const DEFAULT_WEBHOOK_ID = '0f5e6a4c-8d7b-4e1f-9a2b-3c4d5e6f7a8b';

export interface TriggerHarnessOptions extends HarnessBaseOptions {
	/** `node.webhookId` (the editor assigns a UUID when the node is added). */
	webhookId?: string;
	/** The workflow's id (default: the harness's one); distinct ids make distinct workflows. */
	workflowId?: string;
	/** Static data to start from, e.g. what an earlier harness left. */
	staticData?: IDataObject;
}

export interface HookCallOptions {
	/** 'trigger' for an active workflow (default), 'manual' for "Listen for test event". */
	mode?: Extract<WorkflowExecuteMode, 'trigger' | 'manual'>;
	activation?: WorkflowActivateMode;
	/** Which `webhooks[]` entry (default 'default'). */
	webhookName?: WebhookType;
	/** Whether the registered webhook is n8n's test one; defaults to `mode === 'manual'`. */
	isTest?: boolean;
}

export interface WebhookRequestInit {
	method?: IHttpRequestMethods;
	/** Header names are lower-cased, as express gives them. */
	headers?: Record<string, string>;
	query?: IDataObject;
	body?: unknown;
	/** Route params (dynamic path segments). */
	params?: Record<string, string>;
	/** Only set when given (n8n sets a Buffer of the raw bytes). */
	rawBody?: unknown;
	/** Path after the webhook base; defaults to `<webhookId>/<path>`. */
	path?: string;
	ip?: string;
}

/** What the node sent through `getResponseObject()`. */
export interface RecordedResponse {
	statusCode: number;
	headers: Record<string, string>;
	/** Set by json()/send()/end(body). */
	body?: unknown;
	ended: boolean;
}

export interface ReceiveOptions extends HookCallOptions {
	/** Called when the node ends its response, as n8n's HTTP server then answers the caller. */
	onResponseEnd?: (res: RecordedResponse) => void;
}

export interface WebhookCallResult {
	/** What `webhook()` returned. */
	response: IWebhookResponseData;
	/** `response.workflowData?.[0]` (the items the workflow would start with). */
	items: INodeExecutionData[];
	/** What the node wrote to the response object itself. */
	res: RecordedResponse;
	staticData: IDataObject;
}

/**
 * A minimal express `Response` that records status, headers and body. `onEnd` is called
 * once, when the node ends the response (express sends it then, whatever the node does next).
 */
export function createFakeResponse(onEnd?: (recorded: RecordedResponse) => void): {
	res: unknown;
	recorded: RecordedResponse;
} {
	const recorded: RecordedResponse = { statusCode: 200, headers: {}, ended: false };
	const end = () => {
		if (recorded.ended) return;
		recorded.ended = true;
		onEnd?.(recorded);
	};
	const res = {
		get statusCode() {
			return recorded.statusCode;
		},
		set statusCode(code: number) {
			recorded.statusCode = code;
		},
		get headersSent() {
			return recorded.ended;
		},
		get writableEnded() {
			return recorded.ended;
		},
		status(code: number) {
			recorded.statusCode = code;
			return res;
		},
		sendStatus(code: number) {
			recorded.statusCode = code;
			end();
			return res;
		},
		setHeader(name: string, value: string) {
			recorded.headers[name.toLowerCase()] = String(value);
			return res;
		},
		set(name: string | Record<string, string>, value?: string) {
			const entries = typeof name === 'string' ? [[name, value ?? '']] : Object.entries(name);
			for (const [key, val] of entries) recorded.headers[key.toLowerCase()] = String(val);
			return res;
		},
		header(name: string, value: string) {
			return res.set(name, value);
		},
		getHeader(name: string) {
			return recorded.headers[name.toLowerCase()];
		},
		type(contentType: string) {
			recorded.headers['content-type'] = contentType;
			return res;
		},
		json(body: unknown) {
			recorded.headers['content-type'] ??= 'application/json';
			recorded.body = body;
			end();
			return res;
		},
		send(body?: unknown) {
			recorded.body = body;
			end();
			return res;
		},
		end(body?: unknown) {
			if (body !== undefined) recorded.body = body;
			end();
			return res;
		},
		write(chunk: unknown) {
			recorded.body = `${recorded.body === undefined ? '' : String(recorded.body)}${String(chunk)}`;
			return true;
		},
		writeHead(code: number, headers?: Record<string, string>) {
			recorded.statusCode = code;
			for (const [key, val] of Object.entries(headers ?? {})) {
				recorded.headers[key.toLowerCase()] = String(val);
			}
			return res;
		},
		on() {
			return res;
		},
		once() {
			return res;
		},
	};
	return { res, recorded };
}

export class TriggerHarness {
	/** Workflow static data as n8n would have saved it after the last call. */
	staticData: IDataObject;

	readonly credentialsHelper: HarnessCredentialsHelper;

	private readonly options: TriggerHarnessOptions;

	constructor(options: TriggerHarnessOptions) {
		this.options = options;
		this.credentialsHelper = credentialsHelperFor(options);
		this.staticData = deepCopy(options.staticData ?? {});
	}

	get webhookId(): string {
		return this.options.webhookId ?? DEFAULT_WEBHOOK_ID;
	}

	/** What `this.getNodeWebhookUrl(name)` returns for the given mode. */
	webhookUrl(options: HookCallOptions = {}): string | undefined {
		const setup = this.setup(options.mode ?? 'trigger');
		return new HookContext(
			setup.workflow,
			setup.node,
			setup.additionalData,
			options.mode ?? 'trigger',
			options.activation ?? 'activate',
			this.webhookData(setup, options),
		).getNodeWebhookUrl(options.webhookName ?? 'default');
	}

	/** Runs one webhook setup method through a real HookContext; saves static data. */
	async callWebhookMethod(
		method: WebhookSetupMethodNames,
		options: HookCallOptions = {},
	): Promise<boolean | undefined> {
		const mode = options.mode ?? 'trigger';
		const setup = this.setup(mode);
		const webhookData = this.webhookData(setup, options);
		const webhookFn =
			setup.nodeType.webhookMethods?.[webhookData.webhookDescription.name]?.[method];
		if (webhookFn === undefined) return undefined;
		const context = new HookContext(
			setup.workflow,
			setup.node,
			setup.additionalData,
			mode,
			options.activation ?? 'activate',
			webhookData,
		);
		try {
			return (await webhookFn.call(context)) as boolean;
		} finally {
			this.staticData = plainStaticData(setup.workflow);
		}
	}

	/** n8n's activation: `checkExists`, then `create` when it answered false. */
	async activate(options: HookCallOptions = {}): Promise<{ existed: boolean; created?: boolean }> {
		const existed = (await this.callWebhookMethod('checkExists', options)) === true;
		if (existed) return { existed };
		const created = await this.callWebhookMethod('create', options);
		return { existed, created };
	}

	/** n8n's deactivation: `delete`. */
	async deactivate(options: HookCallOptions = {}): Promise<boolean | undefined> {
		return await this.callWebhookMethod('delete', options);
	}

	/** Delivers a request to `webhook()` through a real WebhookContext; saves static data. */
	async receive(
		request: WebhookRequestInit = {},
		options: ReceiveOptions = {},
	): Promise<WebhookCallResult> {
		const mode = options.mode ?? 'trigger';
		const setup = this.setup(mode);
		if (setup.nodeType.webhook === undefined) {
			throw new UnexpectedError('Node does not have any webhooks defined');
		}
		const webhookData = this.webhookData(setup, options);
		const { res, recorded } = createFakeResponse(options.onResponseEnd);
		const method = request.method ?? webhookData.httpMethod;
		const path = request.path ?? webhookData.path;
		const query = request.query ?? {};
		const search = new URLSearchParams(
			Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
		).toString();
		const url = `/${(options.isTest ?? mode === 'manual') ? 'webhook-test' : 'webhook'}/${path}${
			search ? `?${search}` : ''
		}`;
		const headers = Object.fromEntries(
			Object.entries(request.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
		);
		if (request.body !== undefined) headers['content-type'] ??= 'application/json';
		const req = {
			method,
			url,
			originalUrl: url,
			path: url.split('?')[0],
			headers,
			query,
			params: request.params ?? {},
			body: request.body,
			ip: request.ip ?? '127.0.0.1',
			...(request.rawBody === undefined ? {} : { rawBody: request.rawBody }),
			get(name: string) {
				return headers[name.toLowerCase()];
			},
			header(name: string) {
				return headers[name.toLowerCase()];
			},
		};
		setup.additionalData.httpRequest = req as unknown as typeof setup.additionalData.httpRequest;
		setup.additionalData.httpResponse = res as typeof setup.additionalData.httpResponse;
		const context = new WebhookContext(
			setup.workflow,
			setup.node,
			setup.additionalData,
			mode,
			webhookData,
			[],
			null,
		);
		try {
			const response = (await setup.nodeType.webhook.call(context)) as IWebhookResponseData;
			return {
				response,
				items: response.workflowData?.[0] ?? [],
				res: recorded,
				staticData: plainStaticData(setup.workflow),
			};
		} finally {
			this.staticData = plainStaticData(setup.workflow);
		}
	}

	/** The trigger as an execution in `mode` sees it (see workerExecution.ts). */
	executionSetup(mode: WorkflowExecuteMode = 'webhook'): SingleNodeWorkflow {
		return this.setup(mode);
	}

	private setup(mode: WorkflowExecuteMode): SingleNodeWorkflow {
		return singleNodeWorkflow(this.options, {
			id: 'trigger-under-test',
			workflowId: this.options.workflowId,
			webhookId: this.webhookId,
			mode,
			staticData: this.staticData,
			active: mode === 'trigger',
			// One helper for the harness's life, so token refreshes and writes persist.
			credentialsHelper: this.credentialsHelper,
		});
	}

	/** The `IWebhookData` n8n registers for the node's webhook (see WebhookService.getNodeWebhooks). */
	private webhookData(setup: SingleNodeWorkflow, options: HookCallOptions): IWebhookData {
		const name = options.webhookName ?? 'default';
		const description: IWebhookDescription | undefined = setup.nodeType.description.webhooks?.find(
			(webhook) => webhook.name === name,
		);
		if (description === undefined) {
			throw new UnexpectedError(`Harness: the node has no webhook named "${name}"`);
		}
		const { workflow, node } = setup;
		let nodePath = String(
			workflow.expression.getSimpleParameterValue(node, description.path, 'internal', {}) ?? '',
		);
		nodePath = nodePath.replace(/^\//, '').replace(/\/$/, '');
		const isFullPath = workflow.expression.getSimpleParameterValue(
			node,
			description.isFullPath,
			'internal',
			{},
			undefined,
			false,
		) as boolean;
		const httpMethod = workflow.expression.getSimpleParameterValue(
			node,
			description.httpMethod,
			'internal',
			{},
			undefined,
			'GET',
		);
		return {
			httpMethod: String(httpMethod).split(',')[0].trim() as IHttpRequestMethods,
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(workflow.id, node, nodePath, isFullPath),
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: setup.additionalData,
			// n8n sets this only for dynamic paths (`:param` segments).
			webhookId: /(^|\/):[^/]/.test(nodePath) ? node.webhookId : undefined,
			isTest: options.isTest ?? options.mode === 'manual',
		};
	}
}

/** Shorthand for `new TriggerHarness(options)`. */
export function createTriggerHarness(options: TriggerHarnessOptions): TriggerHarness {
	return new TriggerHarness(options);
}
