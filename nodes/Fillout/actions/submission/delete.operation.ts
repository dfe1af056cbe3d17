import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filloutDelete } from '../../transport';
import { formLocator, submissionIdField } from '../../shared/descriptions';
import { formIdOf, submissionIdOf } from '../../shared/parameters';

const properties: INodeProperties[] = [
	formLocator,
	submissionIdField('The ID of the submission to delete'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['delete'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const formId = formIdOf(this, itemIndex);
	const submissionId = submissionIdOf(this, itemIndex);
	await filloutDelete(this, {
		method: 'DELETE',
		path: `/forms/${encodeURIComponent(formId)}/submissions/${encodeURIComponent(submissionId)}`,
		context: { formId, submissionId },
		itemIndex,
	});
	return { deleted: true, submissionId };
}
