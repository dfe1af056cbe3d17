import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { atItem } from '../helpers/itemNumbers';

/** A problem with one item's input, named as n8n names items ("… [item 3]"). */
export function itemProblem(
	ctx: IExecuteFunctions,
	message: string,
	itemIndex: number,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), atItem(message, itemIndex), {
		itemIndex,
		description,
	});
}

/** What Fillout answered about one item, named the same way. */
export function itemApiError(
	ctx: IExecuteFunctions,
	message: string,
	itemIndex: number,
	httpCode?: string,
	description?: string,
): NodeApiError {
	const text = atItem(message, itemIndex);
	return new NodeApiError(ctx.getNode(), { message: text } as JsonObject, {
		message: text,
		description,
		httpCode,
		itemIndex,
	});
}

/**
 * The error as a node error that names its item. Errors the node raised keep their
 * message; anything else is wrapped with its message only (a raw error could hold a
 * request and its headers).
 */
export function itemError(
	ctx: IExecuteFunctions,
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

/** The output item continueOnFail asks for: the error's message, paired to its input. */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, error, pairedItem: { item: itemIndex } };
}

/**
 * Runs an operation once per input item. Each result object becomes an output item
 * paired to its input; with "Continue On Fail" a failing item becomes an error item
 * and the others still run.
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	run: (itemIndex: number) => Promise<IDataObject | IDataObject[]>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await run(itemIndex);
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			const failure = itemError(ctx, error, itemIndex);
			if (!ctx.continueOnFail()) throw failure;
			output.push(errorItem(failure, itemIndex));
		}
	}
	return output;
}
