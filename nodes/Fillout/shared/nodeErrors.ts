import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorText, FailedRequest, FailureContext } from '../transport/errorMessages';
import { describeFailedRequest } from '../transport/errorMessages';

/**
 * Every error the node raises is built here: from a failed request (in Fillout's words
 * where it gives any), from a problem with the input, or from a text already written.
 * None carries a request or its headers, so keys and tokens never reach a message.
 */

/**
 * How messages name input items, as n8n does: numbered from 0 (the error view's "Item
 * Index", `$itemIndex`) and named at the end, "… [item 3]", a suffix the editor then
 * does not add a second time.
 */
export function atItem(message: string, itemIndex: number): string {
	return `${message} [item ${itemIndex}]`;
}

/** "0–3, 5, 7–8": item numbers, runs collapsed. */
export function itemRanges(indexes: readonly number[]): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const runs: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		runs.push(end === start ? `${sorted[start]}` : `${sorted[start]}–${sorted[end]}`);
		start = end + 1;
	}
	return runs.join(', ');
}

/** "item 5" or "items 0–3, 5". */
export function itemsNamed(indexes: readonly number[]): string {
	return `${new Set(indexes).size === 1 ? 'item' : 'items'} ${itemRanges(indexes)}`;
}

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
	const named = itemIndex === undefined ? message : atItem(message, itemIndex);
	const error = new NodeOperationError(ctx.getNode(), named, { itemIndex, description });
	// n8n swaps any message that contains a system error code (ECONNRESET, EPERM…, in any
	// case, even inside a file name) for generic words naming no item or field: keep ours.
	error.message = named;
	error.messages = error.messages.filter((text) => text !== named);
	return error;
}

/** A text about what Fillout answered, as an API error of the item. */
export function apiError(ctx: WithNode, text: ErrorText, itemIndex?: number): NodeApiError {
	const { message, description, httpCode, facts } = text;
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
