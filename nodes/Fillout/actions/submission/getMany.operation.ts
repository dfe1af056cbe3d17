import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { RESERVED_KEYS, simplifySubmissions } from '../../shared/simplify';
import { readableSubmission } from '../../shared/submissionItem';
import {
	formLocator,
	includeEditLinkOption,
	returnAllOption,
	simplifyOption,
} from '../../shared/descriptions';
import { BuiltItems } from '../../shared/itemLoop';
import { formIdOf } from '../../shared/parameters';
import { readSubmissions } from '../../reading/readSubmissions';
import { MatchCount, submissionsAnswer } from '../../agentTool/toolAnswer';
import { submissionAmount, submissionLimitOptions } from '../../agentTool/toolMode';
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
	...submissionLimitOptions,
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
	const maxItems = submissionAmount(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const listed = await listFiltersOf(this, formId, filters, itemIndex);
	const pagerOptions = {
		sort: filters.sort === 'desc' ? ('desc' as const) : ('asc' as const),
		afterDate: listed.afterDate,
		beforeDate: listed.beforeDate,
		maxItems,
		keep: listed.keep,
	};
	const fixed: IDataObject = { ...listed.query };
	if (options.includeEditLink) fixed.includeEditLink = true;
	if (options.includePreview) fixed.includePreview = true;

	// The pager's own errors (a service that never finishes) become item errors in forEachItem.
	const count = new MatchCount();
	const submissions = await readSubmissions(
		this,
		formId,
		pagerOptions,
		fixed,
		itemIndex,
		count.onPage,
	);
	const files = fileSettingsOf((name, fallback) =>
		this.getNodeParameter(name, itemIndex, fallback),
	);
	// Simplify reads the copy the triggers read: list entries that are not questions are left out.
	const readable = simplify ? submissions.map(readableSubmission) : submissions;
	// With an answer filter, Fillout's count is of its search's hits, not of the matches.
	const total = listed.keep ? undefined : count.total;
	const facts = { total, maxItems, sort: pagerOptions.sort };
	if (!files)
		return submissionsAnswer(this, simplify ? simplifySubmissions(readable) : submissions, facts);
	const jsons = simplify
		? simplifySubmissions(readable, [...RESERVED_KEYS, FILES_KEY])
		: submissions;
	return new BuiltItems(
		await itemsWithFiles(this, submissions, jsons, files, { itemIndex, onFailure: 'fail' }),
	);
}
