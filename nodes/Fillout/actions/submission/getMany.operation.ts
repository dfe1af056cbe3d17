import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { RESERVED_KEYS, simplifySubmissions } from '../../shared/simplify';
import { readableSubmission } from '../../shared/submissionItem';
import {
	formLocator,
	includeEditLinkOption,
	limitOption,
	returnAllOption,
	simplifyOption,
} from '../../shared/descriptions';
import { BuiltItems } from '../../shared/itemLoop';
import { formIdOf } from '../../shared/parameters';
import { readSubmissions } from '../../reading/readSubmissions';
import { listFilterOptions, listFiltersOf } from './listFilters';
import {
	downloadFilesParameters,
	FILES_KEY,
	fileSettingsOf,
	itemsWithFiles,
} from '../../downloadFiles';

const properties: INodeProperties[] = [
	formLocator,
	returnAllOption,
	limitOption,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: listFilterOptions({
			displayName: 'Sort',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Oldest First', value: 'asc' },
				{ name: 'Newest First', value: 'desc' },
			],
			default: 'asc',
			description: 'Order of the submissions by submission time',
		}),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			includeEditLinkOption,
			{
				displayName: 'Include Preview',
				name: 'includePreview',
				type: 'boolean',
				default: false,
				description: 'Whether to include preview responses',
			},
		],
	},
	simplifyOption,
	...downloadFilesParameters,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['getMany'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[] | BuiltItems> {
	const formId = formIdOf(this, itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = this.getNodeParameter('limit', itemIndex, 50) as number;
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const listed = await listFiltersOf(this, formId, filters, itemIndex);
	const pagerOptions = {
		sort: filters.sort === 'desc' ? ('desc' as const) : ('asc' as const),
		afterDate: listed.afterDate,
		beforeDate: listed.beforeDate,
		maxItems: returnAll ? undefined : limit,
		keep: listed.keep,
	};
	const fixed: IDataObject = { ...listed.query };
	if (options.includeEditLink) fixed.includeEditLink = true;
	if (options.includePreview) fixed.includePreview = true;

	// The pager's own errors (a service that never finishes) become item errors in forEachItem.
	const submissions = await readSubmissions(this, formId, pagerOptions, fixed, itemIndex);
	const files = fileSettingsOf((name, fallback) =>
		this.getNodeParameter(name, itemIndex, fallback),
	);
	// Simplify reads the copy the triggers read: list entries that are not questions are left out.
	const readable = simplify ? submissions.map(readableSubmission) : submissions;
	if (!files) return simplify ? simplifySubmissions(readable) : submissions;
	const jsons = simplify
		? simplifySubmissions(readable, [...RESERVED_KEYS, FILES_KEY])
		: submissions;
	return new BuiltItems(
		await itemsWithFiles(this, submissions, jsons, files, { itemIndex, onFailure: 'fail' }),
	);
}
