import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkFixedOperation, errorForAgent } from '../agentTool/toolErrors';
import { runsAsTool } from '../agentTool/toolMode';
import type { BuiltItems } from '../shared/itemLoop';
import { forEachItem } from '../shared/itemLoop';
import * as form from './form';
import type { FilloutOperations, FilloutResource } from './operationNames';
import * as submission from './submission';
import * as webhook from './webhook';

/** An operation run once per input item: each result object becomes an output item. */
type ItemOperation = {
	description: INodeProperties[];
	executeItem(
		this: IExecuteFunctions,
		itemIndex: number,
	): Promise<IDataObject | IDataObject[] | BuiltItems>;
};

/** An operation that takes all items at once (Create sends them in batches). */
type BatchOperation = {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
};

type OperationModule = ItemOperation | BatchOperation;

/** Every operation of every resource, and no other: the type makes a gap or a typo fail to compile. */
export type OperationTable = {
	[R in FilloutResource]: Record<FilloutOperations[R], OperationModule>;
};

export const operationTable: OperationTable = {
	form: { get: form.get, getMany: form.getMany },
	submission: {
		count: submission.count,
		create: submission.create,
		delete: submission.delete,
		get: submission.get,
		getMany: submission.getMany,
	},
	webhook: { create: webhook.create, delete: webhook.delete },
};

/** The value under an own key only (a parameter could name "constructor"). */
function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
	return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Runs the chosen operation over all input items. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const tool = runsAsTool(this);
	if (tool) checkFixedOperation(this);
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const table: Record<string, Record<string, OperationModule>> = operationTable;
	const operations = ownEntry(table, resource);
	const chosen = operations && ownEntry(operations, operation);
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	if ('execute' in chosen) return [await chosen.execute.call(this, items)];
	const run = async (itemIndex: number) => {
		try {
			return await chosen.executeItem.call(this, itemIndex);
		} catch (error) {
			// As a tool, an error the agent can act on: docs/fillout-node.md, "Errors an agent reads".
			throw tool ? errorForAgent(this, error, { itemIndex, resource, operation }) : error;
		}
	};
	return [await forEachItem(this, items, run)];
}
