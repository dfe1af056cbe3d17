import type { INodeProperties } from 'n8n-workflow';

/**
 * The Fillout Trigger's catch-up parameters. Version 1.1 turns catch-up on by default;
 * version 1 nodes keep what they did (off) and may turn it on.
 */

const catchUpDescription =
	'Whether to also run the workflow for submissions the webhook did not deliver: made while n8n was stopped, or after Fillout stopped delivering. Checks Fillout for them on a schedule and registers the webhook again when some were missed.';

export const catchUpParameters: INodeProperties[] = [
	{
		displayName: 'Catch Up Missed Submissions',
		name: 'catchUp',
		type: 'boolean',
		default: true,
		description: catchUpDescription,
		displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	},
	{
		displayName: 'Catch Up Missed Submissions',
		name: 'catchUp',
		type: 'boolean',
		default: false,
		description: catchUpDescription,
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Check for Missed Submissions Every (Minutes)',
		name: 'catchUpMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 60, numberPrecision: 0 },
		default: 5,
		description:
			'How often to ask Fillout for submissions the webhook missed. Each check is one request when nothing was missed.',
		displayOptions: { show: { catchUp: [true] } },
	},
];

export interface CatchUpSettings {
	on: boolean;
	minutes: number;
}

type ParameterReader = (name: string, fallback: unknown) => unknown;

export function catchUpSettingsOf(parameter: ParameterReader): CatchUpSettings {
	const on = parameter('catchUp', false) === true;
	const minutes = Number(parameter('catchUpMinutes', 5));
	// Whole minutes from 1 to 60: the schedule is a cron expression (an expression may give 2.5).
	const whole = Number.isFinite(minutes) ? Math.round(minutes) : 5;
	return { on, minutes: Math.min(60, Math.max(1, whole)) };
}
