/**
 * Runs a whole workflow as the editor saves it (nodes, connections, settings, pinned
 * data) in n8n-core's engine, as "Execute workflow" does: from its Manual Trigger, in
 * mode 'manual', pinned data standing in for the nodes it is pinned on.
 */
import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	IConnections,
	INode,
	INodeExecutionData,
	IPinData,
	IRun,
	IWorkflowSettings,
} from 'n8n-workflow';
import { Workflow, deepCopy } from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import { HarnessCredentialsHelper } from './credentials';
import {
	HarnessNodeTypes,
	MANUAL_TRIGGER_TYPE,
	instantiateNodeType,
	type NodeTypeLike,
} from './nodeTypes';

/** The parts of a saved workflow file the engine needs. */
export interface SavedWorkflow {
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	pinData?: IPinData;
}

export interface RunWorkflowOptions {
	workflow: SavedWorkflow;
	/** The node types it uses besides the Manual Trigger (built in). */
	nodeTypes: NodeTypeLike[];
	/** Stored (decrypted) credential data per credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	instanceUrl?: string;
}

export interface RunWorkflowResult {
	run: IRun;
	/** Output 0 of a node's last run ([] when it did not run or output nothing). */
	outputOf(nodeName: string): INodeExecutionData[];
	/** The error a node ended with, as n8n stores it. */
	errorOf(nodeName: string): ExecutionError | undefined;
}

/** "Execute workflow" in the editor: a manual run from the given trigger. */
export async function executeManually(
	workflow: Workflow,
	triggerName: string,
	options: {
		credentialsHelper: HarnessCredentialsHelper;
		instanceUrl?: string;
		pinData?: IPinData;
		/** Cancels the execution (as the editor's stop button does) once this settles. */
		cancelWhen?: Promise<unknown>;
	},
): Promise<IRun> {
	const additionalData = createAdditionalData({
		credentialsHelper: options.credentialsHelper,
		instanceUrl: options.instanceUrl,
		mode: 'manual',
	});
	const running = new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(triggerName) ?? undefined,
		pinData: options.pinData,
	});
	// n8n-core aborts the nodes' getExecutionCancelSignal() and resolves once they return.
	void options.cancelWhen?.then(() => running.cancel());
	return await running;
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<RunWorkflowResult> {
	const nodeTypes = new HarnessNodeTypes(options.nodeTypes.map(instantiateNodeType));
	const { nodes, connections, settings, pinData, name } = deepCopy(options.workflow);
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: name ?? 'Harness workflow',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: settings ?? {},
	});
	const trigger = nodes.find((node) => node.type === MANUAL_TRIGGER_TYPE);
	if (trigger === undefined) throw new Error('The workflow has no Manual Trigger to start from');

	const run = await executeManually(workflow, trigger.name, {
		credentialsHelper: new HarnessCredentialsHelper({ credentials: options.credentials }),
		instanceUrl: options.instanceUrl,
		pinData,
	});
	const lastRun = (nodeName: string) => run.data.resultData.runData[nodeName]?.at(-1);
	return {
		run,
		outputOf: (nodeName) => lastRun(nodeName)?.data?.main?.[0] ?? [],
		errorOf: (nodeName) => lastRun(nodeName)?.error,
	};
}
