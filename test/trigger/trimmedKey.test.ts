/**
 * The derived secret comes from the API key as requests send it: trimmed (the credential's
 * Authorization header is `String(apiKey).trim()`). A webhook registered before, with a
 * secret derived from the key as typed (spaces and all), keeps working. And the derived
 * keys a long-lived process caches follow a change of the key. Against the sandbox, with
 * expected secrets computed here from the documented derivation.
 */
import { createHmac } from 'node:crypto';

import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import { SIGNED_RECORD_KEY } from '../../nodes/Fillout/webhookTrigger/signedRecord';
import { runAsWorker, type TriggerHarness } from '../harness';
import { apiClient, freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	n8nLogger,
	NODE_NAME,
	secretIn,
	slots,
	useTriggerSandbox,
	webhooksOf,
} from './support';

const NEW_KEY = 'sk_prod_trimmed_key_tests_second';
const OAUTH_TOKEN = 'fillout_token_trimmed_key_tests';
const env = useTriggerSandbox({ apiKeys: [NEW_KEY, OAUTH_TOKEN] });
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const NODE_ID = 'trigger-under-test';
const NODE_KEY = `node:${NODE_NAME}`;

/** docs/trigger-static-data.md: HMAC-SHA256(key, JSON [label, workflow, node, slot, form]). */
function documentedSecret(key: string, workflowId: string, formId: string): string {
	const message = JSON.stringify([
		'n8n-nodes-fillout-forms/trigger-secret/v1',
		workflowId,
		NODE_ID,
		'production',
		formId,
	]);
	return createHmac('sha256', key).update(message, 'utf8').digest('base64url');
}

const typedKey = () => `  ${h.sandbox.demo.apiKey}\n`;
const withKey = (apiKey: string) => ({
	filloutFormsApi: { apiKey, region: 'custom', baseUrl: h.sandbox.apiRoot },
});
const body = (formId: string, submissionId: string) => ({
	formId,
	submission: { submissionId, questions: [] },
});

function trigger(formId: string, apiKey: string, staticData = {}): TriggerHarness {
	return filloutTrigger(h, formId, instanceUrl, { credentials: withKey(apiKey), staticData });
}

it('a key pasted with spaces derives the secret of the trimmed key: removing the spaces later changes nothing', async () => {
	const formId = await freshForm(h.control);
	const pasted = trigger(formId, typedKey());
	await pasted.activate();
	const [webhook] = await webhooksOf(h, formId);
	const secret = secretIn(webhook.url as string)!;
	expect(secret).toBe(documentedSecret(h.sandbox.demo.apiKey, `workflow-${formId}`, formId));

	// The spaces removed from the key, and the record lost (a worker's overwrite): the
	// secret is derived again from the credential, and it is the same.
	forgetProcessMemory();
	const cleaned = trigger(formId, h.sandbox.demo.apiKey, { global: { count: 1 } });
	jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);
	const delivery = await cleaned.receive({ query: { secret }, body: body(formId, 't1') });
	expect(delivery.res.body).toEqual({ message: 'Workflow was started' });
	expect(delivery.items).toHaveLength(1);
	// And an n8n start keeps it: nothing removed, nothing registered.
	const kept = trigger(formId, h.sandbox.demo.apiKey, pasted.staticData);
	expect(await kept.activate({ activation: 'init' })).toEqual({ existed: true });
	expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([webhook.id]);
});

describe('a webhook registered before, with the secret derived from the key as typed', () => {
	/** What the earlier version registered: the secret of the untrimmed key. */
	async function earlierRegistration(formId: string) {
		const node = trigger(formId, typedKey());
		const url = node.webhookUrl()!;
		const secret = documentedSecret(typedKey(), `workflow-${formId}`, formId);
		const api = apiClient(h.sandbox.apiRoot, h.sandbox.demo.apiKey);
		const res = await api.post('/webhook/create', { formId, url: `${url}?secret=${secret}` });
		expect(res.status).toBe(200);
		const record = {
			webhookId: res.body.id as number,
			formId,
			url,
			secret,
			apiRoot: h.sandbox.apiRoot,
			createdAt: new Date().toISOString(),
		};
		return { record, staticData: { [NODE_KEY]: { production: record } } };
	}

	it('is kept by an n8n start (no removal, no new registration)', async () => {
		const formId = await freshForm(h.control);
		const { record, staticData } = await earlierRegistration(formId);
		const started = trigger(formId, typedKey(), staticData);
		expect(await started.activate({ activation: 'init' })).toEqual({ existed: true });
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([record.webhookId]);
	});

	it('its deliveries are accepted without the record, and its record rides to a worker and is put back', async () => {
		const formId = await freshForm(h.control);
		const { record, staticData } = await earlierRegistration(formId);
		const withRecord = trigger(formId, typedKey(), staticData);
		const carried = await withRecord.receive({
			query: { secret: record.secret },
			body: body(formId, 'e1'),
		});
		expect(carried.items[0][SIGNED_RECORD_KEY]).toBeDefined();
		const run = await runAsWorker(withRecord, carried.items, { counts: true });
		expect(run.saved).toEqual({
			global: { count: 1 },
			[NODE_KEY]: { production: expect.objectContaining({ secret: record.secret }) },
		});

		forgetProcessMemory();
		jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);
		const lost = trigger(formId, typedKey(), { global: { count: 2 } });
		const delivery = await lost.receive({
			query: { secret: record.secret },
			body: body(formId, 'e2'),
		});
		expect(delivery.items).toHaveLength(1);
		// Either derivation, nothing else.
		const wrong = await lost.receive({
			query: { secret: `${record.secret.slice(1)}x` },
			body: body(formId, 'e3'),
		});
		expect(wrong.res.statusCode).toBe(401);
	});
});

it('a long-lived process that cached the keys of one API key derives them again for the webhook of a new key', async () => {
	const formId = await freshForm(h.control);
	const before = trigger(formId, h.sandbox.demo.apiKey);
	await before.activate();
	const oldSecret = slots(before).production!.secret;
	// A webhook processor (never registered anything) signs the record of a delivery: it
	// caches the keys of the old API key.
	forgetProcessMemory();
	const first = await before.receive({ query: { secret: oldSecret }, body: body(formId, 'k1') });
	expect(first.items[0][SIGNED_RECORD_KEY]).toBeDefined();
	const processorMemory = new Map(processMemory.derivedKeys);

	// Another process (the main) re-publishes with a new key of the account.
	processMemory.derivedKeys.clear();
	const after = trigger(formId, NEW_KEY, before.staticData);
	await after.deactivate();
	await after.activate({ activation: 'update' });
	const newSecret = slots(after).production!.secret;
	expect(newSecret).toBe(documentedSecret(NEW_KEY, `workflow-${formId}`, formId));

	// Back in the webhook processor, which still holds the old key's keys.
	processMemory.derivedKeys.clear();
	for (const [key, keys] of processorMemory) processMemory.derivedKeys.set(key, keys);
	const next = await after.receive({ query: { secret: newSecret }, body: body(formId, 'k2') });
	expect(next.items).toHaveLength(1);
	// Signed with the new key's keys: a worker puts it back.
	expect(next.items[0][SIGNED_RECORD_KEY]).toBeDefined();
	const run = await runAsWorker(after, next.items, { counts: true });
	expect(run.saved).toEqual({
		global: { count: 1 },
		[NODE_KEY]: { production: expect.objectContaining({ secret: newSecret }) },
	});
});

it('an OAuth2 client secret derives the secret as typed: only the API key is trimmed (its Authorization header is)', async () => {
	const formId = await freshForm(h.control);
	const clientSecret = '  oauth client secret with spaces \n';
	const oauth = filloutTrigger(h, formId, instanceUrl, {
		parameters: { authentication: 'oAuth2' },
		credentials: {
			filloutFormsOAuth2Api: {
				clientId: 'client-id',
				clientSecret,
				oauthTokenData: { access_token: OAUTH_TOKEN, base_url: h.sandbox.origin },
			},
		},
	});
	await oauth.activate();
	const [webhook] = await webhooksOf(h, formId);
	const secret = secretIn(webhook.url as string)!;
	expect(secret).toBe(documentedSecret(clientSecret, `workflow-${formId}`, formId));
	expect(secret).not.toBe(documentedSecret(clientSecret.trim(), `workflow-${formId}`, formId));
	await oauth.deactivate();
	expect(await webhooksOf(h, formId)).toEqual([]);
});
