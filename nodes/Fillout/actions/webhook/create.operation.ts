import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filloutRequest } from '../../transport';
import { formLocator } from '../../shared/descriptions';
import { itemProblem } from '../../shared/nodeErrors';
import { formIdOf } from '../../shared/parameters';

const properties: INodeProperties[] = [
	formLocator,
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/hooks/fillout',
		description: 'The address that receives each new submission',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['create'] } },
	properties,
);

/** Subscribes an address to a form's new submissions. Sent once: a repeat would subscribe twice. */
export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const formId = formIdOf(this, itemIndex);
	const url = String(this.getNodeParameter('url', itemIndex, '')).trim();
	if (!/^https?:\/\/\S+$/i.test(url)) {
		throw itemProblem(this, '"URL" must be an http:// or https:// address', itemIndex);
	}
	return await filloutRequest<IDataObject>(this, {
		method: 'POST',
		path: '/webhook/create',
		body: { formId, url },
		context: { formId },
		itemIndex,
	});
}
