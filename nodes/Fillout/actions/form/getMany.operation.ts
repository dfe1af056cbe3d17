import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FormListEntry } from '../../shared/interfaces';
import { filloutRequest } from '../../transport';
import { limitOption, returnAllOption } from '../../shared/descriptions';

const properties: INodeProperties[] = [
	returnAllOption,
	limitOption,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to return only the ID and name of each form instead of everything Fillout lists',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['form'], operation: ['getMany'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[]> {
	// Fillout lists all forms in one answer: Limit is applied here.
	const forms = await filloutRequest<FormListEntry[]>(this, {
		method: 'GET',
		path: '/forms',
		itemIndex,
	});
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const chosen = returnAll ? forms : forms.slice(0, limit);
	return chosen.map(
		(form): IDataObject => (simplify ? { formId: form.formId, name: form.name } : form),
	);
}
