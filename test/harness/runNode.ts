/**
 * Runs one node inside n8n-core's real engine: a workflow
 * `Manual Trigger → [Items] → node under test`, executed by `WorkflowExecute` in 'manual'
 * mode, so the node gets a real `ExecuteContext` and `httpRequestWithAuthentication`
 * makes real HTTP calls.
 */
import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunData,
	IWorkflowSettings,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import { HarnessCredentialsHelper } from './credentials';
import {
	HarnessItemsSource,
	HarnessNodeTypes,
	ITEMS_SOURCE_TYPE,
	MANUAL_TRIGGER_TYPE,
	type NodeTypeLike,
	instantiateNodeType,
	latestVersion,
} from './nodeTypes';

export const WORKFLOW_ID = 'harness-workflow';
export const TRIGGER_NODE_NAME = 'Manual Trigger';
export const ITEMS_NODE_NAME = 'Items';

export interface RunNodeOptions {
	/** The node under test: an instance or its class. */
	nodeType: NodeTypeLike;
	/** Parameters as the editor saves them (defaults are filled in, as n8n does). */
	parameters?: INodeParameters;
	/** Stored (decrypted) credential data per credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Each becomes one input item `{ json }` of the node under test. */
	inputItems?: IDataObject[];
	/** Sets the node's "On Error" to "Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** The workflow's time zone setting (what `this.getTimezone()` returns). */
	timezone?: string;
	/** Defaults to the node's latest version. */
	typeVersion?: number;
	/** Defaults to the node's `defaults.name`. */
	nodeName?: string;
	/** n8n's base URL, for `$execution.resumeUrl` and webhook URLs. */
	instanceUrl?: string;
	/** Workflow static data to start from (as returned by a previous run). */
	staticData?: IDataObject;
	/** Further workflow settings. */
	settings?: IWorkflowSettings;
	/** Extra credential types beyond ours and `oAuth2Api`. */
	credentialTypes?: ICredentialType[];
	/** Bring your own helper, e.g. to inspect `writes` or reuse stored token data. */
	credentialsHelper?: HarnessCredentialsHelper;
}

export interface RunNodeResult {
	/** Output 0 of the node's last run ([] when it produced none). */
	items: INodeExecutionData[];
	/** All outputs of the node's last run. */
	outputs: INodeExecutionData[][];
	/** The error the node (or the run) ended with, if any. */
	error?: ExecutionError;
	runData: IRunData;
	run: IRun;
	/** The workflow's static data after the run (pass it back in `staticData`). */
	staticData: IDataObject;
	/** The node as it ran (parameters with defaults filled in). */
	node: INode;
	credentialsHelper: HarnessCredentialsHelper;
}

/** `{ [type]: { id, name } }` for each credential type, as a saved node carries them. */
export function nodeCredentialsFor(types: Iterable<string>): INodeCredentials {
	const credentials: INodeCredentials = {};
	for (const type of types) credentials[type] = { id: `${type}-id`, name: `${type} (harness)` };
	return credentials;
}

/** A plain copy of a workflow's static data, without the observable bookkeeping. */
export function plainStaticData(workflow: Workflow): IDataObject {
	const copy = deepCopy(workflow.staticData) as IDataObject;
	delete copy.__dataChanged;
	return copy;
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const nodeType = instantiateNodeType(options.nodeType);
	const nodeTypes = new HarnessNodeTypes([nodeType]);
	const typeName = nodeTypes.add(nodeType);
	const credentialsHelper =
		options.credentialsHelper ??
		new HarnessCredentialsHelper({
			credentials: options.credentials,
			credentialTypes: options.credentialTypes,
		});
	if (options.credentialsHelper && options.credentials) {
		for (const [type, data] of Object.entries(options.credentials)) {
			credentialsHelper.setCredentialData(type, data);
		}
	}

	const typeVersion = options.typeVersion ?? latestVersion(nodeType);
	const nodeName =
		options.nodeName ??
		NodeHelpers.getVersionedNodeType(nodeType, typeVersion).description.defaults.name ??
		'Node';
	const nodeUnderTest: INode = {
		id: 'node-under-test',
		name: nodeName,
		type: typeName,
		typeVersion,
		position: [400, 0],
		parameters: deepCopy(options.parameters ?? {}),
		credentials: nodeCredentialsFor(Object.keys(options.credentials ?? {})),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
	const trigger: INode = {
		id: 'manual-trigger',
		name: TRIGGER_NODE_NAME,
		type: MANUAL_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const nodes = [trigger];
	const connections: IConnections = {};
	const link = (from: string, to: string) => {
		connections[from] = { main: [[{ node: to, type: 'main', index: 0 }]] };
	};
	if (options.inputItems !== undefined) {
		nodeTypes.add(new HarnessItemsSource(options.inputItems));
		nodes.push({
			id: 'items',
			name: ITEMS_NODE_NAME,
			type: ITEMS_SOURCE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		});
		link(TRIGGER_NODE_NAME, ITEMS_NODE_NAME);
		link(ITEMS_NODE_NAME, nodeName);
	} else {
		link(TRIGGER_NODE_NAME, nodeName);
	}
	nodes.push(nodeUnderTest);

	const settings: IWorkflowSettings = { ...(options.settings ?? {}) };
	if (options.timezone !== undefined) settings.timezone = options.timezone;
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'Harness workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings,
		staticData: deepCopy(options.staticData ?? {}),
	});

	const additionalData = createAdditionalData({
		credentialsHelper,
		instanceUrl: options.instanceUrl,
		mode: 'manual',
	});
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(TRIGGER_NODE_NAME) ?? undefined,
	});

	const runData = run.data.resultData.runData;
	const taskData = runData[nodeName]?.at(-1);
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	return {
		items: outputs[0] ?? [],
		outputs,
		error: taskData?.error ?? run.data.resultData.error,
		runData,
		run,
		staticData: plainStaticData(workflow),
		node: workflow.getNode(nodeName) ?? nodeUnderTest,
		credentialsHelper,
	};
}
