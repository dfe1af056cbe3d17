/**
 * The sandbox's OAuth flow driven over plain HTTP, as a browser would: open the
 * consent page, submit its form (Allow or Deny, for a chosen workspace), follow the
 * redirect. Either to get a token directly, or to complete n8n's own "Connect my
 * account" flow through n8n's callback (which makes n8n exchange the code itself).
 */
import { http, httpOk } from '../../support/http';
import type { N8nClient } from './n8nClient';

export interface ConsentOptions {
	/** The workspace chosen in the consent page's account list (default: preselected). */
	account?: string;
	decision?: 'allow' | 'deny';
}

export interface ConsentOutcome {
	/** Where the consent page sent the browser (the redirect_uri with code or error). */
	location: string;
	code?: string;
	state?: string;
	error?: string;
}

function decodeEntities(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;|&#x27;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
	const match = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
	return match ? decodeEntities(match[1]) : undefined;
}

/** The consent page's form: its action and the fields a browser would submit. */
export function parseConsentForm(html: string, pageUrl: string) {
	const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
	if (!form) throw new Error(`no form on the consent page:\n${html.slice(0, 500)}`);
	const action = new URL(attribute(form[0], 'action') ?? pageUrl, pageUrl).toString();
	const fields: Record<string, string> = {};
	for (const input of form[1].match(/<input\b[^>]*>/gi) ?? []) {
		const name = attribute(input, 'name');
		if (name) fields[name] = attribute(input, 'value') ?? '';
	}
	const accounts: string[] = [];
	const select = /<select\b[^>]*name="account"[^>]*>([\s\S]*?)<\/select>/i.exec(form[1]);
	if (select) {
		for (const option of select[1].match(/<option\b[^>]*>/gi) ?? []) {
			const value = attribute(option, 'value');
			if (value === undefined) continue;
			accounts.push(value);
			if (/\sselected\b/i.test(option)) fields.account = value;
		}
	}
	const buttons = (form[1].match(/<button\b[^>]*>/gi) ?? []).map((button) => ({
		id: attribute(button, 'id'),
		name: attribute(button, 'name'),
		value: attribute(button, 'value'),
	}));
	return { action, fields, accounts, buttons };
}

/** Opens the authorize address, submits the consent form, and reads the redirect. */
export async function answerConsent(
	authorizeUrl: string,
	options: ConsentOptions = {},
): Promise<ConsentOutcome> {
	const page = await httpOk<string>('GET', authorizeUrl);
	const form = parseConsentForm(page.text, authorizeUrl);
	const decision = options.decision ?? 'allow';
	const button = form.buttons.find((candidate) => candidate.id === decision);
	if (!button?.name) throw new Error(`the consent page has no #${decision} button`);
	const fields = { ...form.fields, [button.name]: button.value ?? '' };
	if (options.account !== undefined) {
		if (form.accounts.length && !form.accounts.includes(options.account)) {
			throw new Error(
				`the consent page offers no account ${options.account} (${form.accounts.join(', ')})`,
			);
		}
		fields.account = options.account;
	}
	const answer = await http('POST', form.action, { form: fields });
	const location = answer.headers.get('location');
	if (answer.status !== 302 || !location) {
		throw new Error(
			`the consent form answered ${answer.status}, not a redirect: ${answer.text.slice(0, 300)}`,
		);
	}
	const query = new URL(location).searchParams;
	return {
		location,
		code: query.get('code') ?? undefined,
		state: query.get('state') ?? undefined,
		error: query.get('error') ?? undefined,
	};
}

export interface OAuthClientInfo {
	clientId: string;
	clientSecret: string;
}

export interface SandboxToken {
	access_token: string;
	base_url: string;
	[key: string]: unknown;
}

/**
 * A token for the chosen workspace, by the authorization-code flow done over HTTP
 * (consent page, Allow, code from the redirect, exchange at /public/oauth/accessToken).
 */
export async function sandboxAccessToken(
	origin: string,
	client: OAuthClientInfo,
	options: { account?: string; redirectUri?: string } = {},
): Promise<SandboxToken> {
	const redirectUri = options.redirectUri ?? 'http://127.0.0.1:9/e2e/callback';
	const authorize = new URL('/authorize/oauth', origin);
	authorize.searchParams.set('client_id', client.clientId);
	authorize.searchParams.set('redirect_uri', redirectUri);
	authorize.searchParams.set('response_type', 'code');
	authorize.searchParams.set('state', 'e2e');
	const consent = await answerConsent(authorize.toString(), { account: options.account });
	if (!consent.code) throw new Error(`no code in the redirect ${consent.location}`);
	const token = await httpOk<SandboxToken>('POST', `${origin}/public/oauth/accessToken`, {
		json: {
			grant_type: 'authorization_code',
			code: consent.code,
			client_id: client.clientId,
			client_secret: client.clientSecret,
			redirect_uri: redirectUri,
		},
	});
	return token.body;
}

export interface ConnectOutcome {
	/** The address n8n sent the "browser" to. */
	authorizeUrl: string;
	consent: ConsentOutcome;
	/** n8n's callback page. */
	callback: { status: number; html: string };
}

/**
 * n8n's "Connect my account" for a saved OAuth2 credential, without a browser: ask n8n
 * for the authorize address (with its signed `state`), answer the consent page, then
 * call n8n's `/rest/oauth2-credential/callback?code&state` with the session cookie.
 * n8n then exchanges the code at the token URL itself and stores `oauthTokenData`.
 */
export async function connectOAuth2Credential(
	n8n: N8nClient,
	credentialId: string,
	options: ConsentOptions = {},
): Promise<ConnectOutcome> {
	const authorizeUrl = await n8n.oauth2AuthorizeUrl(credentialId);
	const consent = await answerConsent(authorizeUrl, options);
	const callbackUrl = new URL(consent.location);
	const base = new URL(n8n.baseUrl);
	if (callbackUrl.host !== base.host) {
		throw new Error(
			`the consent page redirected to ${consent.location}, not to this n8n (${n8n.baseUrl})`,
		);
	}
	const callback = await n8n.raw<string>('GET', `${callbackUrl.pathname}${callbackUrl.search}`);
	return { authorizeUrl, consent, callback: { status: callback.status, html: callback.text } };
}
