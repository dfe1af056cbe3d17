/**
 * OAuth 2.0 authorization-code flow on the sandbox origin (not under /v1/api): consent page,
 * code exchange and token invalidation. Tokens never expire (as on the live service) until
 * invalidated; codes are single-use and expire after `codeTtlMs`.
 */
import { randomBytes } from 'node:crypto';
import { bearerValue } from './auth';
import type { Incoming, SandboxContext } from './context';
import { ApiError, badRequest } from './errors';
import { html, json, parseFieldsBody, redirect, type Reply } from './http';
import { consentPage, errorPage } from './pages';
import type { Account, OAuthClient } from './types';

/** Exact match, or prefix match for registered URIs written with a trailing `*`. */
export function redirectAllowed(client: OAuthClient, redirectUri: string): boolean {
	return client.redirectUris.some((allowed) =>
		allowed.endsWith('*') ? redirectUri.startsWith(allowed.slice(0, -1)) : redirectUri === allowed,
	);
}

class ConsentError extends Error {}

interface ConsentRequest {
	client: OAuthClient;
	redirectUri: string;
	state?: string;
	account: Account;
}

/** Checks a consent request; problems are shown as a page, never redirected (the URI may be hostile). */
function checkConsentRequest(
	ctx: SandboxContext,
	fields: Record<string, string | undefined>,
): ConsentRequest {
	const {
		client_id: clientId,
		redirect_uri: redirectUri,
		state,
		account: accountId,
		response_type: responseType,
	} = fields;
	if (!clientId) throw new ConsentError('client_id is missing.');
	const client = ctx.store.oauthClients.get(clientId);
	if (!client) throw new ConsentError(`No OAuth application has the client id "${clientId}".`);
	if (!redirectUri) throw new ConsentError('redirect_uri is missing.');
	if (!redirectAllowed(client, redirectUri)) {
		throw new ConsentError(
			`The redirect_uri "${redirectUri}" is not registered for ${client.name}.`,
		);
	}
	if (responseType !== undefined && responseType !== 'code')
		throw new ConsentError('response_type must be "code".');
	const account = accountId ? ctx.store.accounts.get(accountId) : ctx.store.demoAccount();
	if (!account) throw new ConsentError(`No account has the id "${accountId}".`);
	return { client, redirectUri, state, account };
}

function withQuery(uri: string, params: Record<string, string | undefined>): string {
	const url = new URL(uri);
	for (const [name, value] of Object.entries(params))
		if (value !== undefined) url.searchParams.set(name, value);
	return url.toString();
}

function consentErrorReply(error: unknown): Reply {
	if (error instanceof ConsentError)
		return html(400, errorPage('Authorization failed', error.message));
	throw error;
}

export function showConsent(ctx: SandboxContext, incoming: Incoming): Reply {
	try {
		const request = checkConsentRequest(ctx, Object.fromEntries(incoming.query));
		return html(
			200,
			consentPage({
				client: request.client,
				redirectUri: request.redirectUri,
				state: request.state,
				accounts: [...ctx.store.accounts.values()],
				selectedAccountId: request.account.id,
			}),
		);
	} catch (error) {
		return consentErrorReply(error);
	}
}

/** Forgets codes that can no longer be exchanged, so a long-running sandbox does not collect them. */
function pruneCodes(ctx: SandboxContext): void {
	const now = Date.now();
	for (const [code, record] of ctx.store.authCodes) {
		// Used codes are kept until they would have expired, so reuse still says "already used".
		if (now > record.expiresAtMs + ctx.codeTtlMs) ctx.store.authCodes.delete(code);
	}
}

/** The consent form's POST: Allow issues a code, Deny reports access_denied; both redirect. */
export function decideConsent(ctx: SandboxContext, incoming: Incoming): Reply {
	try {
		const fields = parseFieldsBody(incoming.headers, incoming.bodyText);
		const request = checkConsentRequest(ctx, fields);
		if (fields.decision !== 'allow') {
			return redirect(
				withQuery(request.redirectUri, {
					error: 'access_denied',
					error_description: 'The user denied access to the application',
					state: request.state,
				}),
			);
		}
		const code = randomBytes(24).toString('hex');
		pruneCodes(ctx);
		ctx.store.authCodes.set(code, {
			code,
			clientId: request.client.clientId,
			redirectUri: request.redirectUri,
			accountId: request.account.id,
			expiresAtMs: Date.now() + ctx.codeTtlMs,
			used: false,
		});
		return redirect(withQuery(request.redirectUri, { code, state: request.state }));
	} catch (error) {
		if (error instanceof ApiError)
			return html(error.status, errorPage('Authorization failed', error.message));
		return consentErrorReply(error);
	}
}

function base64OrUndefined(text: string): string | undefined {
	try {
		return new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
	} catch {
		return undefined;
	}
}

/** Client credentials from `Authorization: Basic base64(id:secret)` (RFC 6749 §2.3.1). */
function basicCredentials(header: string | string[] | undefined): { id?: string; secret?: string } {
	const value = Array.isArray(header) ? header[0] : header;
	const match = value ? /^Basic\s+(\S+)$/i.exec(value.trim()) : null;
	if (!match) return {};
	const decoded = base64OrUndefined(match[1]);
	if (decoded === undefined)
		throw badRequest('Authorization: Basic credentials are not valid base64');
	const colon = decoded.indexOf(':');
	if (colon < 0)
		throw badRequest('Authorization: Basic credentials must be client_id:client_secret');
	const decode = (text: string) => {
		try {
			return decodeURIComponent(text.replace(/\+/g, ' '));
		} catch {
			return text;
		}
	};
	return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

/** Accepts JSON (every public client) and form encoding (n8n), and Basic client credentials. */
export function exchangeCode(ctx: SandboxContext, incoming: Incoming): Reply {
	const fields = parseFieldsBody(incoming.headers, incoming.bodyText);
	const basic = basicCredentials(incoming.headers.authorization);
	const clientId = fields.client_id ?? basic.id;
	const clientSecret = fields.client_secret ?? basic.secret;
	if (fields.grant_type !== undefined && fields.grant_type !== 'authorization_code') {
		throw badRequest(`grant_type must be "authorization_code"; got "${fields.grant_type}"`);
	}
	if (!fields.code) throw badRequest('code is required');
	if (!clientId)
		throw badRequest('client_id is required (in the body or as HTTP Basic credentials)');
	const client = ctx.store.oauthClients.get(clientId);
	if (!client || clientSecret !== client.clientSecret)
		throw new ApiError(401, 'Invalid client credentials');
	const code = ctx.store.authCodes.get(fields.code);
	if (!code || code.clientId !== client.clientId) throw badRequest('Invalid authorization code');
	if (code.used) throw badRequest('Authorization code has already been used');
	if (Date.now() > code.expiresAtMs) throw badRequest('Authorization code has expired');
	if (!fields.redirect_uri) throw badRequest('redirect_uri is required');
	if (fields.redirect_uri !== code.redirectUri)
		throw badRequest('redirect_uri does not match the one used to obtain the code');
	const account = ctx.store.accounts.get(code.accountId);
	if (!account) throw badRequest('The account that granted this code no longer exists');
	code.used = true;
	const token = `fillout_token_${randomBytes(24).toString('hex')}`;
	ctx.store.accessTokens.set(token, {
		token,
		accountId: account.id,
		clientId: client.clientId,
		createdAt: new Date().toISOString(),
	});
	ctx.store.changed();
	// Exactly these two fields: no token_type, expires_in or refresh_token on the live service.
	return json(200, { access_token: token, base_url: `${incoming.origin}${account.basePath}` });
}

/** The live endpoint reads the token from a header named `Authentication` (sic). */
export function invalidateToken(ctx: SandboxContext, incoming: Incoming): Reply {
	const token = bearerValue(incoming.headers.authentication);
	if (!token)
		throw badRequest('Authentication header missing: send "Authentication: Bearer <access token>"');
	if (!ctx.store.accessTokens.delete(token))
		throw new ApiError(401, 'Invalid or already invalidated access token');
	ctx.store.changed();
	return json(200, {});
}
