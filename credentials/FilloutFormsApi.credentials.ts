import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { API_PATH, REGION_HOSTS } from '../nodes/Fillout/transport/apiRoot';

/** Each region's API root, from the node's own map, as a literal for the test request's expression. */
const REGION_API_ROOTS = JSON.stringify(
	Object.fromEntries(
		Object.entries(REGION_HOSTS).map(([region, host]) => [region, `${host}${API_PATH}`]),
	),
);
const API_PATH_PATTERN = API_PATH.replace(/\//g, '\\/');
const hostOf = (region: string) => new URL(REGION_HOSTS[region]).host;

/**
 * API key credential. The API root is derived from the region, or from the Base URL
 * for self-hosted Fillout (and the local sandbox); `/v1/api` is appended when missing.
 */
export class FilloutFormsApi implements ICredentialType {
	name = 'filloutFormsApi';

	displayName = 'Fillout API';

	icon: Icon = { light: 'file:../icons/fillout.svg', dark: 'file:../icons/fillout.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-fillout-forms/n8n-nodes-fillout-forms#api-key-credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Create one in Fillout under Settings → Developer. Keys start with <code>sk_prod_</code>.',
		},
		{
			displayName: 'Region',
			name: 'region',
			type: 'options',
			options: [
				{ name: 'United States', value: 'us', description: hostOf('us') },
				{ name: 'European Union', value: 'eu', description: hostOf('eu') },
				{ name: 'Canada', value: 'ca', description: hostOf('ca') },
				{
					name: 'Custom (Self-Hosted)',
					value: 'custom',
					description: 'A self-hosted Fillout or a local sandbox',
				},
			],
			default: 'us',
			description: 'Where your Fillout account stores its data',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://fillout.example.com/v1/api',
			description:
				'The API address shown in your account’s developer settings. <code>/v1/api</code> is added when missing.',
			displayOptions: { show: { region: ['custom'] } },
		},
	];

	// Trimmed: a pasted key often brings spaces, a line break or a no-break space along,
	// which would otherwise be sent as part of the key.
	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{ String($credentials.apiKey).trim() }}',
			},
		},
	};

	// Listing forms is the cheapest authenticated call. Fillout answers a bad key with
	// 400 (not 401); an unreachable host surfaces as a connection error code instead.
	// The address is the one the node's requests use (transport/apiRoot.ts).
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{ $credentials.region === "custom" ? String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/(${API_PATH_PATTERN})?$/, "${API_PATH}") : (${REGION_API_ROOTS})[$credentials.region || "us"] }}`,
			url: '/forms',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 400,
					message: 'Fillout refused the API key: check that it is complete and not revoked',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'Fillout refused the API key: check that it is complete and not revoked',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'No Fillout API answers at this Base URL: check the address',
				},
			},
		],
	};
}
