import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationParameter, filloutCredentials } from './shared/descriptions';
import * as form from './actions/form';
import type { FilloutResource } from './actions/operationNames';
import { router } from './actions/router';
import * as submission from './actions/submission';
import * as webhook from './actions/webhook';
import { listSearch, loadOptions, resourceMapping } from './methods';

export class Fillout implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fillout',
		name: 'fillout',
		icon: { light: 'file:../../icons/fillout.svg', dark: 'file:../../icons/fillout.dark.svg' },
		group: ['transform'],
		// 1.1: as a tool, Get Many reads 10 by default; version-1 tools keep 50 (agentTool/toolMode.ts).
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Read Fillout forms and submissions, import submissions and manage webhooks: list forms to learn their IDs, read a form’s questions, find a form’s submissions by date or text, get one by its ID',
		defaults: { name: 'Fillout' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: filloutCredentials,
		properties: [
			authenticationParameter,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Form', value: 'form' },
					{ name: 'Submission', value: 'submission' },
					{ name: 'Webhook', value: 'webhook' },
				] satisfies Array<{ name: string; value: FilloutResource }>,
				default: 'submission',
			},
			...form.description,
			...submission.description,
			...webhook.description,
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
