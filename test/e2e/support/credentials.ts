/** The package's two credentials, filled in for the sandbox, and saved in n8n. */
import type { CredentialRecord, N8nClient } from './n8nClient';
import type { SandboxToken } from './oauth';
import type { CredentialRef } from './workflows';

/** `filloutFormsApi` with Region "Custom" pointing at a sandbox (or any Fillout root). */
export function apiKeyCredentialData(apiKey: string, baseUrl: string) {
	return { apiKey, region: 'custom', baseUrl };
}

/** `filloutFormsOAuth2Api` with Server "Custom": the sandbox's authorize and token URLs. */
export function oauth2CredentialData(
	origin: string,
	client: { clientId: string; clientSecret: string },
	oauthTokenData?: SandboxToken,
) {
	return {
		server: 'custom',
		customAuthUrl: `${origin}/authorize/oauth`,
		customAccessTokenUrl: `${origin}/public/oauth/accessToken`,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		...(oauthTokenData ? { oauthTokenData } : {}),
	};
}

function refOf(record: CredentialRecord): CredentialRef {
	return {
		type: record.type as CredentialRef['type'],
		id: record.id,
		name: record.name,
	};
}

export async function createApiKeyCredential(
	n8n: N8nClient,
	name: string,
	apiKey: string,
	baseUrl: string,
): Promise<CredentialRef> {
	return refOf(
		await n8n.createCredential({
			name,
			type: 'filloutFormsApi',
			data: apiKeyCredentialData(apiKey, baseUrl),
		}),
	);
}

/**
 * An OAuth2 credential. With `oauthTokenData` it is connected at once (n8n keeps
 * `oauthTokenData` given on create); without, connect it with `connectOAuth2Credential`.
 */
export async function createOAuth2Credential(
	n8n: N8nClient,
	name: string,
	origin: string,
	client: { clientId: string; clientSecret: string },
	oauthTokenData?: SandboxToken,
): Promise<CredentialRef> {
	return refOf(
		await n8n.createCredential({
			name,
			type: 'filloutFormsOAuth2Api',
			data: oauth2CredentialData(origin, client, oauthTokenData),
		}),
	);
}
