import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { listSearch, loadOptions } from './methods';
import { pollSubmissions } from './pollingTrigger/poll';
import { pollingProperties } from './pollingTrigger/settings';
import {
	authenticationParameter,
	filloutCredentials,
	formLocator,
	simplifyOption,
} from './shared/descriptions';
import { downloadFilesParameters } from './downloadFiles';

/**
 * Asks Fillout for new submissions on a schedule ("Poll Times"), for n8n instances that
 * Fillout cannot reach with a webhook. pollingTrigger/pollState.ts says how each submission is
 * emitted exactly once.
 */
export class FilloutPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fillout Polling Trigger',
		name: 'filloutPollingTrigger',
		icon: {
			light: 'file:../../icons/fillout.svg',
			dark: 'file:../../icons/fillout.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{"Poll for submissions: " + ($parameter["form"].cachedResultName || $parameter["form"].value)}}',
		description:
			'Checks a Fillout form for new submissions on a schedule; works without a public n8n address',
		defaults: { name: 'Fillout Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: filloutCredentials,
		properties: [
			authenticationParameter,
			{
				...formLocator,
				description: 'The form whose new submissions start the workflow',
			},
			...pollingProperties,
			simplifyOption,
			...downloadFilesParameters,
		],
	};

	methods = { listSearch, loadOptions };

	poll = pollSubmissions;
}
