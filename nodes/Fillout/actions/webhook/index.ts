import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../operationNames';
import * as create from './create.operation';
import * as deleteWebhook from './delete.operation';

export { create, deleteWebhook as delete };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Send a form’s new submissions to an address',
				action: 'Create a webhook',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Stop sending submissions to an address',
				action: 'Delete a webhook',
			},
		] satisfies Array<OperationOption<'webhook'>>,
		default: 'create',
	},
	...create.description,
	...deleteWebhook.description,
];
