import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

import { answerFilterOption } from '../shared/answerFilterParameters';
import { parseDateInput } from '../shared/dates';
import { itemProblem } from '../shared/nodeErrors';
import type { InProgressMode } from './pollState';

/** The polling trigger's own parameters (the form, credentials and Simplify are shared). */
export const pollingProperties: INodeProperties[] = [
	{
		displayName: 'Start From',
		name: 'startFrom',
		type: 'options',
		options: [
			{
				name: 'Now (New Submissions Only)',
				value: 'now',
				description: 'Submissions made after the workflow is published',
			},
			{
				name: 'A Date',
				value: 'date',
				description: 'Every submission made since a date, then new ones',
			},
			{
				name: 'The Beginning',
				value: 'beginning',
				description: 'Every submission the form has, then new ones',
			},
		],
		default: 'now',
		description:
			'Where the trigger starts the first time the workflow is published for this form. Later polls continue from where the last one stopped.',
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'Submissions made at or after this moment are emitted on the first poll',
		displayOptions: { show: { startFrom: ['date'] } },
	},
	{
		displayName: 'In-Progress Submissions',
		name: 'inProgress',
		type: 'options',
		options: [
			{ name: 'Ignore', value: 'ignore', description: 'Only finished submissions' },
			{
				name: 'Emit Once',
				value: 'once',
				description: 'Also each in-progress submission once, when first seen',
			},
			{
				name: 'Emit on Every Update',
				value: 'onUpdate',
				description: 'Also each in-progress submission again whenever it changes',
			},
		],
		default: 'ignore',
		description:
			'Whether to also emit submissions that were started but not submitted (needs a paid Fillout plan). Every item has "status": "finished" or "in_progress".',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		hint: 'Submissions the filter does not match start nothing and are not read again',
		options: [answerFilterOption],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Late Submission Window (Minutes)',
				name: 'lateWindowMinutes',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 1440 },
				default: 10,
				description:
					'How long after its submission time a submission may still show up in Fillout’s list and be emitted. Each poll re-reads this much of the list.',
			},
		],
	},
];

export interface PollSettings {
	startFrom: 'now' | 'date' | 'beginning';
	/** Set when startFrom is 'date'. */
	startMs?: number;
	inProgress: InProgressMode;
	overlapMs: number;
	simplify: boolean;
	/** The "Answer" filter as set (read against the form when a poll has something to emit). */
	answerFilter?: unknown;
}

const MINUTE_MS = 60_000;

export function readPollSettings(ctx: IPollFunctions): PollSettings {
	const startFrom = ctx.getNodeParameter('startFrom', 'now') as PollSettings['startFrom'];
	const inProgress = ctx.getNodeParameter('inProgress', 'ignore') as InProgressMode;
	const options = ctx.getNodeParameter('options', {}) as { lateWindowMinutes?: number };
	const minutes = Number(options.lateWindowMinutes ?? 10);
	const settings: PollSettings = {
		startFrom,
		inProgress,
		overlapMs: Math.max(0, Number.isFinite(minutes) ? minutes : 10) * MINUTE_MS,
		simplify: ctx.getNodeParameter('simplify', true) as boolean,
		answerFilter: (ctx.getNodeParameter('filters', {}) as { answer?: unknown }).answer,
	};
	if (startFrom === 'date') {
		const value = ctx.getNodeParameter('startDate', '');
		settings.startMs = parseDateInput(value, ctx.getTimezone());
		if (settings.startMs === undefined) {
			throw itemProblem(
				ctx,
				`"Start Date" is not a readable date: ${JSON.stringify(String(value ?? ''))}`,
				undefined,
				'Pick a date, or use one such as 2024-05-01 or 2024-05-01T14:30:00.',
			);
		}
	}
	return settings;
}
