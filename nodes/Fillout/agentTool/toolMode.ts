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

/** Submissions a tool reads when its author left Limit alone (node version 1.1 on). */
export const TOOL_LIMIT = 10;

/**
 * The same on version 1: Limit's workflow default, which version-1 tools saved without a
 * Limit read before 1.1 (n8n saves no default, so a new default would change them).
 */
export const TOOL_LIMIT_V1 = 50;

/** The most a tool reads when the agent itself chose the amount (a $fromAI Limit or Return All). */
export const AGENT_MAX_LIMIT = 100;

const limitShow = limitOption.displayOptions?.show ?? {};
const toolLimitDescription =
	'Max number of results to return. As a tool, the answer tells the agent how many more match and how to narrow the request.';

/**
 * Submission → Get Many's Limit: 50 in a workflow, 10 on a tool of version 1.1, 50 on a
 * tool of version 1. n8n shows each where `@tool` and `@version` match, and fills in the
 * shown one's default when a workflow saved none.
 */
export const submissionLimitOptions: INodeProperties[] = [
	{ ...limitOption, displayOptions: { show: { ...limitShow, '@tool': [false] } } },
	{
		...limitOption,
		default: TOOL_LIMIT,
		description: toolLimitDescription,
		displayOptions: {
			show: { ...limitShow, '@tool': [true], '@version': [{ _cnd: { gte: 1.1 } }] },
		},
	},
	{
		...limitOption,
		default: TOOL_LIMIT_V1,
		description: toolLimitDescription,
		displayOptions: { show: { ...limitShow, '@tool': [true], '@version': [1] } },
	},
];

/** Whether a saved parameter is an expression calling $fromAI: a value the agent fills. */
export function filledByAgent(saved: unknown): boolean {
	return typeof saved === 'string' && saved.startsWith('=') && /\$fromai\s*\(/i.test(saved);
}

/**
 * How many submissions Get Many reads (undefined: all). As a tool: what the author set
 * (Limit, whose tool default is 10, 50 on version 1, or Return All), and at most
 * AGENT_MAX_LIMIT when the author left the amount to the agent.
 */
export function submissionAmount(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
	if (!runsAsTool(ctx)) {
		return returnAll ? undefined : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
	}
	const saved = ctx.getNode().parameters;
	if (returnAll) return filledByAgent(saved.returnAll) ? AGENT_MAX_LIMIT : undefined;
	const fallback = ctx.getNode().typeVersion >= 1.1 ? TOOL_LIMIT : TOOL_LIMIT_V1;
	const limit = ctx.getNodeParameter('limit', itemIndex, fallback) as unknown;
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
