import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Fillout signs nothing, so the registered address carries a secret every delivery must
 * present, derived from the credential so that any n8n process can verify a delivery
 * without static data (docs/trigger-static-data.md).
 */

/** The query parameter that carries the secret. */
export const SECRET_PARAMETER = 'secret';

/** 32 random bytes as base64url: 43 characters from [A-Za-z0-9_-]. */
export function newSecret(): string {
	return randomBytes(32).toString('base64url');
}

/** What a derived secret is bound to: one trigger node, one slot, one form. */
export interface SecretScope {
	workflowId: string;
	nodeId: string;
	/** 'production' or 'test': the test registration never opens the production door. */
	slot: string;
	formId: string;
}

/**
 * The secret for one trigger: HMAC-SHA256 keyed with the credential's secret over a
 * versioned label and the scope (the form included), as base64url (43 characters).
 */
export function derivedSecret(material: string, scope: SecretScope): string {
	return scopedHmac(material, 'trigger-secret/v1', scope);
}

/** The key that signs the record on a delivery's first item (signedRecord.ts); not the secret. */
export function derivedRecordKey(material: string, scope: SecretScope): string {
	// Labels keep their first names: another would change every secret and signature.
	return scopedHmac(material, 'carried-record-key/v1', scope);
}

/** An HMAC-SHA256 of `content` keyed with a derived record key, as base64url. */
export function recordSignature(recordKey: string, content: string): string {
	return createHmac('sha256', recordKey).update(content, 'utf8').digest('base64url');
}

function scopedHmac(material: string, label: string, scope: SecretScope): string {
	// JSON keeps the fields apart whatever characters they hold.
	const message = JSON.stringify([
		`n8n-nodes-fillout-forms/${label}`,
		scope.workflowId,
		scope.nodeId,
		scope.slot,
		scope.formId,
	]);
	return createHmac('sha256', material).update(message, 'utf8').digest('base64url');
}

/** The webhook address with the secret added as a query parameter. */
export function addressWithSecret(webhookUrl: string, secret: string): string {
	const url = new URL(webhookUrl);
	url.searchParams.set(SECRET_PARAMETER, secret);
	return url.toString();
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

/** A fingerprint of a secret (SHA-256, base64url) that names it without revealing it. */
export function secretFingerprint(secret: string): string {
	return digest(secret).toString('base64url');
}

/**
 * Whether the presented secret is the expected one, in time that depends on neither
 * (both sides are hashed to 32 bytes first, so even their lengths do not show). Only
 * strings count: a missing, repeated (array) or empty value never matches.
 */
export function secretsMatch(presented: unknown, expected: unknown): boolean {
	if (typeof presented !== 'string' || typeof expected !== 'string' || expected === '') {
		return false;
	}
	const same = timingSafeEqual(digest(presented), digest(expected));
	return same && presented.length === expected.length;
}
