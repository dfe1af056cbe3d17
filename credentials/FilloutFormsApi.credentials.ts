import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
				{ name: 'United States', value: 'us', description: 'api.fillout.com' },
				{ name: 'European Union', value: 'eu', description: 'eu-api.fillout.com' },
				{ name: 'Canada', value: 'ca', description: 'ca-api.fillout.com' },
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
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ $credentials.region === "custom" ? String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/(\\/v1\\/api)?$/, "/v1/api") : "https://" + ({ us: "api", eu: "eu-api", ca: "ca-api" })[$credentials.region] + ".fillout.com/v1/api" }}',
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
