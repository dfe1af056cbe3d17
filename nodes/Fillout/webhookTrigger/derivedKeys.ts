import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { credentialTypeOf } from '../transport';
import type { Slot } from './webhookRecord';
import { derivedRecordKey, derivedSecret, secretFingerprint } from './secret';

type TriggerContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions;

/** What the credential gives one trigger slot: the webhook secret and the record key. */
export interface TriggerKeys {
	secret: string;
	recordKey: string;
}

/**
 * The keys derived from the credential for this trigger's slot and form, or undefined
 * when the credential holds no stable secret material (then only the secret in the
 * static-data record can verify deliveries). Reads the credential every time.
 *
 * Material: the API key, or for OAuth2 the client secret (the access token may be
 * refreshed, so it is not stable). Changing the API key or client secret changes the
 * secret: a registration made with the old one is accepted while its record is in
 * static data, and the next activation replaces it (see checkExists).
 */
export async function derivedKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
): Promise<TriggerKeys | undefined> {
	const credentialType = credentialTypeOf(ctx);
	const credentials = await ctx.getCredentials(credentialType);
	const material =
		credentialType === 'filloutFormsApi' ? credentials.apiKey : credentials.clientSecret;
	const workflowId = ctx.getWorkflow().id;
	const nodeId = ctx.getNode().id;
	if (typeof material !== 'string' || material === '' || !workflowId || !nodeId) {
		return undefined;
	}
	const scope = { workflowId, nodeId, slot, formId };
	return { secret: derivedSecret(material, scope), recordKey: derivedRecordKey(material, scope) };
}

/** The secret a delivery to this slot must present, derived from the credential (a read). */
export async function expectedSecret(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
): Promise<string | undefined> {
	return (await derivedKeys(ctx, slot, formId))?.secret;
}

/**
 * Keys this process derived, by trigger slot, form and the fingerprint of the secret
 * the caller holds (a record's, or '' for none). One credential read fills an entry and
 * concurrent callers share it. An entry never goes wrong: it says what the credential
 * gave when that secret was current, and a new registration (a new record secret) is a
 * new entry, so a changed key is read again. Bounded; emptied when full.
 */
const known = new Map<string, Promise<TriggerKeys | undefined>>();
const KNOWN_ENTRIES = 1_000;

function entryKey(ctx: TriggerContext, slot: Slot, formId: string, fingerprint: string): string {
	return JSON.stringify([ctx.getWorkflow().id, ctx.getNode().id, slot, formId, fingerprint]);
}

/** The derived keys, read from the credential only when this process has none for them. */
export async function knownKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
	fingerprint: string,
): Promise<TriggerKeys | undefined> {
	const key = entryKey(ctx, slot, formId, fingerprint);
	const cached = known.get(key);
	if (cached !== undefined) return await cached;
	if (known.size >= KNOWN_ENTRIES) known.clear();
	const reading = derivedKeys(ctx, slot, formId);
	known.set(key, reading);
	// A failed read is not kept: the next caller reads again.
	reading.catch(() => known.delete(key));
	return await reading;
}

/** Seeds the entry for a secret this process just derived (a registration it made). */
export function rememberKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
	keys: TriggerKeys,
): void {
	known.set(entryKey(ctx, slot, formId, secretFingerprint(keys.secret)), Promise.resolve(keys));
}

/** Forgets the derived keys, as a restarted process (tests). */
export function forgetDerivedKeys(): void {
	known.clear();
}
