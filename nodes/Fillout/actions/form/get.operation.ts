import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getFormMetadata } from '../../transport';
import { formLocator } from '../common.descriptions';
import { forEachItem } from '../itemErrors';
import { formIdOf } from '../parameters';

const properties: INodeProperties[] = [formLocator];

export const description = updateDisplayOptions(
	{ show: { resource: ['form'], operation: ['get'] } },
	properties,
);

/** The form's metadata (questions, calculations, URL parameters…) as Fillout returns it. */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (itemIndex) => {
		const formId = formIdOf(this, itemIndex);
		return await getFormMetadata(this, formId, itemIndex);
	});
}
