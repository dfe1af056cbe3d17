/**
 * The execution a trigger delivery starts, run as n8n 2.41's queue-mode worker runs it:
 * n8n-core's engine continues from an execution stack whose first entry is the trigger
 * node with the delivery's items, in a workflow built with the static data the worker
 * holds (empty: n8n keeps no static data in an execution's workflow snapshot). A node
 * after the trigger may count in global static data, as a user's Code node does. The
 * worker saves the workflow's whole static data afterwards only when it changed; that
 * object is what this returns as `saved`.
 */
import { WorkflowExecute } from 'n8n-core';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow, createRunExecutionData, deepCopy } from 'n8n-workflow';

import { plainStaticData } from './setup';
import type { TriggerHarness } from './webhooks';

export const STATIC_DATA_COUNTER_TYPE = 'harness.staticDataCounter';
export const COUNTER_NAME = 'Count';

/** Like a Code node running `$getWorkflowStaticData('global').count++`. */
export class HarnessStaticDataCounter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Count',
		name: STATIC_DATA_COUNTER_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Counts its runs in global static data',
		usableAsTool: true,
		defaults: { name: COUNTER_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const global = this.getWorkflowStaticData('global');
		global.count = (typeof global.count === 'number' ? global.count : 0) + 1;
		return [this.getInputData()];
	}
}

export interface WorkerExecutionOptions {
	/** The static data the worker starts with (default: none). */
	staticData?: IDataObject;
	/** Whether a node after the trigger writes global static data. */
	counts?: boolean;
}

export interface WorkerExecutionResult {
	/** What the trigger node output in the execution. */
	triggerOutput: INodeExecutionData[];
	/** The static data the worker saves over the workflow's, or undefined when it saves none. */
	saved?: IDataObject;
}

export async function runAsWorker(
	trigger: TriggerHarness,
	items: INodeExecutionData[],
	options: WorkerExecutionOptions = {},
): Promise<WorkerExecutionResult> {
	const setup = trigger.executionSetup('webhook');
	setup.nodeTypes.add(new HarnessStaticDataCounter());
	const counter = {
		id: 'counter',
		name: COUNTER_NAME,
		type: STATIC_DATA_COUNTER_TYPE,
		typeVersion: 1,
		position: [220, 0] as [number, number],
		parameters: {},
	};
	const workflow = new Workflow({
		id: setup.workflow.id,
		name: setup.workflow.name,
		nodes: options.counts ? [setup.node, counter] : [setup.node],
		connections: options.counts
			? { [setup.node.name]: { main: [[{ node: COUNTER_NAME, type: 'main', index: 0 }]] } }
			: {},
		active: true,
		nodeTypes: setup.nodeTypes,
		staticData: deepCopy(options.staticData ?? {}),
		settings: setup.workflow.settings,
	});
	const runData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: setup.node, data: { main: [deepCopy(items)] }, source: null }],
		},
	});
	const run = await new WorkflowExecute(
		setup.additionalData,
		'webhook',
		runData,
	).processRunExecutionData(workflow);
	const error = run.data.resultData.error;
	if (error !== undefined) throw error;
	const triggerRun = run.data.resultData.runData[setup.node.name]?.at(-1);
	return {
		triggerOutput: triggerRun?.data?.main?.[0] ?? [],
		saved: workflow.staticData.__dataChanged === true ? plainStaticData(workflow) : undefined,
	};
}
