import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { formLocator } from '../../shared/descriptions';
import { itemProblem } from '../../shared/nodeErrors';
import { formIdOf } from '../../shared/parameters';
import type { SubmissionPage } from '../../shared/interfaces';
import { readSubmissions } from '../../reading/readSubmissions';
import { filloutRequest } from '../../transport';
import { listFilterOptions, listFiltersOf } from './listFilters';

/**
 * Count: how many submissions the filters select, from Fillout's `totalResponses` on a
 * page of one (one request). With an answer filter Fillout cannot count, so the node reads
 * every candidate (narrowed by search where it can) and counts the matches.
 */
const properties: INodeProperties[] = [
	formLocator,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		hint: 'One request, whatever the number. With an Answer filter the node reads the submissions Fillout’s search finds for it (all of them when it cannot narrow) and counts the matches.',
		options: listFilterOptions(),
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Preview',
				name: 'includePreview',
				type: 'boolean',
				default: false,
				description: 'Whether to count preview responses too',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['count'] } },
	properties,
);

export async function executeItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<IDataObject> {
	const formId = formIdOf(this, itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const listed = await listFiltersOf(this, formId, filters, itemIndex);
	const query: IDataObject = { ...listed.query };
	if (options.includePreview) query.includePreview = true;
	const bounds = { afterDate: listed.afterDate, beforeDate: listed.beforeDate };
	if (listed.keep) {
		const pager = { sort: 'asc' as const, ...bounds, keep: listed.keep };
		const matches = await readSubmissions(this, formId, pager, query, itemIndex);
		return { formId, count: matches.length };
	}
	const page = await filloutRequest<SubmissionPage>(this, {
		method: 'GET',
		path: `/forms/${encodeURIComponent(formId)}/submissions`,
		qs: { ...query, ...definedOnly(bounds), limit: 1 },
		context: { formId },
		itemIndex,
	});
	const count = page?.totalResponses;
	if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
		throw itemProblem(
			this,
			'Fillout’s answer carried no count of submissions (totalResponses)',
			itemIndex,
			'Try again; if it persists, use Get Many with Return All and count its items.',
		);
	}
	return { formId, count };
}

function definedOnly(values: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
