import type { INodeCredentialDescription, INodeProperties } from 'n8n-workflow';

import { FORM_EDITOR_ADDRESS, FORM_ID_PATTERN, FORM_URL_PATTERN } from './formUrl';

/** The two ways to connect, chosen by the "Authentication" parameter below. */
export const filloutCredentials: INodeCredentialDescription[] = [
	{
		name: 'filloutFormsApi',
		required: true,
		displayOptions: { show: { authentication: ['apiKey'] } },
	},
	{
		name: 'filloutFormsOAuth2Api',
		required: true,
		displayOptions: { show: { authentication: ['oAuth2'] } },
	},
];

export const authenticationParameter: INodeProperties = {
	displayName: 'Authentication',
	name: 'authentication',
	type: 'options',
	options: [
		{ name: 'API Key', value: 'apiKey' },
		{ name: 'OAuth2', value: 'oAuth2' },
	],
	default: 'apiKey',
};

/** The form, picked from a searchable list, by id, or by its share or editor address. */
export const formLocator: INodeProperties = {
	displayName: 'Form',
	name: 'form',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The Fillout form: its ID (such as foAdHjd1Duus; Form → Get Many lists them), its share link or its editor address',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: {
				searchListMethod: 'searchForms',
				searchable: true,
			},
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. foAdHjd1Duus',
			// The editor links the id to the form, as the list's entries are.
			url: `=${FORM_EDITOR_ADDRESS}{{$value}}`,
			validation: [
				{
					type: 'regex',
					properties: {
						regex: FORM_ID_PATTERN,
						errorMessage: 'Not a valid Fillout form ID',
					},
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://forms.fillout.com/t/foAdHjd1Duus',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: FORM_URL_PATTERN,
						errorMessage:
							'Not a Fillout form address: use the share link (…fillout.com/t/<id>) or the editor address (build.fillout.com/editor/<id>)',
					},
				},
			],
		},
	],
};

export const simplifyOption: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return one flat object per submission: answers keyed by question name (a repeated name gets " (2)", " (3)"… in question order), plus submissionId, submissionTime, calculations, urlParameters, scheduling, payments, quizScore and loginEmail. Off returns the raw data.',
};

export const returnAllOption: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitOption: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const includeEditLinkOption: INodeProperties = {
	displayName: 'Include Edit Link',
	name: 'includeEditLink',
	type: 'boolean',
	default: false,
	description: 'Whether to add a link that lets the respondent edit the submission',
};

export function submissionIdField(description: string): INodeProperties {
	return {
		displayName: 'Submission ID',
		name: 'submissionId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. abc123def456',
		description,
	};
}
