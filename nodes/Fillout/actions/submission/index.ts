import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../operationNames';
import * as count from './count.operation';
import * as create from './create/create.operation';
import * as deleteSubmission from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { count, create, deleteSubmission as delete, get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['submission'] } },
		options: [
			{
				name: 'Count',
				value: 'count',
				description:
					'Count a form’s submissions, with the same filters as Get Many (one request without an Answer filter)',
				action: 'Count submissions',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Import submissions into a form (10 per request)',
				action: 'Create a submission',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a submission',
				action: 'Delete a submission',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a submission by its ID',
				action: 'Get a submission by its ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get a form’s submissions, with filters',
				action: 'Get many submissions of a form by date or text',
			},
		] satisfies Array<OperationOption<'submission'>>,
		default: 'getMany',
	},
	...getMany.description,
	...count.description,
	...get.description,
	...create.description,
	...deleteSubmission.description,
];
