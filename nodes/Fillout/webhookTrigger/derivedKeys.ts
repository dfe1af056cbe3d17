import type { IExecuteFunctions, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { processMemory } from '../shared/processMemory';
import { credentialTypeOf } from '../transport';
import type { Slot } from './webhookRecord';
import { derivedRecordKey, derivedSecret, secretFingerprint, secretsMatch } from './secret';

type TriggerContext = IExecuteFunctions | IHookFunctions | IWebhookFunctions;

/** One derivation: the webhook secret and the record key. */
export interface KeyPair {
	secret: string;
	recordKey: string;
}

/**
 * What the credential gives one trigger slot: the keys derived from the API key as requests
 * send it (trimmed), and, when the key has spaces around it, the keys from the key as typed,
 * which registrations made by earlier versions carry (docs/trigger-static-data.md).
 */
export interface DerivedKeys extends KeyPair {
	untrimmed?: KeyPair;
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
	const typed =
		credentialType === 'filloutFormsApi' ? credentials.apiKey : credentials.clientSecret;
	// The API key as its credential sends it (`.trim()` in its Authorization header).
	const material =
		credentialType === 'filloutFormsApi' && typeof typed === 'string' ? typed.trim() : typed;
	const workflowId = ctx.getWorkflow().id;
	const nodeId = ctx.getNode().id;
	if (typeof material !== 'string' || material === '' || !workflowId || !nodeId) {
		return undefined;
	}
	const scope = { workflowId, nodeId, slot, formId };
	const pair = (key: string): KeyPair => ({
		secret: derivedSecret(key, scope),
		recordKey: derivedRecordKey(key, scope),
	});
	// Trimming only shortens: a longer key as typed had spaces around it.
	const typedKey = typed as string;
	if (typedKey.length === material.length) return pair(material);
	return { ...pair(material), untrimmed: pair(typedKey) };
}

/** Each derivation the keys hold: the current one first. */
export function derivations(keys: DerivedKeys | undefined): KeyPair[] {
	if (keys === undefined) return [];
	const current = { secret: keys.secret, recordKey: keys.recordKey };
	return keys.untrimmed === undefined ? [current] : [current, keys.untrimmed];
}

/** The derivation whose secret this is (compared in constant time), or undefined. */
export function derivationOf(keys: DerivedKeys | undefined, secret: unknown): KeyPair | undefined {
	const matching = derivations(keys).filter((pair) => secretsMatch(secret, pair.secret));
	return matching[0];
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
