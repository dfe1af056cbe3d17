import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorWords, FailedRequest, FailureContext } from '../helpers/failures';
import { describeFailedRequest } from '../helpers/failures';
import { atItem } from '../helpers/itemNumbers';

/**
 * Every error the node raises is built here: from a failed request (in Fillout's words
 * where it gives any), from a problem with the input, or from words already chosen.
 * None carries a request or its headers, so keys and tokens never reach a message.
 */

/** Any context of the node's: execution, editor methods, webhook setup. */
interface WithNode {
	getNode(): INode;
}

/** A problem with the input, named at its item as n8n names items ("… [item 3]"). */
export function itemProblem(
	ctx: WithNode,
	message: string,
	itemIndex: number | undefined,
	description?: string,
): NodeOperationError {
	const words = itemIndex === undefined ? message : atItem(message, itemIndex);
	const error = new NodeOperationError(ctx.getNode(), words, { itemIndex, description });
	// n8n swaps any message that contains a system error code (ECONNRESET, EPERM…, in any
	// case, even inside a file name) for generic words naming no item or field: keep ours.
	error.message = words;
	error.messages = error.messages.filter((text) => text !== words);
	return error;
}

/** Words about what Fillout answered, as an API error of the item. */
export function apiError(ctx: WithNode, words: ErrorWords, itemIndex?: number): NodeApiError {
	const { message, description, httpCode, facts } = words;
	return new NodeApiError(ctx.getNode(), facts ?? { message }, {
		message,
		description,
		httpCode,
		itemIndex,
	});
}

/** A request that did not succeed, as an error. */
export function filloutError(
	ctx: WithNode,
	request: FailedRequest,
	context: FailureContext = {},
	itemIndex?: number,
): NodeApiError {
	return apiError(ctx, describeFailedRequest(request, context), itemIndex);
}

/**
 * The error as a node error that names its item. Errors the node raised keep their
 * message; anything else is wrapped with its message only (a raw error could hold a
 * request and its headers).
 */
export function asItemError(
	ctx: WithNode,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
}
