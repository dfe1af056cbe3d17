/**
 * `IWorkflowExecuteAdditionalData` for in-process runs: what n8n's
 * `WorkflowExecuteAdditionalData.getBase()` provides, minus the database and server.
 */
import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IDataObject,
	INodeParameters,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials';

/** Where n8n "lives" unless a test says otherwise (only used to build URLs). */
export const DEFAULT_INSTANCE_URL = 'http://localhost:5678';

export interface AdditionalDataOptions {
	credentialsHelper: HarnessCredentialsHelper;
	/**
	 * The n8n instance's base URL, no trailing slash. Webhook URLs are
	 * `<instanceUrl>/webhook/<webhookId>/<path>` (production) and
	 * `<instanceUrl>/webhook-test/<webhookId>/<path>` (test), as n8n builds them.
	 */
	instanceUrl?: string;
	executionId?: string;
	mode?: WorkflowExecuteMode;
	/** The workflow the lifecycle hooks belong to (a stub when omitted). */
	workflowData?: IWorkflowBase;
	/** `$vars`. */
	variables?: IDataObject;
	/** What the editor sends with a dynamic-parameters request. */
	currentNodeParameters?: INodeParameters;
}

let executionCounter = 0;

export function createAdditionalData(
	options: AdditionalDataOptions,
): IWorkflowExecuteAdditionalData {
	const base = (options.instanceUrl ?? DEFAULT_INSTANCE_URL).replace(/\/+$/, '');
	const executionId = options.executionId ?? `harness-${++executionCounter}`;
	const workflowData: IWorkflowBase = options.workflowData ?? {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [],
		connections: {},
	};
	const notAvailable = (what: string) => async () => {
		throw new UnexpectedError(`Harness: ${what} is not available in-process`);
	};
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: new ExecutionLifecycleHooks(options.mode ?? 'manual', executionId, workflowData),
		executionId,
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: notAvailable('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('startRunnerTask'),
		logAiEvent: () => {},
		currentNodeExecutionIndex: 0,
		currentNodeParameters: options.currentNodeParameters,
		variables: options.variables ?? {},
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
	};
}
