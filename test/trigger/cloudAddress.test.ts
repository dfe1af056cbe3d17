/**
 * Fillout's cloud cannot call a private n8n address: activation refuses it with a
 * message that says how to set WEBHOOK_URL. Self-hosted and sandbox roots are exempt.
 */
import { NodeOperationError } from 'n8n-workflow';

import { freshForm, useHarness } from '../sandbox/support';
import { filloutTrigger, slots, webhooksOf } from './support';

const OAUTH_TOKEN = 'fillout_token_trigger_tests';

const h = useHarness({ rateLimit: 0, quiet: true, apiKeys: [OAUTH_TOKEN] });

/** Activation's error, or a failure if it succeeded. */
async function activationError(
	...args: Parameters<typeof filloutTrigger>
): Promise<NodeOperationError> {
	const trigger = filloutTrigger(...args);
	const outcome = await trigger.activate().then(
		() => undefined,
		(error: unknown) => error,
	);
	if (!(outcome instanceof NodeOperationError)) {
		throw new Error(`expected a NodeOperationError, got ${String(outcome)}`);
	}
	expect(slots(trigger)).toEqual({});
	return outcome;
}

const cloudKey = (region: string) => ({
	credentials: { filloutFormsApi: { apiKey: 'sk_prod_cloud_key', region } },
});

describe('with Fillout’s cloud', () => {
	it.each(['us', 'eu', 'ca'])(
		'region %s and n8n on localhost: refused, naming WEBHOOK_URL',
		async (region) => {
			const error = await activationError(h, 'formA1', 'http://localhost:5678', cloudKey(region));
			expect(error.message).toBe(
				"Fillout cannot reach n8n's webhook address http://localhost:5678/webhook/0f5e6a4c-8d7b-4e1f-9a2b-3c4d5e6f7a8b/webhook: it is a loopback address, not an address on the internet",
			);
			expect(error.description).toContain('WEBHOOK_URL environment variable');
			expect(error.description).toContain('use the Fillout Polling Trigger instead');
			expect(error.description).toContain('WEBHOOK_URL=https://n8n.example.com/');
		},
	);

	it.each([
		['http://127.0.0.1:5678', 'a loopback address'],
		['http://192.168.1.20:5678', 'a private network address'],
		['http://10.0.0.5', 'a private network address'],
		['http://172.20.0.3:5678', 'a private network address'],
		['http://169.254.1.1', 'a link-local or cloud metadata address'],
		['http://[::1]:5678', 'a loopback address'],
		['http://[fd00::5]:5678', 'a private network address'],
		['http://n8n.local:5678', 'a local network name'],
		['http://n8n:5678', 'a local network name'],
	])('n8n at %s is refused (%s)', async (instanceUrl, reason) => {
		const error = await activationError(h, 'formA1', instanceUrl, cloudKey('us'));
		expect(error.message).toContain(reason);
		expect(error.message).toContain('not an address on the internet');
	});

	it('"Listen for test event" is refused the same way', async () => {
		const trigger = filloutTrigger(h, 'formA1', 'http://localhost:5678', cloudKey('eu'));
		await expect(trigger.activate({ mode: 'manual', activation: 'manual' })).rejects.toThrow(
			/webhook-test\/.* not an address on the internet/,
		);
	});

	it('an OAuth2 connection whose base_url is on fillout.com is refused', async () => {
		const error = await activationError(h, 'formA1', 'http://localhost:5678', {
			parameters: { authentication: 'oAuth2' },
			credentials: {
				filloutFormsOAuth2Api: {
					oauthTokenData: { access_token: OAUTH_TOKEN, base_url: 'https://eu-api.fillout.com' },
				},
			},
		});
		expect(error.message).toContain('not an address on the internet');
	});
});

describe('exempt: a self-hosted or sandbox API root', () => {
	it('an API key with a custom Base URL registers a localhost address', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, 'http://localhost:5678');
		await trigger.activate();
		const [webhook] = await webhooksOf(h, formId);
		expect(webhook.url).toMatch(/^http:\/\/localhost:5678\/webhook\/.+\?secret=/);
		await trigger.deactivate();
	});

	it('an OAuth2 connection whose base_url is not on fillout.com registers it, with the bearer token', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, 'http://127.0.0.1:5678', {
			parameters: { authentication: 'oAuth2' },
			credentials: {
				filloutFormsOAuth2Api: {
					oauthTokenData: { access_token: OAUTH_TOKEN, base_url: h.sandbox.origin },
				},
			},
		});
		await trigger.activate();
		const live = await webhooksOf(h, formId);
		expect(live).toHaveLength(1);
		expect(live[0].url).toMatch(/^http:\/\/127\.0\.0\.1:5678\/webhook\//);
		expect(slots(trigger).production?.apiRoot).toBe(h.sandbox.apiRoot);

		await trigger.deactivate();
		expect(await webhooksOf(h, formId)).toEqual([]);
	});
});
