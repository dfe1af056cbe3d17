import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { formatInZone, isEmptyDate, parseDateInput } from '../../shared/dates';
import { RESERVED_KEYS, simplifySubmissions } from '../../shared/simplify';
import { readableSubmission } from '../../shared/submissionItem';
import {
	formLocator,
	includeEditLinkOption,
	returnAllOption,
	simplifyOption,
} from '../../shared/descriptions';
import { BuiltItems } from '../../shared/itemLoop';
import { itemProblem } from '../../shared/nodeErrors';
import { formIdOf } from '../../shared/parameters';
import { readSubmissions } from '../../reading/readSubmissions';
import { MatchCount, submissionsAnswer } from '../../agentTool/toolAnswer';
import { DATE_FORMAT, submissionAmount, submissionLimitOptions } from '../../agentTool/toolMode';
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
		options: [
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Only submissions with this text in any of their answers',
			},
			{
				displayName: 'Sort',
				name: 'sort',
				type: 'options',
				options: [
					{ name: 'Oldest First', value: 'asc' },
					{ name: 'Newest First', value: 'desc' },
				],
				default: 'asc',
				description: 'Order of the submissions by submission time',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Finished', value: 'finished' },
					{ name: 'In Progress', value: 'in_progress' },
				],
				default: 'finished',
				description:
					'Finished submissions, or ones started but not submitted (needs a paid Fillout plan)',
			},
			{
				displayName: 'Submitted After',
				name: 'afterDate',
				type: 'dateTime',
				default: '',
				description: `Only submissions made after this moment: ${DATE_FORMAT}`,
			},
			{
				displayName: 'Submitted Before',
				name: 'beforeDate',
				type: 'dateTime',
				default: '',
				description: `Only submissions made before this moment: ${DATE_FORMAT}`,
			},
		],
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

const DATE_FILTERS: Record<string, string> = {
	afterDate: 'Submitted After',
	beforeDate: 'Submitted Before',
};

/** A date filter as Fillout wants it: ISO 8601 with the workflow zone's offset. */
function dateFilter(
	ctx: IExecuteFunctions,
	filters: IDataObject,
	name: string,
	itemIndex: number,
): string | undefined {
	const value = filters[name];
	if (isEmptyDate(value)) return undefined;
	const timeZone = ctx.getTimezone();
	const ms = parseDateInput(value, timeZone);
	if (ms === undefined) {
		throw itemProblem(
			ctx,
			`"${DATE_FILTERS[name]}" is not a readable date: ${JSON.stringify(String(value))}`,
			itemIndex,
			'Use a date such as 2024-05-01 or 2024-05-01T14:30:00 (with or without an offset), or a Luxon DateTime.',
		);
	}
	return formatInZone(ms, timeZone);
}

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject[] | BuiltItems> {
	const formId = formIdOf(this, itemIndex);
	const maxItems = submissionAmount(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const pagerOptions = {
		sort: filters.sort === 'desc' ? ('desc' as const) : ('asc' as const),
		afterDate: dateFilter(this, filters, 'afterDate', itemIndex),
		beforeDate: dateFilter(this, filters, 'beforeDate', itemIndex),
		maxItems,
	};
	const fixed: IDataObject = {};
	if (filters.status) fixed.status = filters.status;
	if (typeof filters.search === 'string' && filters.search !== '') fixed.search = filters.search;
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
	const facts = { total: count.total, maxItems, sort: pagerOptions.sort };
	if (!files)
		return submissionsAnswer(this, simplify ? simplifySubmissions(readable) : submissions, facts);
	const jsons = simplify
		? simplifySubmissions(readable, [...RESERVED_KEYS, FILES_KEY])
		: submissions;
	return new BuiltItems(
		await itemsWithFiles(this, submissions, jsons, files, { itemIndex, onFailure: 'fail' }),
	);
}
