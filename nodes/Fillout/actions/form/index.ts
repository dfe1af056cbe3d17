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
				description: 'Get a form’s questions and other fields',
				action: 'Get a form',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List the forms of the account',
				action: 'Get many forms',
			},
		] satisfies Array<OperationOption<'form'>>,
		default: 'getMany',
	},
	...getMany.description,
	...get.description,
];
