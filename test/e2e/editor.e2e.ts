/**
 * What the n8n editor asks the nodes while one is open, sent to the real n8n without a
 * browser (`/rest/dynamic-node-parameters/...`): the form list ("From List"), the
 * question columns of Create, and the form's URL parameters, with both credentials.
 */
import { createApiKeyCredential, createOAuth2Credential } from './support/credentials';
import { sandboxAccessToken } from './support/oauth';
import { NODE_TYPES } from './support/paths';
import type { FilloutApi } from './support/sandbox';
import {
	authenticationFor,
	credentialsOf,
	formFromList,
	type CredentialRef,
} from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

interface Case {
	label: string;
	accountId: string;
	setUp(e2e: E2eContext): Promise<{ credential: CredentialRef; check: FilloutApi }>;
}

const cases: Case[] = [
	{
		label: 'the API key credential',
		accountId: 'acct_demo',
		setUp: async (e2e) => ({
			credential: await createApiKeyCredential(
				e2e.n8n,
				unique('editor key'),
				e2e.demo.apiKeys[0],
				e2e.state.sandbox.origin,
			),
			check: e2e.checkDemo,
		}),
	},
	{
		label: 'the OAuth2 credential (EU workspace)',
		accountId: 'acct_eu',
		setUp: async (e2e) => {
			const token = await sandboxAccessToken(e2e.state.sandbox.origin, e2e.oauthClient, {
				account: 'acct_eu',
			});
			return {
				credential: await createOAuth2Credential(
					e2e.n8n,
					unique('editor oauth'),
					e2e.state.sandbox.origin,
					e2e.oauthClient,
					token,
				),
				check: e2e.checkEu,
			};
		},
	},
];

describe.each(cases)('editor requests with $label', ({ accountId, setUp }) => {
	let credential: CredentialRef;
	let check: FilloutApi;
	let formId: string;
	let formName: string;

	beforeAll(async () => {
		({ credential, check } = await setUp(e2e));
		formName = unique('e2e editor form');
		formId = (
			await e2e.sandbox.createForm({
				name: formName,
				accountId,
				questions: [
					{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
					{ id: 'qPlan', name: 'Plan', type: 'Dropdown', options: ['Free', 'Pro'] },
					{ id: 'qOdd', name: 'Hologram', type: 'HologramInput' },
					{ id: 'qWhen', name: 'When', type: 'DatePicker' },
				],
				urlParameters: ['utm_source', 'ref'],
			})
		).id;
	});

	const request = (path: string, methodName: string, parameters: Record<string, unknown>) => ({
		nodeType: NODE_TYPES.action,
		path,
		methodName,
		parameters: { authentication: authenticationFor(credential), ...parameters },
		credentials: credentialsOf(credential),
	});

	/** Submission → Create with the form picked from the list, as the editor holds it. */
	const createParameters = () => ({
		resource: 'submission',
		operation: 'create',
		form: formFromList(formId, formName),
	});

	it('"From List": every form of the workspace, and a search by name', async () => {
		const all = await e2e.n8n.listSearch(
			request('parameters.form', 'searchForms', { resource: 'form', operation: 'get' }),
		);
		expect(all.results.map((result) => result.value)).toEqual(
			(await check.forms()).map((form) => form.formId),
		);
		expect(all.results).toContainEqual({
			name: formName,
			value: formId,
			url: `https://build.fillout.com/editor/${formId}`,
		});

		const found = await e2e.n8n.listSearch({
			...request('parameters.form', 'searchForms', { resource: 'form', operation: 'get' }),
			filter: formName.slice(-8).toUpperCase(),
		});
		expect(found.results.map((result) => result.value)).toEqual([formId]);
	});

	it('"From List" in the trigger lists the same forms', async () => {
		const results = await e2e.n8n.listSearch({
			...request('parameters.form', 'searchForms', {}),
			nodeType: NODE_TYPES.trigger,
		});
		expect(results.results.map((result) => result.value)).toEqual(
			(await check.forms()).map((form) => form.formId),
		);
	});

	it('Create’s answer columns: one per known question, choices as options', async () => {
		const columns = await e2e.n8n.resourceMapperFields(
			request('parameters.columns', 'getQuestionColumns', createParameters()),
		);
		expect(columns.fields.map((field) => field.id)).toEqual(['qName', 'qPlan', 'qWhen']);
		expect(columns.fields.find((field) => field.id === 'qPlan')).toMatchObject({
			type: 'options',
			options: [
				{ name: 'Free', value: 'Free' },
				{ name: 'Pro', value: 'Pro' },
			],
		});
	});

	it('the form’s URL parameters as options', async () => {
		const options = await e2e.n8n.loadOptions(
			request(
				'parameters.additionalFields.urlParameters.parameter.id',
				'getUrlParameters',
				createParameters(),
			),
		);
		const metadata = await check.form(formId);
		expect(options).toEqual(
			(metadata.urlParameters as Array<{ id: string; name: string }>).map((parameter) => ({
				name: parameter.name,
				value: parameter.id,
			})),
		);
		expect(options.map((option) => option.name)).toEqual(['utm_source', 'ref']);
	});
});
