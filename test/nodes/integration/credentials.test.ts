/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: n8n's own OAuth2 client (a dependency of n8n-core) exchanges the code as the n8n server does */
import { ClientOAuth2 } from '@n8n/client-oauth2';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { jsonStringify } from 'n8n-workflow';

import {
	closedPortUrl,
	createAdditionalData,
	HarnessCredentialsHelper,
	runNode,
	startRecordingServer,
	testCredential,
} from '../../harness';
import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import {
	apiKeyCredentials,
	demoFormId,
	formById,
	jsonOf,
	runFillout,
	setFaults,
	clearFaults,
	useSandbox,
} from './support';

/** Keys as they get pasted: spaces, a line break, no-break spaces, a byte-order mark. */
const PADDINGS: Array<[string, string]> = [
	['', ' '],
	[' ', ''],
	['', '\n'],
	['\t ', ' \r\n'],
	['\u00a0', '\u00a0'],
	['\ufeff', ''],
];
/** One extra key of the demo account per padding: each has its own rate limit. */
const PASTED_KEYS = PADDINGS.map((_, i) => `sk_prod_pasted_${i}`);

const sandbox = useSandbox({ apiKeys: PASTED_KEYS });
const REDIRECT_URI = 'http://localhost:5678/rest/oauth2-credential/callback';

describe('API key credential test', () => {
	it('accepts the right key', async () => {
		const result = await testCredential(
			'filloutFormsApi',
			apiKeyCredentials(sandbox()).filloutFormsApi,
		);
		expect(result.status).toBe('OK');
	});

	it('tells a wrong key apart from an unreachable host', async () => {
		const wrongKey = await testCredential('filloutFormsApi', {
			...apiKeyCredentials(sandbox()).filloutFormsApi,
			apiKey: 'sk_prod_not_a_real_key',
		});
		expect(wrongKey).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Fillout refused the API key/),
		});
		const malformed = await testCredential('filloutFormsApi', {
			...apiKeyCredentials(sandbox()).filloutFormsApi,
			apiKey: 'oops',
		});
		expect(malformed.message).toMatch(/^Fillout refused the API key/);
		const unreachable = await testCredential('filloutFormsApi', {
			apiKey: sandbox().demo.apiKey,
			region: 'custom',
			baseUrl: await closedPortUrl(),
		});
		expect(unreachable.status).toBe('Error');
		expect(unreachable.message).not.toMatch(/refused the API key/);
		expect(unreachable.message).toMatch(/ECONNREFUSED/);
	});

	it('accepts a Base URL with or without /v1/api and a trailing slash', async () => {
		for (const baseUrl of [sandbox().origin, `${sandbox().apiRoot}/`]) {
			const result = await testCredential('filloutFormsApi', {
				apiKey: sandbox().demo.apiKey,
				region: 'custom',
				baseUrl,
			});
			expect(result.status).toBe('OK');
		}
	});
});

describe('API key credential: whitespace pasted around the key or the Base URL', () => {
	const pasted = PADDINGS.map(([before, after], i) => `${before}${PASTED_KEYS[i]}${after}`);

	/** The credential test passes and Form → Get Many lists the sandbox's forms. */
	async function expectWorking(credentials: ICredentialDataDecryptedObject) {
		expect(await testCredential('filloutFormsApi', credentials)).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const result = await runFillout(
			sandbox(),
			{ resource: 'form', operation: 'getMany', returnAll: true },
			{ credentials: { filloutFormsApi: credentials } },
		);
		expect(result.error).toBeUndefined();
		expect(result.items.length).toBeGreaterThan(0);
	}

	it.each(pasted)(
		'a key pasted as %j: the credential test and an operation work',
		async (apiKey) => {
			await expectWorking({ apiKey, region: 'custom', baseUrl: sandbox().origin });
		},
	);

	it('sends exactly "Bearer <key>", from the credential test and from an operation', async () => {
		const server = await startRecordingServer(() => ({ status: 200, body: [] }));
		try {
			for (const [before, after] of PADDINGS) {
				const credentials = {
					apiKey: `${before}sk_prod_key${after}`,
					region: 'custom',
					baseUrl: server.url,
				};
				expect((await testCredential('filloutFormsApi', credentials)).status).toBe('OK');
				const result = await runNode({
					nodeType: Fillout,
					parameters: { resource: 'form', operation: 'getMany', returnAll: true },
					credentials: { filloutFormsApi: credentials },
				});
				expect(result.error).toBeUndefined();
			}
			const sent = server.requests.map((request) => request.headers.authorization);
			expect(sent).toEqual(PADDINGS.flatMap(() => ['Bearer sk_prod_key', 'Bearer sk_prod_key']));
		} finally {
			await server.close();
		}
	});

	it('accepts a Base URL with spaces, a line break and a trailing slash around it', async () => {
		const baseUrl = ` ${sandbox().apiRoot}/ \n`;
		await expectWorking({ apiKey: sandbox().demo.apiKey, region: 'custom', baseUrl });
	});
});

/** The OAuth2 credential's properties as n8n resolves them (defaults, then `$self` expressions). */
async function resolvedOAuth2(
	data: ICredentialDataDecryptedObject,
): Promise<ICredentialDataDecryptedObject> {
	const helper = new HarnessCredentialsHelper({});
	return await helper.applyDefaultsAndOverwrites(
		createAdditionalData({ credentialsHelper: helper }),
		data,
		'filloutFormsOAuth2Api',
		'manual',
	);
}

/** A user allowing access on the consent page, then n8n exchanging the code for a token. */
async function connectOAuth2(accountId: string) {
	const { clientId, clientSecret } = sandbox().demo.oauthClient;
	const consent = await fetch(`${sandbox().origin}/authorize/oauth`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			client_id: clientId,
			redirect_uri: REDIRECT_URI,
			state: 'n8n-state',
			response_type: 'code',
			account: accountId,
			decision: 'allow',
		}).toString(),
		redirect: 'manual',
	});
	expect(consent.status).toBe(302);
	const redirectedTo = consent.headers.get('location') as string;

	const settings = await resolvedOAuth2({
		clientId,
		clientSecret,
		server: 'custom',
		customAuthUrl: `${sandbox().origin}/authorize/oauth`,
		customAccessTokenUrl: `${sandbox().origin}/public/oauth/accessToken`,
	});
	const client = new ClientOAuth2({
		clientId,
		clientSecret,
		accessTokenUri: settings.accessTokenUrl as string,
		authorizationUri: settings.authUrl as string,
		redirectUri: REDIRECT_URI,
		scopes: [],
		authentication: settings.authentication as 'body',
	});
	const token = await client.code.getToken(redirectedTo);
	return { settings, tokenData: token.data as ICredentialDataDecryptedObject };
}

describe('OAuth2 credential', () => {
	it('uses Fillout’s authorize and token addresses by default, custom ones for self-hosted, no scopes, client secret in the body', async () => {
		const cloud = await resolvedOAuth2({ clientId: 'id', clientSecret: 'secret' });
		expect(cloud).toEqual(
			expect.objectContaining({
				grantType: 'authorizationCode',
				authUrl: 'https://build.fillout.com/authorize/oauth',
				accessTokenUrl: 'https://server.fillout.com/public/oauth/accessToken',
				scope: '',
				authQueryParameters: '',
				authentication: 'body',
			}),
		);
		const custom = await resolvedOAuth2({
			clientId: 'id',
			clientSecret: 'secret',
			server: 'custom',
			customAuthUrl: 'https://fillout.example.com/authorize/oauth',
			customAccessTokenUrl: 'https://fillout.example.com/public/oauth/accessToken',
		});
		expect(custom.authUrl).toBe('https://fillout.example.com/authorize/oauth');
		expect(custom.accessTokenUrl).toBe('https://fillout.example.com/public/oauth/accessToken');
	});

	it('connects, and the node uses the token’s base_url (here the EU account’s) + /v1/api', async () => {
		const { settings, tokenData } = await connectOAuth2('acct_eu');
		expect(tokenData.base_url).toBe(`${sandbox().origin}/eu`);
		expect(tokenData.base_url).not.toBe(sandbox().origin);

		const credentials = { filloutFormsOAuth2Api: { ...settings, oauthTokenData: tokenData } };
		const forms = await runFillout(
			sandbox(),
			{ authentication: 'oAuth2', resource: 'form', operation: 'getMany', returnAll: true },
			{ credentials },
		);
		expect(forms.error).toBeUndefined();
		expect(
			jsonOf(forms)
				.map((f) => f.name)
				.sort(),
		).toEqual(['Inscription à l’atelier', 'Kundenzufriedenheit 2024']);

		const euFormId = await demoFormId(sandbox(), 'Kundenzufriedenheit', 'acct_eu');
		const submissions = await runFillout(
			sandbox(),
			{
				authentication: 'oAuth2',
				resource: 'submission',
				operation: 'getMany',
				form: formById(euFormId),
				returnAll: true,
			},
			{ credentials },
		);
		const direct = await fetch(
			`${tokenData.base_url}/v1/api/forms/${euFormId}/submissions?limit=150`,
			{
				headers: { authorization: `Bearer ${tokenData.access_token}` },
			},
		);
		const { responses } = (await direct.json()) as { responses: Array<{ submissionId: string }> };
		expect(responses.length).toBeGreaterThan(0);
		expect(jsonOf(submissions).map((s) => s.submissionId)).toEqual(
			responses.map((s) => s.submissionId),
		);
	});

	it('explains a connection without base_url', async () => {
		const result = await runFillout(
			sandbox(),
			{ authentication: 'oAuth2', resource: 'form', operation: 'getMany', returnAll: true },
			{
				credentials: {
					filloutFormsOAuth2Api: { oauthTokenData: { access_token: 'fillout_token_x' } },
				},
			},
		);
		expect(result.error?.message).toBe(
			'The Fillout OAuth2 connection has no API address (base_url)',
		);
	});
});

describe('Keys and tokens never appear in errors', () => {
	afterEach(async () => await clearFaults(sandbox()));

	const serialized = (value: unknown) => jsonStringify(value, { replaceCircularRefs: true });

	it('a wrong API key is "Fillout refused the credentials", and the key is nowhere in the run', async () => {
		const rejected = 'sk_prod_ThisKeyIsWrongAndSecret123';
		const result = await runFillout(
			sandbox(),
			{ resource: 'form', operation: 'getMany', returnAll: true },
			{ credentials: apiKeyCredentials(sandbox(), rejected) },
		);
		expect(result.error?.message).toBe('Fillout refused the credentials');
		expect(result.error?.description).toContain('API Key invalid');
		expect(serialized(result.run)).not.toContain(rejected);
		expect(serialized(result.error)).not.toContain('ThisKeyIsWrong');
	});

	it.each([
		['a 500 after retries', { failNext: { count: 4, status: 500 } }],
		['a dropped connection after retries', { dropNext: { count: 4 } }],
		['a 404', {}],
	])('%s', async (_, faults) => {
		await setFaults(sandbox(), faults);
		const formId = await demoFormId(sandbox(), 'Customer Feedback');
		const result = await runFillout(
			sandbox(),
			{ resource: 'submission', operation: 'get', form: formById(formId), submissionId: 'missing' },
			{ continueOnFail: true },
		);
		expect(result.items[0].json.error).toEqual(expect.any(String));
		for (const text of [serialized(result.run), serialized(result.items)]) {
			expect(text).not.toContain(sandbox().demo.apiKey);
			expect(text).not.toMatch(/Bearer /);
		}
	});

	it('an OAuth2 token does not appear either', async () => {
		const { settings, tokenData } = await connectOAuth2('acct_demo');
		await setFaults(sandbox(), { failNext: { count: 4, status: 503 } });
		const result = await runFillout(
			sandbox(),
			{ authentication: 'oAuth2', resource: 'form', operation: 'getMany', returnAll: true },
			{ credentials: { filloutFormsOAuth2Api: { ...settings, oauthTokenData: tokenData } } },
		);
		expect(result.error?.message).toBe('Fillout failed to process the request (HTTP 503)');
		expect(serialized(result.run)).not.toContain(String(tokenData.access_token));
	});
});
