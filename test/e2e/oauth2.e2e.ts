/**
 * "Connect my account" for the Fillout OAuth2 credential, driven over HTTP instead of a
 * browser: n8n builds the authorize address, the sandbox's consent page is answered,
 * and n8n's own callback exchanges the code at the sandbox's token URL (n8n's real
 * token request) and stores the token with its `base_url`.
 */
import { createOAuth2Credential } from './support/credentials';
import type { Execution } from './support/n8nClient';
import { connectOAuth2Credential } from './support/oauth';
import { actionWorkflow, formById, NODE_NAMES, type CredentialRef } from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

async function newCredential(label: string): Promise<CredentialRef> {
	return await createOAuth2Credential(
		e2e.n8n,
		unique(label),
		e2e.state.sandbox.origin,
		e2e.oauthClient,
	);
}

async function listForms(credential: CredentialRef): Promise<Execution> {
	return await e2e.n8n.runOnce(
		actionWorkflow({
			name: unique('oauth forms'),
			credential,
			parameters: { resource: 'form', operation: 'getMany', returnAll: true },
		}),
	);
}

describe('Fillout OAuth2 credential connected through n8n’s callback', () => {
	it('n8n sends the user to the sandbox’s authorize page with its callback as redirect_uri', async () => {
		const credential = await newCredential('oauth address');
		const authorizeUrl = new URL(await e2e.n8n.oauth2AuthorizeUrl(credential.id));
		expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(
			`${e2e.state.sandbox.origin}/authorize/oauth`,
		);
		expect(authorizeUrl.searchParams.get('client_id')).toBe(e2e.oauthClient.clientId);
		expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(
			`${e2e.state.n8n.url}/rest/oauth2-credential/callback`,
		);
		expect(authorizeUrl.searchParams.get('response_type')).toBe('code');
		expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
	});

	it('Allow for the EU workspace: n8n stores the token, and the node uses its base_url', async () => {
		const credential = await newCredential('oauth eu');
		const outcome = await connectOAuth2Credential(e2e.n8n, credential.id, {
			account: 'acct_eu',
		});
		expect(outcome.consent.code).toBeTruthy();
		expect(outcome.consent.state).toBe(new URL(outcome.authorizeUrl).searchParams.get('state'));
		expect(outcome.callback.status).toBe(200);
		expect(outcome.callback.html).toContain('Connection successful');

		const stored = await e2e.n8n.getCredential(credential.id, { includeData: true });
		expect(stored.data?.oauthTokenData).toBe(true);

		const execution = await listForms(credential);
		expect(execution.status).toBe('success');
		const forms = await e2e.checkEu.forms();
		expect(execution.items(NODE_NAMES.fillout)).toEqual(
			forms.map(({ formId, name }) => ({ formId, name })),
		);

		// Submissions of a seeded EU form, all of them.
		const [seeded] = e2e.eu.forms;
		const submissions = await e2e.n8n.runOnce(
			actionWorkflow({
				name: unique('oauth eu submissions'),
				credential,
				parameters: {
					resource: 'submission',
					operation: 'getMany',
					form: formById(seeded.formId),
					returnAll: true,
				},
			}),
		);
		expect(submissions.status).toBe('success');
		const expected = await e2e.checkEu.allSubmissions(seeded.formId);
		expect(submissions.items(NODE_NAMES.fillout).map((item) => item.submissionId)).toEqual(
			expected.map((submission) => submission.submissionId),
		);
	});

	it('Allow for the preselected (demo) workspace: the same credential settings reach the demo forms', async () => {
		const credential = await newCredential('oauth demo');
		const outcome = await connectOAuth2Credential(e2e.n8n, credential.id);
		expect(outcome.callback.html).toContain('Connection successful');

		const execution = await listForms(credential);
		expect(execution.status).toBe('success');
		const ids = execution.items(NODE_NAMES.fillout).map((item) => item.formId);
		expect(ids).toEqual((await e2e.checkDemo.forms()).map((form) => form.formId));
		for (const form of e2e.eu.forms) expect(ids).not.toContain(form.formId);
	});

	it('Deny: nothing is stored, and the node says the credential is not connected', async () => {
		const credential = await newCredential('oauth denied');
		const outcome = await connectOAuth2Credential(e2e.n8n, credential.id, { decision: 'deny' });
		expect(outcome.consent.error).toBe('access_denied');
		expect(outcome.consent.code).toBeUndefined();
		expect(outcome.callback.html).toContain('Insufficient parameters for OAuth2 callback');
		expect(outcome.callback.html).not.toContain('Connection successful');

		const stored = await e2e.n8n.getCredential(credential.id, { includeData: true });
		expect(stored.data?.oauthTokenData).toBeUndefined();

		const execution = await listForms(credential);
		expect(execution.status).toBe('error');
		expect(execution.error?.message).toBe(
			'The Fillout OAuth2 connection has no API address (base_url)',
		);
	});
});
