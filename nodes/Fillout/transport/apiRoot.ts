import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Fillout's regional API hosts (docs/fillout-api.md, "Hosts"); the API lives under `/v1/api`. */
export const REGION_HOSTS: Readonly<Record<string, string>> = {
	us: 'https://api.fillout.com',
	eu: 'https://eu-api.fillout.com',
	ca: 'https://ca-api.fillout.com',
};

export const API_PATH = '/v1/api';

/**
 * A base address as users paste it (with or without `/v1/api`, trailing slashes,
 * spaces) turned into the API root. Undefined when it is not an http(s) address.
 */
export function normalizeApiRoot(base: unknown): string | undefined {
	if (typeof base !== 'string') return undefined;
	const trimmed = base.trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) return undefined;
	try {
		new URL(trimmed);
	} catch {
		return undefined;
	}
	return trimmed.endsWith(API_PATH) ? trimmed : `${trimmed}${API_PATH}`;
}

/** The API root for an API-key credential's region (or its custom base URL). */
export function apiRootForRegion(region: unknown, baseUrl: unknown): string | undefined {
	if (region === 'custom') return normalizeApiRoot(baseUrl);
	const host = REGION_HOSTS[typeof region === 'string' && region ? region : 'us'];
	return host === undefined ? undefined : `${host}${API_PATH}`;
}

export type FilloutContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

export type FilloutCredentialType = 'filloutFormsApi' | 'filloutFormsOAuth2Api';

/** The credential the node's "Authentication" parameter selects (API key by default). */
export function credentialTypeOf(ctx: FilloutContext): FilloutCredentialType {
	return ctx.getNode().parameters.authentication === 'oAuth2'
		? 'filloutFormsOAuth2Api'
		: 'filloutFormsApi';
}

/** Where the API lives for this node's credential: region, custom Base URL, or OAuth2 `base_url`. */
export async function resolveApiRoot(ctx: FilloutContext): Promise<string> {
	const credentialType = credentialTypeOf(ctx);
	return apiRootOf(ctx, credentialType, await ctx.getCredentials(credentialType));
}

/** `resolveApiRoot` for a credential already read. */
export function apiRootOf(
	ctx: FilloutContext,
	credentialType: FilloutCredentialType,
	credentials: ICredentialDataDecryptedObject,
): string {
	if (credentialType === 'filloutFormsOAuth2Api') {
		const tokenData = credentials.oauthTokenData as IDataObject | undefined;
		const root = normalizeApiRoot(tokenData?.base_url);
		if (root === undefined) {
			throw new NodeOperationError(
				ctx.getNode(),
				'The Fillout OAuth2 connection has no API address (base_url)',
				{
					description:
						'Fillout returns the account’s API address together with the access token. Reconnect the credential (Connect my account) so that it is stored.',
				},
			);
		}
		return root;
	}
	const root = apiRootForRegion(credentials.region, credentials.baseUrl);
	if (root === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'The Fillout credential has no valid Base URL', {
			description:
				'With the region "Custom (Self-Hosted)" the Base URL must be an http:// or https:// address, such as https://fillout.example.com.',
		});
	}
	return root;
}
