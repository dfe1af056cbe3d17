import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filloutDelete } from '../../transport';
import { webhookIdOf } from '../../shared/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Webhook ID',
		name: 'webhookId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 12345',
		description: 'The ID that "Create" returned for the webhook',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['delete'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const webhookId = webhookIdOf(this, itemIndex);
	await filloutDelete(this, {
		method: 'POST',
		path: '/webhook/delete',
		body: { webhookId },
		context: { webhookId },
		itemIndex,
	});
	return { deleted: true, webhookId };
}
