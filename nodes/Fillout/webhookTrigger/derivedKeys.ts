import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { processMemory } from '../shared/processMemory';
import { credentialTypeOf } from '../transport';
import type { Slot } from './webhookRecord';
import { derivedRecordKey, derivedSecret, secretFingerprint } from './secret';

type TriggerContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions;

/** What the credential gives one trigger slot: the webhook secret and the record key. */
export interface DerivedKeys {
	secret: string;
	recordKey: string;
}

/** The cache empties itself when it holds this many entries. */
const MAX_CACHED_KEYS = 1_000;

/**
 * The keys derived from the credential for this slot and form (a credential read), or
 * undefined when it holds no stable secret: the API key, or for OAuth2 the client secret.
 */
export async function readDerivedKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
): Promise<DerivedKeys | undefined> {
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
	return (await readDerivedKeys(ctx, slot, formId))?.secret;
}

/** `fingerprint`: of the secret the caller holds (a record's, or '' for none). */
function cacheKey(ctx: TriggerContext, slot: Slot, formId: string, fingerprint: string): string {
	return JSON.stringify([ctx.getWorkflow().id, ctx.getNode().id, slot, formId, fingerprint]);
}

/**
 * The derived keys, read from the credential once per process and secret held; concurrent
 * callers share the read. A new registration has a new secret, so a changed key is read again.
 */
export async function cachedDerivedKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
	fingerprint: string,
): Promise<DerivedKeys | undefined> {
	const cache = processMemory.derivedKeys;
	const key = cacheKey(ctx, slot, formId, fingerprint);
	const cached = cache.get(key);
	if (cached !== undefined) return await cached;
	if (cache.size >= MAX_CACHED_KEYS) cache.clear();
	const reading = readDerivedKeys(ctx, slot, formId);
	cache.set(key, reading);
	// A failed read is not kept: the next caller reads again.
	reading.catch(() => cache.delete(key));
	return await reading;
}

/** Caches the keys of a secret this process just derived (a registration it made). */
export function cacheDerivedKeys(
	ctx: TriggerContext,
	slot: Slot,
	formId: string,
	keys: DerivedKeys,
): void {
	const key = cacheKey(ctx, slot, formId, secretFingerprint(keys.secret));
	processMemory.derivedKeys.set(key, Promise.resolve(keys));
}
