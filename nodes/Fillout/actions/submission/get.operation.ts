import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Submission } from '../../helpers/interfaces';
import { simplifySubmission } from '../../helpers/simplify';
import { filloutRequest } from '../../transport';
import {
	formLocator,
	includeEditLinkOption,
	simplifyOption,
	submissionIdField,
} from '../../shared/descriptions';
import { formIdOf, submissionIdOf } from '../../shared/parameters';

const properties: INodeProperties[] = [
	formLocator,
	submissionIdField('The ID of the submission (submissionId)'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [includeEditLinkOption],
	},
	simplifyOption,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['get'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const formId = formIdOf(this, itemIndex);
	const submissionId = submissionIdOf(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const answer = await filloutRequest<{ submission: Submission }>(this, {
		method: 'GET',
		path: `/forms/${encodeURIComponent(formId)}/submissions/${encodeURIComponent(submissionId)}`,
		qs: options.includeEditLink ? { includeEditLink: true } : {},
		context: { formId, submissionId },
		itemIndex,
	});
	return simplify ? simplifySubmission(answer.submission) : answer.submission;
}
