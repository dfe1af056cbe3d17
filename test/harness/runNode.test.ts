import { runNode, useRecordingServer } from './index';
import type { ICredentialType, NodeApiError } from 'n8n-workflow';

import { HarnessProbe } from './fixtures/HarnessProbe.node';

const server = useRecordingServer(() => ({ status: 200, body: { ok: true } }));

const apiKeyCredentials = () => ({
	filloutFormsApi: {
		apiKey: 'sk_prod_key',
		region: 'custom',
		baseUrl: `${server.url}/custom-root`,
	},
});

describe('runNode: credentials', () => {
	it('sends Authorization: Bearer <apiKey> to the custom Base URL, once per input item', async () => {
		const result = await runNode({
			nodeType: HarnessProbe,
			credentials: apiKeyCredentials(),
			inputItems: [{ n: 1 }, { n: 2 }, { n: 3 }],
		});

		expect(result.error).toBeUndefined();
		expect(server.requests).toHaveLength(3);
		for (const request of server.requests) {
			expect(request.path).toBe('/custom-root/forms');
			expect(request.headers.authorization).toBe('Bearer sk_prod_key');
		}
		expect(result.items.map((item) => item.json.input)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});

	it('without inputItems the node sees the Manual Trigger’s single empty item', async () => {
		const result = await runNode({
			nodeType: new HarnessProbe(),
			credentials: apiKeyCredentials(),
		});

		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.input).toEqual({});
		expect(Object.keys(result.runData)).toEqual(['Manual Trigger', 'Harness Probe']);
	});

	it('signs OAuth2 requests with oauthTokenData.access_token and reaches base_url', async () => {
		const result = await runNode({
			nodeType: HarnessProbe,
			parameters: { authentication: 'oAuth2', method: 'POST', path: '/forms' },
			credentials: {
				filloutFormsOAuth2Api: {
					clientId: 'client',
					clientSecret: 'secret',
					oauthTokenData: { access_token: 'oauth-token-123', base_url: `${server.url}/oauth-root` },
				},
			},
			inputItems: [{ hello: 'world' }],
		});

		expect(result.error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].method).toBe('POST');
		expect(server.requests[0].path).toBe('/oauth-root/forms');
		expect(server.requests[0].headers.authorization).toBe('Bearer oauth-token-123');
		expect(server.requests[0].json).toEqual({ hello: 'world' });
	});

	it('refuses an OAuth2 credential that was never connected (no oauthTokenData)', async () => {
		const result = await runNode({
			nodeType: HarnessProbe,
			parameters: { authentication: 'oAuth2' },
			credentials: { filloutFormsOAuth2Api: { clientId: 'client', clientSecret: 'secret' } },
		});

		// n8n gives oauthTokenData the default {} (the property it adds to oAuth2Api), so
		// n8n-core's "OAuth credentials not connected" check passes and signing fails instead.
		expect(result.error?.message).toBe('Unable to sign without access token');
		expect(server.requests).toHaveLength(0);
	});

	it('resolves expressions in stored credential data', async () => {
		await runNode({
			nodeType: HarnessProbe,
			credentials: {
				filloutFormsApi: {
					apiKey: '={{ "sk_" + "from_expression" }}',
					region: 'custom',
					baseUrl: server.url,
				},
			},
		});

		expect(server.requests[0].headers.authorization).toBe('Bearer sk_from_expression');
	});
});

describe('runNode: item errors, workflow settings, parameters and versions', () => {
	it('continueOnFail turns a failing item into an error item and keeps the others', async () => {
		server.setHandler((request) =>
			(request.json as { n?: number } | undefined)?.n === 2
				? { status: 500, body: { message: 'boom' } }
				: { status: 200, body: { ok: true } },
		);
		const result = await runNode({
			nodeType: HarnessProbe,
			parameters: { method: 'POST' },
			credentials: apiKeyCredentials(),
			inputItems: [{ n: 1 }, { n: 2 }, { n: 3 }],
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.node.onError).toBe('continueRegularOutput');
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.response).toEqual({ ok: true });
		expect(typeof result.items[1].json.error).toBe('string');
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
		expect(result.items[2].json.response).toEqual({ ok: true });
	});

	it('surfaces the NodeApiError the node throws as `error`, with no items', async () => {
		server.setHandler(() => ({ status: 404, body: { message: 'no such form' } }));
		const result = await runNode({
			nodeType: HarnessProbe,
			credentials: apiKeyCredentials(),
			inputItems: [{ n: 1 }],
		});

		// n8n stores a plain copy of the thrown error, so check its name, not its class.
		expect(result.error?.name).toBe('NodeApiError');
		expect((result.error as NodeApiError).httpCode).toBe('404');
		expect(result.error?.message).toBe('The resource you are requesting could not be found');
		expect(result.error?.description).toBe('no such form');
		expect(result.items).toEqual([]);
	});

	it('this.getTimezone() returns the workflow time zone setting', async () => {
		const tokyo = await runNode({
			nodeType: HarnessProbe,
			credentials: apiKeyCredentials(),
			timezone: 'Asia/Tokyo',
		});
		const fallback = await runNode({ nodeType: HarnessProbe, credentials: apiKeyCredentials() });

		expect(tokyo.items[0].json.timezone).toBe('Asia/Tokyo');
		expect(fallback.items[0].json.timezone).not.toBe('Asia/Tokyo');
	});

	it('takes parameters as the editor saves them (resource locator, resource mapper)', async () => {
		const result = await runNode({
			nodeType: HarnessProbe,
			credentials: apiKeyCredentials(),
			parameters: {
				formId: {
					__rl: true,
					mode: 'list',
					value: 'form-42',
					cachedResultName: 'Signup',
				},
				columns: {
					mappingMode: 'defineBelow',
					value: { q1: '={{ $json.name }}', q2: 'fixed' },
					matchingColumns: [],
					schema: [],
				},
			},
			inputItems: [{ name: 'Ada' }],
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.formId).toBe('form-42');
		expect(result.items[0].json.columns).toEqual({ q1: 'Ada', q2: 'fixed' });
		expect(result.node.parameters.method).toBe('GET');
	});

	it('runs the latest version unless typeVersion says otherwise', async () => {
		const latest = await runNode({ nodeType: HarnessProbe, credentials: apiKeyCredentials() });
		const v1 = await runNode({
			nodeType: HarnessProbe,
			credentials: apiKeyCredentials(),
			typeVersion: 1,
		});

		expect(latest.items[0].json.typeVersion).toBe(2);
		expect(v1.items[0].json.typeVersion).toBe(1);
	});

	it('resolves a generic authenticate block with query-string credentials', async () => {
		class QueryKeyApi implements ICredentialType {
			name = 'filloutFormsApi';
			displayName = 'Query key (test-only stand-in)';
			properties = [
				{
					displayName: 'Key',
					name: 'apiKey',
					type: 'string' as const,
					typeOptions: { password: true },
					default: '',
				},
				{ displayName: 'Base', name: 'baseUrl', type: 'string' as const, default: '' },
			];
			authenticate = {
				type: 'generic' as const,
				properties: { qs: { api_key: '={{$credentials.apiKey}}' } },
			};
		}
		await runNode({
			nodeType: HarnessProbe,
			credentials: { filloutFormsApi: { apiKey: 'qk', baseUrl: server.url } },
			credentialTypes: [new QueryKeyApi()],
		});

		expect(server.requests[0].query).toEqual({ api_key: 'qk' });
		expect(server.requests[0].headers.authorization).toBeUndefined();
	});
});
