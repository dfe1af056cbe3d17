import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

const CLOUD_AUTHORIZE_URL = 'https://build.fillout.com/authorize/oauth';
const CLOUD_ACCESS_TOKEN_URL = 'https://server.fillout.com/public/oauth/accessToken';

/**
 * OAuth2 (authorization code). Fillout issues no scopes and no refresh token; the
 * token response's `base_url` is the user's API root, which the node reads from
 * `oauthTokenData`.
 */
export class FilloutFormsOAuth2Api implements ICredentialType {
	name = 'filloutFormsOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Fillout OAuth2 API';

	icon: Icon = { light: 'file:../icons/fillout.svg', dark: 'file:../icons/fillout.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-fillout-forms/n8n-nodes-fillout-forms#oauth2-credential';

	properties: INodeProperties[] = [
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'authorizationCode',
		},
		{
			displayName: 'Server',
			name: 'server',
			type: 'options',
			options: [
				{ name: 'Fillout Cloud', value: 'cloud' },
				{ name: 'Custom (Self-Hosted)', value: 'custom' },
			],
			default: 'cloud',
			description: 'Where the OAuth application is registered',
		},
		{
			displayName: 'Custom Authorization URL',
			name: 'customAuthUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://fillout.example.com/authorize/oauth',
			displayOptions: { show: { server: ['custom'] } },
		},
		{
			displayName: 'Custom Access Token URL',
			name: 'customAccessTokenUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://fillout.example.com/public/oauth/accessToken',
			displayOptions: { show: { server: ['custom'] } },
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'hidden',
			default: `={{ $self.server === "custom" ? $self.customAuthUrl : "${CLOUD_AUTHORIZE_URL}" }}`,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: `={{ $self.server === "custom" ? $self.customAccessTokenUrl : "${CLOUD_ACCESS_TOKEN_URL}" }}`,
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
	];
}
