import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Fillout signs nothing, so the address the trigger registers carries a random secret
 * that every delivery must present. The secret lives only in the workflow's static data
 * and in the URL Fillout stores.
 */

/** The query parameter that carries the secret. */
export const SECRET_PARAMETER = 'secret';

/** 32 random bytes as base64url: 43 characters from [A-Za-z0-9_-]. */
export function newSecret(): string {
	return randomBytes(32).toString('base64url');
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
