/** OAuth 2.0 authorization-code flow: consent page, both token body encodings, Basic auth, codes, invalidation, regions. */
import { apiClient, call, sleep, startHarness, useHarness, type HttpResult } from './support';

const REDIRECT = 'http://localhost:5678/rest/oauth2-credential/callback';

const h = useHarness();

const client = () => h.sandbox.demo.oauthClient;

function authorizeUrl(params: Record<string, string>): string {
	return `${h.sandbox.origin}/authorize/oauth?${new URLSearchParams(params)}`;
}

/** Submits the consent page's own form the way a browser does: its fields plus the clicked button. */
async function decide(
	page: HttpResult,
	decision: 'allow' | 'deny',
	account?: string,
	origin = h.sandbox.origin,
): Promise<URL> {
	const fields: Record<string, string> = {};
	for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
		fields[m[1]] = decodeEntities(m[2]);
	const selected = /<option value="([^"]+)" selected>/.exec(page.text);
	if (selected) fields.account = selected[1];
	if (account) fields.account = account;
	const action = /<form method="post" action="([^"]+)">/.exec(page.text)?.[1];
	expect(action).toBe('/authorize/oauth');
	const res = await call('POST', `${origin}${action}`, { form: { ...fields, decision } });
	expect(res.status).toBe(302);
	return new URL(res.headers.get('location') as string);
}

function decodeEntities(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

async function getCode(
	options: { redirect?: string; state?: string; account?: string } = {},
): Promise<string> {
	const params: Record<string, string> = {
		client_id: client().clientId,
		redirect_uri: options.redirect ?? REDIRECT,
		state: options.state ?? 'xyz',
	};
	const page = await call('GET', authorizeUrl(params));
	expect(page.status).toBe(200);
	const back = await decide(page, 'allow', options.account);
	expect(back.searchParams.get('state')).toBe(params.state);
	return back.searchParams.get('code') as string;
}

const tokenUrl = () => `${h.sandbox.origin}/public/oauth/accessToken`;

function exchangeJson(code: string, overrides: Record<string, string> = {}) {
	return call('POST', tokenUrl(), {
		json: {
			code,
			client_id: client().clientId,
			client_secret: client().clientSecret,
			redirect_uri: REDIRECT,
			...overrides,
		},
	});
}

describe('GET /authorize/oauth', () => {
	it('shows a consent page naming the app, with a real form and #allow / #deny buttons', async () => {
		const res = await call(
			'GET',
			authorizeUrl({ client_id: client().clientId, redirect_uri: REDIRECT, state: 's' }),
		);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(res.text).toContain('n8n (sandbox demo app)');
		expect(res.text).toMatch(/<form method="post" action="\/authorize\/oauth">/);
		expect(res.text).toMatch(/<button type="submit" id="allow"/);
		expect(res.text).toMatch(/<button type="submit" id="deny"/);
		expect(res.text).toContain('<select id="account" name="account">');
	});

	it.each([
		['an unknown client', { client_id: 'nope', redirect_uri: REDIRECT }],
		['a redirect_uri not registered for the client', { redirect_uri: 'https://evil.example/cb' }],
		['a missing redirect_uri', { redirect_uri: '' }],
	])('shows an error page (400), never a redirect, for %s', async (_what, params) => {
		const res = await call('GET', authorizeUrl({ client_id: client().clientId, ...params }));
		expect(res.status).toBe(400);
		expect(res.headers.get('location')).toBeNull();
		expect(res.text).toContain('Authorization failed');
	});

	it('allows registered redirect prefixes (a trailing *)', async () => {
		const code = await getCode({ redirect: 'http://localhost:41234/callback?keep=1' });
		expect(code).toMatch(/^[0-9a-f]{48}$/);
	});
});

describe('Allow and Deny', () => {
	it('Allow redirects with code and the state unchanged, keeping the redirect’s own query', async () => {
		const state = 'a b&c=ü/?';
		const page = await call(
			'GET',
			authorizeUrl({
				client_id: client().clientId,
				redirect_uri: 'http://127.0.0.1:9/cb?keep=1',
				state,
			}),
		);
		const back = await decide(page, 'allow');
		expect(`${back.origin}${back.pathname}`).toBe('http://127.0.0.1:9/cb');
		expect(back.searchParams.get('keep')).toBe('1');
		expect(back.searchParams.get('state')).toBe(state);
		expect(back.searchParams.get('code')).toBeTruthy();
	});

	it('Deny redirects with error=access_denied, a description and the state', async () => {
		const page = await call(
			'GET',
			authorizeUrl({ client_id: client().clientId, redirect_uri: REDIRECT, state: 'st' }),
		);
		const back = await decide(page, 'deny');
		expect(back.searchParams.get('error')).toBe('access_denied');
		expect(back.searchParams.get('error_description')).toBeTruthy();
		expect(back.searchParams.get('state')).toBe('st');
		expect(back.searchParams.get('code')).toBeNull();
	});
});

describe('POST /public/oauth/accessToken', () => {
	it('exchanges a code sent as JSON for exactly {access_token, base_url}', async () => {
		const res = await exchangeJson(await getCode());
		expect(res.status).toBe(200);
		expect(Object.keys(res.body).sort()).toEqual(['access_token', 'base_url']);
		expect(res.body.access_token).toMatch(/^fillout_token_/);
		expect(res.body.base_url).toBe(h.sandbox.origin);
		const api = apiClient(`${res.body.base_url}/v1/api`, res.body.access_token);
		const forms = await api.get('/forms');
		expect(forms.status).toBe(200);
		expect(forms.body.map((f: { formId: string }) => f.formId)).toEqual(h.sandbox.demo.formIds);
	});

	it('accepts the form encoding n8n sends, with grant_type', async () => {
		const res = await call('POST', tokenUrl(), {
			form: {
				grant_type: 'authorization_code',
				code: await getCode(),
				client_id: client().clientId,
				client_secret: client().clientSecret,
				redirect_uri: REDIRECT,
			},
		});
		expect(res.status).toBe(200);
		expect(res.body.access_token).toMatch(/^fillout_token_/);
	});

	it('accepts client credentials as HTTP Basic auth', async () => {
		const basic = btoa(`${client().clientId}:${client().clientSecret}`);
		const res = await call('POST', tokenUrl(), {
			headers: { authorization: `Basic ${basic}` },
			form: { grant_type: 'authorization_code', code: await getCode(), redirect_uri: REDIRECT },
		});
		expect(res.status).toBe(200);
		expect(res.body.access_token).toMatch(/^fillout_token_/);
	});

	it('uses each code once', async () => {
		const code = await getCode();
		expect((await exchangeJson(code)).status).toBe(200);
		const again = await exchangeJson(code);
		expect(again.status).toBe(400);
		expect(again.body).toEqual({
			statusCode: 400,
			error: 'Bad Request',
			message: 'Authorization code has already been used',
		});
	});

	it.each([
		['a wrong secret', { client_secret: 'wrong' }, 401, 'Invalid client credentials'],
		['an unknown client', { client_id: 'someone-else' }, 401, 'Invalid client credentials'],
		[
			'a different redirect_uri',
			{ redirect_uri: 'http://localhost:5678/other' },
			400,
			'redirect_uri does not match the one used to obtain the code',
		],
		['no redirect_uri', { redirect_uri: '' }, 400, 'redirect_uri is required'],
		['an unknown code', { code: 'made-up' }, 400, 'Invalid authorization code'],
		['a missing code', { code: '' }, 400, 'code is required'],
		[
			'another grant_type',
			{ grant_type: 'refresh_token' },
			400,
			'grant_type must be "authorization_code"; got "refresh_token"',
		],
	])('refuses %s', async (_what, overrides, status, message) => {
		const res = await exchangeJson(await getCode(), overrides);
		expect(res.status).toBe(status);
		expect(res.body).toEqual({
			statusCode: status,
			error: status === 401 ? 'Unauthorized' : 'Bad Request',
			message,
		});
	});

	it('refuses an expired code', async () => {
		const short = await startHarness({ codeTtlMs: 100 });
		try {
			const { clientId, clientSecret } = short.sandbox.demo.oauthClient;
			const page = await call(
				'GET',
				`${short.sandbox.origin}/authorize/oauth?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, state: 'e' })}`,
			);
			const code = (await decide(page, 'allow', undefined, short.sandbox.origin)).searchParams.get(
				'code',
			) as string;
			await sleep(150);
			const res = await call('POST', `${short.sandbox.origin}/public/oauth/accessToken`, {
				json: { code, client_id: clientId, client_secret: clientSecret, redirect_uri: REDIRECT },
			});
			expect(res.status).toBe(400);
			expect(res.body.message).toBe('Authorization code has expired');
		} finally {
			await short.sandbox.close();
		}
	});
});

describe('accounts and regions', () => {
	it('authorizes another account chosen on the page; its base_url carries the region root', async () => {
		const res = await exchangeJson(await getCode({ account: 'acct_eu' }));
		expect(res.body.base_url).toBe(`${h.sandbox.origin}/eu`);
		const onEu = await apiClient(`${res.body.base_url}/v1/api`, res.body.access_token).get(
			'/forms',
		);
		expect(onEu.status).toBe(200);
		const euForms = (
			await apiClient(h.sandbox.demo.euApiRoot, h.sandbox.demo.euApiKey).get('/forms')
		).body;
		expect(onEu.body).toEqual(euForms);
		const onUs = await apiClient(h.sandbox.apiRoot, res.body.access_token).get('/forms');
		expect(onUs.body.message).toBe('API Key invalid');
	});

	it('takes the account from the query parameter too', async () => {
		const page = await call(
			'GET',
			authorizeUrl({
				client_id: client().clientId,
				redirect_uri: REDIRECT,
				state: 'q',
				account: 'acct_eu',
			}),
		);
		expect(page.text).toContain('<option value="acct_eu" selected>');
		const code = (await decide(page, 'allow')).searchParams.get('code') as string;
		expect((await exchangeJson(code)).body.base_url).toBe(`${h.sandbox.origin}/eu`);
	});

	it('serves OAuth apps registered through the control API', async () => {
		const app = await h.control.post('/oauth/clients', {
			name: 'My integration',
			redirectUris: ['https://app.example/cb'],
		});
		expect(app.status).toBe(200);
		const page = await call(
			'GET',
			authorizeUrl({
				client_id: app.body.clientId,
				redirect_uri: 'https://app.example/cb',
				state: 'z',
			}),
		);
		expect(page.text).toContain('My integration');
		const code = (await decide(page, 'allow')).searchParams.get('code') as string;
		const res = await call('POST', tokenUrl(), {
			json: {
				code,
				client_id: app.body.clientId,
				client_secret: app.body.clientSecret,
				redirect_uri: 'https://app.example/cb',
			},
		});
		expect(res.status).toBe(200);
	});
});

describe('DELETE /public/oauth/invalidate', () => {
	const invalidateUrl = () => `${h.sandbox.origin}/public/oauth/invalidate`;

	it('invalidates the token named in the Authentication header; the API then refuses it', async () => {
		const token = (await exchangeJson(await getCode())).body.access_token as string;
		const api = apiClient(h.sandbox.apiRoot, token);
		expect((await api.get('/forms')).status).toBe(200);
		const res = await call('DELETE', invalidateUrl(), {
			headers: { authentication: `Bearer ${token}` },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({});
		const after = await api.get('/forms');
		expect(after.status).toBe(400);
		expect(after.body.message).toBe('API Key invalid');
		const again = await call('DELETE', invalidateUrl(), {
			headers: { authentication: `Bearer ${token}` },
		});
		expect(again.status).toBe(401);
		expect(again.body).toEqual({
			statusCode: 401,
			error: 'Unauthorized',
			message: expect.any(String),
		});
	});

	it('reads only the Authentication header', async () => {
		const token = (await exchangeJson(await getCode())).body.access_token as string;
		const res = await call('DELETE', invalidateUrl(), {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(res.status).toBe(400);
		expect(res.body.message).toMatch(/^Authentication header missing/);
		expect((await apiClient(h.sandbox.apiRoot, token).get('/forms')).status).toBe(200);
	});
});
