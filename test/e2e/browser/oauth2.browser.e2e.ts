/**
 * The Fillout OAuth2 credential as a user sets it up, in headless Chromium: the n8n
 * editor's credential dialog (Server: Custom, the sandbox's authorize and token URLs,
 * an OAuth app registered with exactly n8n's redirect URL), Connect, and the sandbox's
 * consent page in the popup n8n opens. Allow (for the EU workspace, whose API address
 * differs from the default) must leave the credential connected and a workflow reading
 * the EU forms; Deny must leave it unconnected, with n8n's error in the popup.
 */
import type { Locator } from 'playwright-core';

import type { Execution } from '../support/n8nClient';
import type { OAuthClientInfo } from '../support/oauth';
import { actionWorkflow, NODE_NAMES, type CredentialRef } from '../support/workflows';
import { connectE2e, unique, type E2eContext } from '../support';
import { launchChromium, type HeadlessBrowser } from './support/chromium';
import {
	chooseOption,
	connectInPopup,
	fillParameter,
	oauthControls,
	openNewCredentialDialog,
	renameCredential,
	saveNewCredential,
	signInThroughForm,
} from './support/editor';

let e2e: E2eContext;
let browser: HeadlessBrowser;
let client: OAuthClientInfo;
let n8nUrl: string;
let callbackUrl: string;
/** The editors of n8n 1.x and 2.x show the OAuth2 state differently (oauthControls). */
let n8nMajorVersion: number;

beforeAll(async () => {
	e2e = await connectE2e();
	n8nUrl = e2e.state.n8n.url;
	n8nMajorVersion = await e2e.n8n.majorVersion();
	callbackUrl = `${n8nUrl}/rest/oauth2-credential/callback`;
	// An app that accepts exactly this n8n's callback (the demo app accepts any local port).
	client = await e2e.sandbox.createOAuthClient({
		name: 'n8n (browser test)',
		redirectUris: [callbackUrl],
	});
	browser = await launchChromium();
	await signInThroughForm(browser.page, n8nUrl, e2e.state.owner);
});

afterAll(async () => {
	await browser?.close();
});

/** Credentials → Create credential → Fillout OAuth2 API, filled in for the sandbox and saved. */
async function newCredentialInEditor(
	label: string,
): Promise<{ dialog: Locator; credential: CredentialRef }> {
	const { page } = browser;
	const name = unique(label);
	const dialog = await openNewCredentialDialog(page, n8nUrl, 'Fillout OAuth2 API');
	await renameCredential(page, dialog, name);
	// The address the user registers at Fillout.
	await expect(dialog.locator('[data-test-id="copy-input"]').innerText()).resolves.toBe(
		callbackUrl,
	);
	await fillParameter(dialog, 'clientId', client.clientId);
	await fillParameter(dialog, 'clientSecret', client.clientSecret);
	await chooseOption(page, dialog, 'server', 'Custom (Self-Hosted)');
	await fillParameter(dialog, 'customAuthUrl', `${e2e.state.sandbox.origin}/authorize/oauth`);
	await fillParameter(
		dialog,
		'customAccessTokenUrl',
		`${e2e.state.sandbox.origin}/public/oauth/accessToken`,
	);
	const id = await saveNewCredential(page, dialog);
	await oauthControls(dialog, n8nMajorVersion).notConnected.waitFor();

	const stored = await e2e.n8n.getCredential(id, { includeData: true });
	expect(stored).toMatchObject({ name, type: 'filloutFormsOAuth2Api' });
	expect(stored.data).toMatchObject({
		server: 'custom',
		customAuthUrl: `${e2e.state.sandbox.origin}/authorize/oauth`,
		customAccessTokenUrl: `${e2e.state.sandbox.origin}/public/oauth/accessToken`,
		clientId: client.clientId,
	});
	expect(stored.data?.oauthTokenData).toBeUndefined();
	return { dialog, credential: { type: 'filloutFormsOAuth2Api', id, name } };
}

async function listForms(credential: CredentialRef): Promise<Execution> {
	return await e2e.n8n.runOnce(
		actionWorkflow({
			name: unique('browser oauth forms'),
			credential,
			parameters: { resource: 'form', operation: 'getMany', returnAll: true },
		}),
	);
}

describe('Fillout OAuth2 credential in the n8n editor (headless Chromium)', () => {
	it('Connect, Allow for the EU workspace: the dialog shows the account connected, n8n holds the token, and a workflow reads the EU forms through its base_url', async () => {
		const { dialog, credential } = await newCredentialInEditor('browser oauth eu');

		const consent = await connectInPopup(browser.context, dialog, {
			account: 'acct_eu',
			decision: 'allow',
			n8nMajorVersion,
		});
		const authorize = new URL(consent.authorizeUrl);
		expect(`${authorize.origin}${authorize.pathname}`).toBe(
			`${e2e.state.sandbox.origin}/authorize/oauth`,
		);
		expect(authorize.searchParams.get('client_id')).toBe(client.clientId);
		expect(authorize.searchParams.get('redirect_uri')).toBe(callbackUrl);
		const callback = new URL(consent.callbackUrl);
		expect(`${callback.origin}${callback.pathname}`).toBe(callbackUrl);
		expect(callback.searchParams.get('code')).toBeTruthy();
		expect(callback.searchParams.get('state')).toBe(authorize.searchParams.get('state'));

		// n8n's callback page reports success to the editor, which closes the popup.
		if (!consent.popup.isClosed()) await consent.popup.waitForEvent('close');
		const { connected, notConnected } = oauthControls(dialog, n8nMajorVersion);
		await connected.waitFor();
		await expect(connected.innerText()).resolves.toContain('Account connected');
		await expect(notConnected.isVisible()).resolves.toBe(false);

		const stored = await e2e.n8n.getCredential(credential.id, {
			includeData: true,
		});
		expect(stored.data?.oauthTokenData).toBe(true);

		const execution = await listForms(credential);
		expect(execution.status).toBe('success');
		const euForms = await e2e.checkEu.forms();
		expect(euForms.length).toBeGreaterThan(0);
		const items = execution.items(NODE_NAMES.fillout);
		expect(items).toEqual(euForms.map(({ formId, name }) => ({ formId, name })));
		const demoIds = (await e2e.checkDemo.forms()).map((form) => form.formId);
		for (const item of items) expect(demoIds).not.toContain(item.formId);
	});

	it('Connect, Deny: the popup shows n8n’s error, the dialog still asks to connect, and no token is stored', async () => {
		const { dialog, credential } = await newCredentialInEditor('browser oauth denied');

		const consent = await connectInPopup(browser.context, dialog, {
			decision: 'deny',
			n8nMajorVersion,
		});
		const callback = new URL(consent.callbackUrl);
		expect(`${callback.origin}${callback.pathname}`).toBe(callbackUrl);
		expect(callback.searchParams.get('error')).toBe('access_denied');
		expect(callback.searchParams.get('code')).toBeNull();

		const { popup } = consent;
		await popup.waitForURL((url) => url.pathname === '/rest/oauth2-credential/callback');
		const message = await popup.locator('body').innerText();
		expect(message).toContain('Insufficient parameters for OAuth2 callback');
		expect(message).toContain('Failed to connect');
		// Under "More details" (collapsed): what the provider answered.
		await expect(popup.locator('details').textContent()).resolves.toContain('access_denied');
		await popup.close();

		// The editor got n8n's "error" message; nothing turns into "connected".
		await browser.page.waitForTimeout(1_500);
		const { connected, notConnected, connectButton } = oauthControls(dialog, n8nMajorVersion);
		await expect(connected.isVisible()).resolves.toBe(false);
		await expect(notConnected.innerText()).resolves.toMatch(/Connect (your|my) account/);
		await expect(connectButton.isVisible()).resolves.toBe(true);

		const stored = await e2e.n8n.getCredential(credential.id, {
			includeData: true,
		});
		expect(stored.data?.oauthTokenData).toBeUndefined();
	});
});
