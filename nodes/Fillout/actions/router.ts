import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as form from './form';
import * as submission from './submission';
import * as webhook from './webhook';

type OperationModule = {
	execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
	description: INodeProperties[];
};

const operations: Record<string, Record<string, OperationModule>> = {
	form: { get: form.get, getMany: form.getMany },
	submission: {
		create: submission.create,
		delete: submission.delete,
		get: submission.get,
		getMany: submission.getMany,
	},
	webhook: { create: webhook.create, delete: webhook.delete },
};

/** Runs the chosen operation over all input items (each operation loops over them itself). */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operations[resource]?.[operation];
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return [await chosen.execute.call(this, items)];
}
