import {
	HarnessCredentialsHelper,
	OAUTH2_CREDENTIAL_TEST_FAILED,
	OAUTH2_CREDENTIAL_TEST_SUCCEEDED,
	callListSearch,
	callLoadOptions,
	callResourceMapping,
	closedPortUrl,
	createAdditionalData,
	testCredential,
	useRecordingServer,
} from './index';

import { HarnessProbe } from './fixtures/HarnessProbe.node';

const server = useRecordingServer();

const apiKeyCredentials = () => ({
	filloutFormsApi: { apiKey: 'sk_prod_key', region: 'custom', baseUrl: server.url },
});

const form = {
	questions: [
		{ id: 'q1', name: 'Name' },
		{ id: 'q2', name: 'Email' },
		{ id: 'q1', name: 'Name (again)' },
	],
};

describe('editor method helpers', () => {
	it('callListSearch passes filter and pagination token and returns the method’s page', async () => {
		server.setHandler(() => ({
			body: { forms: [{ id: 'f1', name: 'Signup' }], next: '3' },
		}));
		const result = await callListSearch(HarnessProbe, 'searchForms', {
			credentials: apiKeyCredentials(),
			filter: 'sign',
			paginationToken: '2',
		});

		expect(result).toEqual({ results: [{ name: 'Signup', value: 'f1' }], paginationToken: '3' });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].path).toBe('/forms');
		expect(server.requests[0].query).toEqual({ filter: 'sign', page: '2' });
		expect(server.requests[0].headers.authorization).toBe('Bearer sk_prod_key');
	});

	it('callListSearch sees the current parameters (OAuth2 chosen in the editor)', async () => {
		server.setHandler(() => ({ body: { forms: [] } }));
		await callListSearch(HarnessProbe, 'searchForms', {
			parameters: { authentication: 'oAuth2' },
			credentials: {
				filloutFormsOAuth2Api: {
					clientId: 'c',
					clientSecret: 's',
					oauthTokenData: { access_token: 'tok', base_url: `${server.url}/v1/api` },
				},
			},
		});

		expect(server.requests[0].path).toBe('/v1/api/forms');
		expect(server.requests[0].headers.authorization).toBe('Bearer tok');
	});

	it('callLoadOptions reads a resource locator value with getCurrentNodeParameter', async () => {
		server.setHandler(() => ({ body: form }));
		const options = await callLoadOptions(HarnessProbe, 'getQuestions', {
			credentials: apiKeyCredentials(),
			parameters: { formId: { __rl: true, mode: 'id', value: 'abc123' } },
		});

		expect(server.requests[0].path).toBe('/forms/abc123');
		expect(options.map((option) => option.value)).toEqual(['q1', 'q2', 'q1']);
	});

	it('callResourceMapping drops duplicate field ids, as n8n does', async () => {
		server.setHandler(() => ({ body: form }));
		const mapping = await callResourceMapping(HarnessProbe, 'getColumns', {
			credentials: apiKeyCredentials(),
			parameters: { formId: { __rl: true, mode: 'list', value: 'xyz' } },
		});

		expect(server.requests[0].path).toBe('/forms/xyz');
		expect(mapping.fields.map((field) => field.id)).toEqual(['q1', 'q2']);
	});

	it('refuses a method the node does not have', async () => {
		await expect(
			callLoadOptions(HarnessProbe, 'noSuchMethod', { credentials: apiKeyCredentials() }),
		).rejects.toThrow('Node type does not have method defined');
	});
});

describe('testCredential (n8n’s CredentialsTester logic)', () => {
	const data = (baseUrl: string) => ({ apiKey: 'sk_prod_key', region: 'custom', baseUrl });

	it('is OK when the API answers 200, after resolving the baseURL expression', async () => {
		server.setHandler(() => ({ body: [] }));
		const result = await testCredential('filloutFormsApi', data(`${server.url}/`));

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].method).toBe('GET');
		expect(server.requests[0].path).toBe('/v1/api/forms');
		expect(server.requests[0].headers.authorization).toBe('Bearer sk_prod_key');
	});

	it('gives the credential’s own messages for 400 and 404, and the status text otherwise', async () => {
		server.setHandler(() => ({ status: 400, body: { message: 'bad key' } }));
		const badKey = await testCredential('filloutFormsApi', data(server.url));
		server.setHandler(() => ({ status: 404, body: 'not here' }));
		const wrongHost = await testCredential('filloutFormsApi', data(server.url));
		server.setHandler(() => ({ status: 503, body: 'down' }));
		const unavailable = await testCredential('filloutFormsApi', data(server.url));

		expect(badKey.status).toBe('Error');
		expect(badKey.message).toMatch(/refused the API key/);
		expect(wrongHost.status).toBe('Error');
		expect(wrongHost.message).toMatch(/No Fillout API answers at this Base URL/);
		expect(unavailable).toEqual({ status: 'Error', message: 'Service Unavailable' });
	});

	it('reports the network error code for a closed port', async () => {
		const result = await testCredential('filloutFormsApi', data(await closedPortUrl()));

		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it('treats an OAuth2 credential as tested when it holds an access token', async () => {
		const connected = await testCredential('filloutFormsOAuth2Api', {
			oauthTokenData: { access_token: 't' },
		});
		const notConnected = await testCredential('filloutFormsOAuth2Api', {});

		expect(connected).toEqual({ status: 'OK', message: OAUTH2_CREDENTIAL_TEST_SUCCEEDED });
		expect(notConnected).toEqual({ status: 'Error', message: OAUTH2_CREDENTIAL_TEST_FAILED });
	});
});

describe('HarnessCredentialsHelper', () => {
	const decrypt = async (helper: HarnessCredentialsHelper, type: string) =>
		await helper.getDecrypted(
			createAdditionalData({ credentialsHelper: helper }),
			{ id: `${type}-id`, name: type },
			type,
			'internal',
		);

	it('follows extends to oAuth2Api', () => {
		const helper = new HarnessCredentialsHelper();

		expect(helper.getParentTypes('filloutFormsOAuth2Api')).toEqual(['oAuth2Api']);
		expect(helper.getParentTypes('filloutFormsApi')).toEqual([]);
	});

	it('fills OAuth2 defaults and resolves their $self expressions', async () => {
		const helper = new HarnessCredentialsHelper({
			credentials: {
				filloutFormsOAuth2Api: {
					server: 'custom',
					customAuthUrl: 'https://forms.example.com/authorize/oauth',
					customAccessTokenUrl: 'https://forms.example.com/public/oauth/accessToken',
					// A stored value for a hidden field the type owns is ignored, as in n8n.
					authUrl: 'https://attacker.example.com',
					clientId: 'c',
					clientSecret: 's',
				},
			},
		});
		const data = await decrypt(helper, 'filloutFormsOAuth2Api');

		expect(data.authUrl).toBe('https://forms.example.com/authorize/oauth');
		expect(data.accessTokenUrl).toBe('https://forms.example.com/public/oauth/accessToken');
		expect(data.grantType).toBe('authorizationCode');
		expect(data.authentication).toBe('body');
		expect(data.scope).toBe('');
	});

	it('uses the cloud endpoints by default and keeps oauthTokenData', async () => {
		const helper = new HarnessCredentialsHelper({
			credentials: { filloutFormsOAuth2Api: { oauthTokenData: { access_token: 'x' } } },
		});
		const data = await decrypt(helper, 'filloutFormsOAuth2Api');

		expect(data.authUrl).toBe('https://build.fillout.com/authorize/oauth');
		expect(data.accessTokenUrl).toBe('https://server.fillout.com/public/oauth/accessToken');
		expect(data.oauthTokenData).toEqual({ access_token: 'x' });
	});

	it('records token writes and serves them afterwards', async () => {
		const helper = new HarnessCredentialsHelper({
			credentials: { filloutFormsOAuth2Api: { oauthTokenData: { access_token: 'old' } } },
		});
		await helper.updateCredentialsOauthTokenData(
			{ id: 'filloutFormsOAuth2Api-id', name: 'x' },
			'filloutFormsOAuth2Api',
			{ oauthTokenData: { access_token: 'new' } },
			createAdditionalData({ credentialsHelper: helper }),
		);

		expect(helper.writes.map((write) => write.kind)).toEqual(['updateCredentialsOauthTokenData']);
		expect((await decrypt(helper, 'filloutFormsOAuth2Api')).oauthTokenData).toEqual({
			access_token: 'new',
		});
	});
});
