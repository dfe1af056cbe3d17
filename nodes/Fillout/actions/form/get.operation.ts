import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { simplifyFormMetadata } from '../../shared/simplify';
import { getFormMetadata } from '../../transport';
import { formLocator } from '../../shared/descriptions';
import { formIdOf } from '../../shared/parameters';

const properties: INodeProperties[] = [
	formLocator,
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description:
			'Whether to leave out questions and calculations of types this node does not know yet (Fillout adds new types without notice). Off returns the form exactly as Fillout sends it.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['form'], operation: ['get'] } },
	properties,
);

/** The form's metadata (questions, calculations, URL parameters…), unknown types left out unless Simplify is off. */
export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const formId = formIdOf(this, itemIndex);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	const metadata = await getFormMetadata(this, formId, itemIndex);
	return simplify ? simplifyFormMetadata(metadata) : metadata;
}
