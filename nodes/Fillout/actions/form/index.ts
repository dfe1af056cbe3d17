import type { INodeProperties } from 'n8n-workflow';

import type { OperationOption } from '../operationNames';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['form'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a form’s questions and other fields, by form ID',
				action: 'Get a form and its questions by form ID',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the forms of the account, with the ID and name of each',
				action: 'Get many forms with the ID and name of each',
			},
		] satisfies Array<OperationOption<'form'>>,
		default: 'getMany',
	},
	...getMany.description,
	...get.description,
];
