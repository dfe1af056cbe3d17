import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { credentialTypeOf } from '../transport';
import type { Slot } from './registration';
import { derivedSecret } from './secret';

/**
 * The secret a delivery to this trigger's slot must present, derived from the
 * credential, or undefined when the credential holds no stable secret material (then
 * only the secret in the static-data record can verify deliveries).
 *
 * Material: the API key, or for OAuth2 the client secret (the access token may be
 * refreshed, so it is not stable). Changing the API key or client secret changes the
 * secret: a registration made with the old one is accepted while its record is in
 * static data, and the next activation replaces it (see checkExists).
 */
export async function expectedSecret(
	ctx: IExecuteFunctions | IHookFunctions | IWebhookFunctions,
	slot: Slot,
	formId: string,
): Promise<string | undefined> {
	const credentialType = credentialTypeOf(ctx);
	const credentials = await ctx.getCredentials(credentialType);
	const material =
		credentialType === 'filloutFormsApi' ? credentials.apiKey : credentials.clientSecret;
	const workflowId = ctx.getWorkflow().id;
	const nodeId = ctx.getNode().id;
	if (typeof material !== 'string' || material === '' || !workflowId || !nodeId) {
		return undefined;
	}
	return derivedSecret(material, { workflowId, nodeId, slot, formId });
}
