/**
 * The Fillout node as an AI tool, in n8n-core's engine: `Manual Trigger → Agent`, with
 * "Fillout Tool" on the Agent's tool input. The Agent is a test node that asks n8n-core
 * for its tools (`getInputConnectionData`, which wraps our node with n8n-core's own
 * `createNodeAsTool`) and calls them as an agent would. The tool's type is made from the
 * Fillout node as n8n 2.41's `convertNodeToAiTool` makes it (that part lives in the `n8n`
 * package, not installed here; the e2e suite runs the real one).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, deepCopy } from 'n8n-workflow';

import type { RunningSandbox } from '../../../../sandbox';
import { nodeCredentialsFor, runWorkflow } from '../../../harness';
import { MANUAL_TRIGGER_TYPE, latestVersion } from '../../../harness/nodeTypes';
import { Fillout } from '../../../../nodes/Fillout/Fillout.node';
import { apiKeyCredentials } from './index';

/** What n8n's convertNodeToAiTool does to a usable-as-tool node's description. */
export function asTool(node: INodeType): INodeType {
	const description = deepCopy(node.description) as INodeTypeDescription;
	const descriptionType: INodeProperties = {
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	};
	const toolDescription: INodeProperties = {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: description.description,
		required: true,
		displayOptions: { show: { descriptionType: ['manual'] } },
	};
	const tool: INodeTypeDescription = {
		...description,
		name: `${description.name}Tool`,
		displayName: `${description.displayName} Tool`,
		inputs: [],
		outputs: [NodeConnectionTypes.AiTool],
		properties: [descriptionType, toolDescription, ...description.properties],
	};
	delete tool.usableAsTool;
	return Object.assign(Object.create(node) as INodeType, { description: tool });
}

interface LangchainTool {
	name: string;
	description: string;
	invoke(args: IDataObject): Promise<unknown>;
}

export interface ToolCall {
	name: string;
	description: string;
	/** The tool's answer, parsed (n8n hands the agent JSON text). */
	answer?: unknown;
	/** The error the tool threw: its message, as the agent reads it. */
	error?: string;
}

/** An agent that calls its one tool with `args` and outputs what it got. */
class HarnessAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Agent',
		name: 'harness.agent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tool once',
		defaults: { name: 'Agent' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main, { type: NodeConnectionTypes.AiTool, displayName: 'Tools' }],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	constructor(args: IDataObject) {
		this.execute = async function () {
			const tools = (await this.getInputConnectionData(
				NodeConnectionTypes.AiTool,
				0,
			)) as LangchainTool[];
			const [tool] = tools;
			const call: IDataObject = { name: tool.name, description: tool.description };
			try {
				call.answer = JSON.parse(String(await tool.invoke(args)));
			} catch (error) {
				call.error = (error as Error).message;
			}
			return [[{ json: call }]];
		};
	}
}

/**
 * Runs Fillout as a tool with these parameters and has the agent call it with `args`; the
 * tool node is of `typeVersion`, by default the newest (what a node added now gets).
 */
export async function callFilloutTool(
	sandbox: RunningSandbox,
	parameters: INodeParameters,
	options: { args?: IDataObject; apiKey?: string; nodeName?: string; typeVersion?: number } = {},
): Promise<ToolCall> {
	const { args = {}, nodeName = 'Fillout' } = options;
	const tool = asTool(new Fillout());
	const typeVersion = options.typeVersion ?? latestVersion(tool);
	const credentials = apiKeyCredentials(sandbox, options.apiKey);
	const node = (name: string, type: string, extra: Partial<INode> = {}): INode => ({
		id: name,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...extra,
	});
	const result = await runWorkflow({
		workflow: {
			nodes: [
				node('Manual Trigger', MANUAL_TRIGGER_TYPE),
				node('Agent', 'harness.agent'),
				node(nodeName, 'n8n-nodes-fillout-forms.filloutTool', {
					typeVersion,
					parameters: deepCopy(parameters),
					credentials: nodeCredentialsFor(Object.keys(credentials)),
				}),
			],
			connections: {
				'Manual Trigger': { main: [[{ node: 'Agent', type: 'main', index: 0 }]] },
				[nodeName]: { ai_tool: [[{ node: 'Agent', type: 'ai_tool', index: 0 }]] },
			},
			settings: { timezone: 'Europe/Berlin' },
		},
		nodeTypes: [tool, new HarnessAgent(args)],
		credentials,
	});
	const error = result.errorOf('Agent');
	if (error) throw new Error(`The agent failed: ${error.message}`);
	return result.outputOf('Agent')[0].json as unknown as ToolCall;
}
