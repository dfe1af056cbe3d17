/**
 * Runs one node inside n8n-core's real engine: a workflow
 * `Manual Trigger → [Items] → node under test`, executed by `WorkflowExecute` in 'manual'
 * mode, so the node gets a real `ExecuteContext` and `httpRequestWithAuthentication`
 * makes real HTTP calls.
 */
import type {
	ExecutionError,
	IConnections,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IRunData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { Workflow, deepCopy } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials';
import { HarnessItemsSource, ITEMS_SOURCE_TYPE, MANUAL_TRIGGER_TYPE } from './nodeTypes';
import {
	type HarnessBaseOptions,
	WORKFLOW_ID,
	credentialsHelperFor,
	nodeUnderTest,
	plainStaticData,
	workflowSettings,
} from './setup';
import { executeManually } from './runWorkflow';

export const TRIGGER_NODE_NAME = 'Manual Trigger';
export const ITEMS_NODE_NAME = 'Items';

export interface RunNodeOptions extends HarnessBaseOptions {
	/** Each becomes one input item `{ json }` of the node under test. */
	inputItems?: IDataObject[];
	/** Sets the node's "On Error" to "Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Workflow static data to start from (as returned by a previous run). */
	staticData?: IDataObject;
	/** The node's "Retry On Fail" setting, with its Max Tries and Wait Between Tries (ms). */
	retryOnFail?: { maxTries?: number; waitBetweenTries?: number };
	/** Cancels the execution once this settles, as n8n does when a user stops it. */
	cancelWhen?: Promise<unknown>;
}

export interface RunNodeResult {
	/** Output 0 of the node's last run ([] when it produced none). */
	items: INodeExecutionData[];
	/** All outputs of the node's last run. */
	outputs: INodeExecutionData[][];
	/**
	 * The error the node (or the run) ended with, if any: the plain copy n8n stores
	 * (`{ ...error, message, stack }`), so check `error.name` ('NodeApiError'), not `instanceof`.
	 */
	error?: ExecutionError;
	/** The execution hints the node added (`this.addExecutionHints`) in its last run. */
	hints: NodeExecutionHint[];
	runData: IRunData;
	run: IRun;
	/** The workflow's static data after the run (pass it back in `staticData`). */
	staticData: IDataObject;
	/** The node as it ran (parameters with defaults filled in). */
	node: INode;
	credentialsHelper: HarnessCredentialsHelper;
}

export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const { nodeTypes, node: nodeUnderTestDraft } = nodeUnderTest(options, { id: 'node-under-test' });
	const credentialsHelper = credentialsHelperFor(options);
	const nodeName = nodeUnderTestDraft.name;
	const testedNode: INode = {
		...nodeUnderTestDraft,
		position: [400, 0],
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, ...options.retryOnFail } : {}),
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
	nodes.push(testedNode);

	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'Harness workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: workflowSettings(options),
		staticData: deepCopy(options.staticData ?? {}),
	});

	const run = await executeManually(workflow, TRIGGER_NODE_NAME, {
		credentialsHelper,
		instanceUrl: options.instanceUrl,
		cancelWhen: options.cancelWhen,
	});

	const runData = run.data.resultData.runData;
	const taskData = runData[nodeName]?.at(-1);
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	return {
		items: outputs[0] ?? [],
		outputs,
		error: taskData?.error ?? run.data.resultData.error,
		hints: taskData?.hints ?? [],
		runData,
		run,
		staticData: plainStaticData(workflow),
		node: workflow.getNode(nodeName) ?? testedNode,
		credentialsHelper,
	};
}
