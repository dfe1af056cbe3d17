import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { Submission } from '../../shared/interfaces';
import { questionKeyMap, RESERVED_KEYS, simplifySubmission } from '../../shared/simplify';
import { readableSubmission } from '../../shared/submissionItem';
import { filloutRequest } from '../../transport';
import {
	formLocator,
	includeEditLinkOption,
	simplifyOption,
	submissionIdField,
} from '../../shared/descriptions';
import { BuiltItems } from '../../shared/itemLoop';
import { formIdOf, submissionIdOf } from '../../shared/parameters';
import {
	downloadFilesParameters,
	FILES_KEY,
	fileSettingsOf,
	itemsWithFiles,
} from '../../downloadFiles';

const properties: INodeProperties[] = [
	formLocator,
	submissionIdField(
		'The ID of the submission (its submissionId, as Submission → Get Many lists it), such as abc123def456',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [includeEditLinkOption],
	},
	simplifyOption,
	...downloadFilesParameters,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['get'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject | BuiltItems> {
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
	const { submission } = answer;
	// Simplify reads the copy the triggers read: list entries that are not questions are left out.
	const readable = readableSubmission(submission);
	const files = fileSettingsOf((name, fallback) =>
		this.getNodeParameter(name, itemIndex, fallback),
	);
	if (!files) return simplify ? simplifySubmission(readable) : submission;
	const json = simplify
		? simplifySubmission(
				readable,
				questionKeyMap(readable.questions ?? [], [...RESERVED_KEYS, FILES_KEY]),
			)
		: submission;
	return new BuiltItems(
		await itemsWithFiles(this, [submission], [json], files, { itemIndex, onFailure: 'fail' }),
	);
}
