import type { IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { limitOption } from '../shared/descriptions';
import { itemProblem } from '../shared/nodeErrors';

/**
 * The node as an AI tool (an AI Agent's tool, or a tool of n8n's MCP Server Trigger):
 * how it knows, and how many submissions it reads then. Why the type name tells, on
 * n8n 1.123 and 2.41 alike: docs/fillout-node.md, "How the node knows it runs as a tool".
 */

/** n8n runs a node's tool variant under its type name plus "Tool" (filloutTool). */
export function runsAsTool(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** Submissions a tool reads when its author left Limit alone. */
export const TOOL_LIMIT = 10;

/** The most a tool reads when the agent itself chose the amount (a $fromAI Limit or Return All). */
export const AGENT_MAX_LIMIT = 100;

const limitShow = limitOption.displayOptions?.show ?? {};

/**
 * Submission → Get Many's Limit: 50 in a workflow, 10 on the tool. n8n shows each where
 * `@tool` matches, and fills in the shown one's default when a workflow saved none.
 */
export const submissionLimitOptions: INodeProperties[] = [
	{ ...limitOption, displayOptions: { show: { ...limitShow, '@tool': [false] } } },
	{
		...limitOption,
		default: TOOL_LIMIT,
		description:
			'Max number of results to return. As a tool, the answer tells the agent how many more match and how to narrow the request.',
		displayOptions: { show: { ...limitShow, '@tool': [true] } },
	},
];

/** Whether a saved parameter is an expression calling $fromAI: a value the agent fills. */
export function filledByAgent(saved: unknown): boolean {
	return typeof saved === 'string' && saved.startsWith('=') && /\$fromai\s*\(/i.test(saved);
}

/**
 * How many submissions Get Many reads (undefined: all). As a tool: what the author set
 * (Limit, whose tool default is 10, or Return All), and at most AGENT_MAX_LIMIT when
 * the author left the amount to the agent.
 */
export function submissionAmount(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (!runsAsTool(ctx)) {
		return returnAll ? undefined : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	}
	const saved = ctx.getNode().parameters;
	if (returnAll) return filledByAgent(saved.returnAll) ? AGENT_MAX_LIMIT : undefined;
	const limit = ctx.getNodeParameter('limit', itemIndex, TOOL_LIMIT) as unknown;
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw itemProblem(
			ctx,
			`"Limit" must be a whole number of at least 1, got ${JSON.stringify(limit)}`,
			itemIndex,
			`Give a number from 1 to ${AGENT_MAX_LIMIT}.`,
		);
	}
	return filledByAgent(saved.limit) ? Math.min(limit, AGENT_MAX_LIMIT) : limit;
}

/** How a date filter is written, in its description (people and agents read the same). */
export const DATE_FORMAT =
	'a date such as 2024-05-01, or a date and time such as 2024-05-01T14:30:00Z; without an offset it is read in the workflow’s time zone';
