import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { asItemError } from './nodeErrors';

/** The output item continueOnFail asks for: the error's message, paired to its input. */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	return { json, error, pairedItem: { item: itemIndex } };
}

/** An item that failed: its error is thrown, or with "Continue On Fail" becomes its output item. */
export function failedItem(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): INodeExecutionData {
	const failure = asItemError(ctx, error, itemIndex);
	if (!ctx.continueOnFail()) throw failure;
	return errorItem(failure, itemIndex);
}

/** Output items an operation built itself (with binary data); forEachItem pairs them. */
export class BuiltItems {
	constructor(readonly items: INodeExecutionData[]) {}
}

/**
 * Runs an operation once per input item. Each result object becomes an output item
 * paired to its input; with "Continue On Fail" a failing item becomes an error item
 * and the others still run.
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	run: (itemIndex: number) => Promise<IDataObject | IDataObject[] | BuiltItems>,
): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await run(itemIndex);
			if (result instanceof BuiltItems) {
				for (const item of result.items) output.push({ ...item, pairedItem: { item: itemIndex } });
				continue;
			}
			for (const json of Array.isArray(result) ? result : [result]) {
				output.push({ json, pairedItem: { item: itemIndex } });
			}
		} catch (error) {
			output.push(failedItem(ctx, error, itemIndex));
		}
	}
	return output;
}
