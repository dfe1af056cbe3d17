import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as form from './form';
import type { FilloutOperations, FilloutResource } from './operationNames';
import * as submission from './submission';
import * as webhook from './webhook';

type OperationModule = {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	description: INodeProperties[];
};

/** Every operation of every resource, and no other: the type makes a gap or a typo fail to compile. */
export type OperationTable = {
	[R in FilloutResource]: Record<FilloutOperations[R], OperationModule>;
};

export const operationTable: OperationTable = {
	form: { get: form.get, getMany: form.getMany },
	submission: {
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

/** Runs the chosen operation over all input items (each operation loops over them itself). */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
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
	return [await chosen.execute.call(this, items)];
}
