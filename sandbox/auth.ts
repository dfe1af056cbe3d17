/**
 * Bearer authentication as the live service answers it: every credential failure is a 400 with
 * one of three messages, and a key is only valid on its own account's region root.
 */
import { badRequest } from './errors';
import type { SandboxStore } from './store';
import type { Account } from './types';

export const MESSAGE_HEADER_MISSING = 'API authorization header missing';
export const MESSAGE_KEY_INVALID = 'API Key invalid';
export const MESSAGE_KEY_MALFORMED = 'Incorrectly formatted API key was passed';

const KNOWN_PREFIXES = ['sk_prod_', 'fillout_token_'];

/** The bearer value of an Authorization header; '' when absent, undefined when not "Bearer x". */
export function bearerValue(header: string | string[] | undefined): string | undefined {
	const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
	if (value === '') return '';
	const match = /^Bearer\s+(\S+)$/i.exec(value);
	return match ? match[1] : undefined;
}

export function authenticate(
	store: SandboxStore,
	header: string | string[] | undefined,
	basePath: string,
): Account {
	const bearer = bearerValue(header);
	if (bearer === '') throw badRequest(MESSAGE_HEADER_MISSING);
	if (bearer === undefined) throw badRequest(MESSAGE_KEY_MALFORMED);
	const account = store.accountForBearer(bearer);
	// Keys given by the operator are valid whatever they look like; others need a known prefix.
	if (!account && !KNOWN_PREFIXES.some((prefix) => bearer.startsWith(prefix)))
		throw badRequest(MESSAGE_KEY_MALFORMED);
	if (!account || account.basePath !== basePath) throw badRequest(MESSAGE_KEY_INVALID);
	return account;
}
