/**
 * Every operation of the Fillout node, in workflows imported into a real n8n and run
 * headlessly, with both credentials: an API key (Custom base URL = the sandbox) and
 * OAuth2 with a token for the sandbox's EU workspace, whose `base_url` differs from the
 * default, so the node must take the API address from the token. Outputs are compared
 * with what the sandbox holds, read through its API with other keys.
 */
import { createApiKeyCredential, createOAuth2Credential } from './support/credentials';
import type { Execution } from './support/n8nClient';
import { sandboxAccessToken } from './support/oauth';
import type { FilloutApi, QuestionSpec, SandboxAccount, Submission } from './support/sandbox';
import {
	actionWorkflow,
	formById,
	formByUrl,
	formFromList,
	NODE_NAMES,
	type CredentialRef,
} from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

const QUESTIONS: QuestionSpec[] = [
	{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
	{ id: 'qEmail', name: 'Email', type: 'EmailInput' },
	{ id: 'qRating', name: 'Rating', type: 'NumberInput' },
	{ id: 'qPlan', name: 'Plan', type: 'MultipleChoice', options: ['Free', 'Pro'] },
	{ id: 'qComments', name: 'Comments', type: 'LongAnswer' },
];

/** Generated submissions on the big form: more than one page of 150. */
const GENERATED = 173;
const STEP_MS = 60_000;

/** The Fillout node's output; fails with n8n's error when the run did not succeed. */
function outputOf(execution: Execution): Array<Record<string, unknown>> {
	if (execution.status !== 'success') {
		throw new Error(
			`execution ${execution.id} ended "${execution.status}": ${JSON.stringify(execution.error ?? {}, null, 1).slice(0, 1500)}`,
		);
	}
	return execution.items(NODE_NAMES.fillout);
}

function answer(submission: Submission, questionId: string): unknown {
	return submission.questions.find((question) => question.id === questionId)?.value;
}

interface Case {
	label: string;
	accountId: string;
	setUp(e2e: E2eContext): Promise<{ credential: CredentialRef; check: FilloutApi; bearer: string }>;
}

const cases: Case[] = [
	{
		label: 'the API key credential (Custom base URL)',
		accountId: 'acct_demo',
		setUp: async (e2e) => {
			const apiKey = e2e.demo.apiKeys[0];
			const credential = await createApiKeyCredential(
				e2e.n8n,
				unique('Fillout API key'),
				apiKey,
				e2e.state.sandbox.origin,
			);
			return { credential, check: e2e.checkDemo, bearer: apiKey };
		},
	},
	{
		label: 'the OAuth2 credential (EU workspace token, base_url from the token)',
		accountId: 'acct_eu',
		setUp: async (e2e) => {
			const token = await sandboxAccessToken(e2e.state.sandbox.origin, e2e.oauthClient, {
				account: 'acct_eu',
			});
			// The premise: this workspace lives under another API address than the default.
			expect(token.base_url).toBe(`${e2e.state.sandbox.origin}/eu`);
			const credential = await createOAuth2Credential(
				e2e.n8n,
				unique('Fillout OAuth2'),
				e2e.state.sandbox.origin,
				e2e.oauthClient,
				token,
			);
			return { credential, check: e2e.checkEu, bearer: token.access_token };
		},
	},
];

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

// What the beforeAll of each credential's describe block sets up, for its tests (jest runs the
// blocks one after the other, so one set of variables serves both).
let credential: CredentialRef;
let check: FilloutApi;
let bearer: string;
let account: SandboxAccount;
let bigFormId: string;
let workFormId: string;
let searchToken: string;
let searchIds: string[];
let inProgressIds: string[];
let generated: {
	submissionIds: string[];
	firstSubmissionTime: string;
	lastSubmissionTime: string;
};

const run = async (
	name: string,
	parameters: Record<string, unknown>,
	inputItems?: Array<Record<string, unknown>>,
	onError?: 'continueRegularOutput',
) =>
	await e2e.n8n.runOnce(
		actionWorkflow({ name: unique(name), credential, parameters, inputItems, onError }),
	);

/** Submission → Get Many on the big form with these parameters; the node's output. */
const listBig = async (name: string, parameters: Record<string, unknown>) =>
	outputOf(
		await run(name, {
			resource: 'submission',
			operation: 'getMany',
			form: formById(bigFormId),
			...parameters,
		}),
	);

describe.each(cases)('Fillout node with $label', ({ accountId, setUp }) => {
	beforeAll(async () => {
		({ credential, check, bearer } = await setUp(e2e));
		account = await e2e.sandbox.account(accountId);

		const big = await e2e.sandbox.createForm({
			name: unique('e2e big form'),
			accountId,
			questions: QUESTIONS,
		});
		bigFormId = big.id;
		generated = await e2e.sandbox.generate(bigFormId, { count: GENERATED, stepMs: STEP_MS });
		searchToken = `needle${Date.now().toString(36)}`;
		searchIds = [];
		for (const name of ['Ada', 'Grace']) {
			const { submission } = await e2e.sandbox.respond(bigFormId, {
				answers: { qName: name, qComments: `Mentions ${searchToken} once` },
			});
			searchIds.push(submission.submissionId);
		}
		inProgressIds = (await e2e.sandbox.generate(bigFormId, { count: 4, status: 'in_progress' }))
			.submissionIds;

		const work = await e2e.sandbox.createForm({
			name: unique('e2e work form'),
			accountId,
			questions: QUESTIONS,
		});
		workFormId = work.id;
		await e2e.sandbox.generate(workFormId, { count: 3 });
	});

	formTests(accountId);
	submissionReadTests();
	submissionWriteTests();
	webhookTests(accountId);
});

function formTests(accountId: string): void {
	describe('form', () => {
		it('getMany, Return All: every form of the workspace, as ID and name', async () => {
			const items = outputOf(
				await run('forms all', { resource: 'form', operation: 'getMany', returnAll: true }),
			);
			const forms = await check.forms();
			expect(items).toEqual(forms.map(({ formId, name }) => ({ formId, name })));
			expect(items.map((item) => item.formId)).toEqual(
				expect.arrayContaining([bigFormId, workFormId, ...account.forms.map((f) => f.formId)]),
			);
			// Only this workspace's forms: none of the other one's.
			const other = e2e.info.accounts.find((candidate) => candidate.id !== accountId);
			for (const form of other?.forms ?? []) {
				expect(items.map((item) => item.formId)).not.toContain(form.formId);
			}
		});

		it('getMany, Limit 2 without Simplify: the first two entries as Fillout lists them', async () => {
			const items = outputOf(
				await run('forms limit', {
					resource: 'form',
					operation: 'getMany',
					returnAll: false,
					limit: 2,
					simplify: false,
				}),
			);
			expect(items).toEqual((await check.forms()).slice(0, 2));
		});

		it('get (form given by its share URL): the form metadata', async () => {
			const items = outputOf(
				await run('form get', {
					resource: 'form',
					operation: 'get',
					form: formByUrl(`https://forms.fillout.com/t/${bigFormId}`),
				}),
			);
			expect(items).toEqual([await check.form(bigFormId)]);
			expect((items[0].questions as unknown[]).length).toBe(QUESTIONS.length);
		});
	});
}

function submissionReadTests(): void {
	describe('submission: get and get many', () => {
		it('getMany, Return All: every finished submission, across pages, in order', async () => {
			const before = (await e2e.sandbox.stats()).byKey[bearer]?.requests ?? {};
			const items = await listBig('submissions all', { returnAll: true });
			const expected = await check.allSubmissions(bigFormId);
			expect(expected).toHaveLength(GENERATED + searchIds.length);
			expect(items).toHaveLength(GENERATED + searchIds.length);
			expect(items.map((item) => item.submissionId)).toEqual(expected.map((s) => s.submissionId));
			expect(items.map((item) => item.submissionId)).not.toEqual(
				expect.arrayContaining([inProgressIds[0]]),
			);
			// Simplified: answers under the question names.
			expect(items[0]).toMatchObject({
				submissionId: expected[0].submissionId,
				submissionTime: expected[0].submissionTime,
				Name: answer(expected[0], 'qName'),
				Email: answer(expected[0], 'qEmail'),
			});
			// More than one page was read (at most 150 per request).
			const after = (await e2e.sandbox.stats()).byKey[bearer]?.requests ?? {};
			const route = 'GET /v1/api/forms/:formId/submissions';
			expect((after[route] ?? 0) - (before[route] ?? 0)).toBeGreaterThanOrEqual(2);
		});

		it('getMany, Limit 7: the seven oldest', async () => {
			const items = await listBig('submissions limit', { returnAll: false, limit: 7 });
			expect(items.map((item) => item.submissionId)).toEqual(generated.submissionIds.slice(0, 7));
		});

		it('getMany, Filters → Search: only the submissions containing the text', async () => {
			const items = await listBig('submissions search', {
				returnAll: true,
				filters: { search: searchToken },
			});
			expect(items.map((item) => item.submissionId).sort()).toEqual([...searchIds].sort());
			expect(items.map((item) => item.Name).sort()).toEqual(['Ada', 'Grace']);
		});

		it('getMany, Filters → Newest First, Limit 3: the three newest, newest first', async () => {
			const items = await listBig('submissions newest', {
				returnAll: false,
				limit: 3,
				filters: { sort: 'desc' },
			});
			const all = await check.allSubmissions(bigFormId);
			expect(items.map((item) => item.submissionId)).toEqual(
				all
					.slice(-3)
					.reverse()
					.map((s) => s.submissionId),
			);
		});

		it('getMany, Filters → Status In Progress and Submitted After', async () => {
			const inProgress = await listBig('submissions in progress', {
				returnAll: true,
				filters: { status: 'in_progress' },
			});
			expect(inProgress.map((item) => item.submissionId).sort()).toEqual([...inProgressIds].sort());

			// Strictly after the 170th generated submission: the last three generated, and the two answered later.
			const boundary = new Date(
				Date.parse(generated.firstSubmissionTime) + 169 * STEP_MS,
			).toISOString();
			const after = await listBig('submissions after', {
				returnAll: true,
				filters: { afterDate: boundary },
			});
			expect(after.map((item) => item.submissionId)).toEqual([
				...generated.submissionIds.slice(170),
				...searchIds,
			]);
		});

		it('get: one submission, simplified and as Fillout returns it', async () => {
			const [id] = generated.submissionIds.slice(-1);
			const expected = await check.submission(bigFormId, id);
			const raw = outputOf(
				await run('submission get raw', {
					resource: 'submission',
					operation: 'get',
					form: formById(bigFormId),
					submissionId: id,
					simplify: false,
				}),
			);
			expect(raw).toEqual([expected]);

			const simple = outputOf(
				await run('submission get', {
					resource: 'submission',
					operation: 'get',
					form: formById(bigFormId),
					submissionId: id,
				}),
			);
			expect(simple).toEqual([
				expect.objectContaining({
					submissionId: id,
					Name: answer(expected as Submission, 'qName'),
					Rating: answer(expected as Submission, 'qRating'),
					Plan: answer(expected as Submission, 'qPlan'),
				}),
			]);
		});

		it('get: an unknown submission fails the run with Fillout’s "not found"', async () => {
			const execution = await run('submission get missing', {
				resource: 'submission',
				operation: 'get',
				form: formById(bigFormId),
				submissionId: 'no-such-submission',
			});
			expect(execution.status).toBe('error');
			expect(execution.error?.message).toMatch(/no-such-submission/);
			expect(execution.error?.message).toMatch(/not found/i);
			expect(execution.error?.httpCode).toBe('404');
		});

		it('get with On Error "Continue": the missing one becomes an error item, the others still come', async () => {
			const [first, last] = [generated.submissionIds[0], generated.submissionIds[GENERATED - 1]];
			const items = outputOf(
				await run(
					'submission get continue',
					{
						resource: 'submission',
						operation: 'get',
						form: formFromList(bigFormId, 'e2e big form'),
						submissionId: '={{ $json.id }}',
					},
					[{ id: first }, { id: 'no-such-submission' }, { id: last }],
					'continueRegularOutput',
				),
			);
			expect(items).toEqual([
				expect.objectContaining({ submissionId: first }),
				expect.objectContaining({ error: expect.stringMatching(/no-such-submission.*not found/i) }),
				expect.objectContaining({ submissionId: last }),
			]);
		});
	});
}

function submissionWriteTests(): void {
	describe('submission: create and delete', () => {
		it('create, mapped automatically: 23 items in requests of at most 10, all stored', async () => {
			const people = Array.from({ length: 23 }, (_, index) => ({
				Name: `Person ${index} ${searchToken}`,
				Email: `person${index}@example.com`,
				Rating: index % 5,
				Plan: index % 2 ? 'Pro' : 'Free',
				Comments: `created by the end-to-end suite (${index})`,
			}));
			const route = 'POST /v1/api/forms/:formId/submissions';
			const before = (await e2e.sandbox.stats()).byKey[bearer]?.requests[route] ?? 0;
			const items = outputOf(
				await run(
					'submissions create',
					{
						resource: 'submission',
						operation: 'create',
						form: formById(workFormId),
						columns: { mappingMode: 'autoMapInputData', value: null },
					},
					people,
				),
			);
			const after = (await e2e.sandbox.stats()).byKey[bearer]?.requests[route] ?? 0;
			expect(after - before).toBe(3);

			expect(items).toHaveLength(people.length);
			const stored = await check.allSubmissions(workFormId);
			const byId = new Map(stored.map((submission) => [submission.submissionId, submission]));
			items.forEach((item, index) => {
				const submission = byId.get(item.submissionId as string);
				expect(submission).toBeDefined();
				expect(answer(submission as Submission, 'qName')).toBe(people[index].Name);
				expect(answer(submission as Submission, 'qEmail')).toBe(people[index].Email);
				expect(answer(submission as Submission, 'qRating')).toBe(people[index].Rating);
				expect(answer(submission as Submission, 'qPlan')).toBe(people[index].Plan);
			});
			expect(stored).toHaveLength(3 + people.length);
		});

		it('create, mapped below with expressions: each item’s answers', async () => {
			const items = outputOf(
				await run(
					'submissions create mapped',
					{
						resource: 'submission',
						operation: 'create',
						form: formById(workFormId),
						columns: {
							mappingMode: 'defineBelow',
							value: {
								qName: '={{ $json.who }}',
								qRating: '={{ $json.stars }}',
							},
							matchingColumns: [],
							schema: [
								{
									id: 'qName',
									displayName: 'Name (ShortAnswer)',
									required: false,
									defaultMatch: false,
									display: true,
									type: 'string',
									canBeUsedToMatch: false,
								},
								{
									id: 'qRating',
									displayName: 'Rating (NumberInput)',
									required: false,
									defaultMatch: false,
									display: true,
									type: 'number',
									canBeUsedToMatch: false,
								},
							],
						},
						additionalFields: { submissionTime: '2024-03-01T10:00:00Z' },
					},
					[
						{ who: 'Mapped One', stars: 4 },
						{ who: 'Mapped Two', stars: 2 },
					],
				),
			);
			expect(items).toHaveLength(2);
			for (const [index, who] of ['Mapped One', 'Mapped Two'].entries()) {
				const stored = await check.submission(workFormId, items[index].submissionId as string);
				expect(answer(stored as Submission, 'qName')).toBe(who);
				expect(answer(stored as Submission, 'qRating')).toBe(index === 0 ? 4 : 2);
				expect(stored?.submissionTime).toBe('2024-03-01T10:00:00.000Z');
			}
		});

		it('delete: each item’s submission is gone from Fillout', async () => {
			const victims = (await check.allSubmissions(workFormId))
				.slice(0, 2)
				.map((s) => s.submissionId);
			const items = outputOf(
				await run(
					'submissions delete',
					{
						resource: 'submission',
						operation: 'delete',
						form: formById(workFormId),
						submissionId: '={{ $json.id }}',
					},
					victims.map((id) => ({ id })),
				),
			);
			expect(items).toEqual(victims.map((submissionId) => ({ deleted: true, submissionId })));
			for (const id of victims)
				await expect(check.submission(workFormId, id)).resolves.toBeUndefined();
		});
	});
}

function webhookTests(accountId: string): void {
	describe('webhook', () => {
		let webhookId: number;
		const url = `https://hooks.example.com/fillout/${Date.now().toString(36)}`;

		it('create: subscribes the address at Fillout', async () => {
			const items = outputOf(
				await run('webhook create', {
					resource: 'webhook',
					operation: 'create',
					form: formById(workFormId),
					url: `${url}/${accountId}`,
				}),
			);
			expect(items).toEqual([{ id: expect.any(Number) }]);
			webhookId = items[0].id as number;
			const registered = await e2e.sandbox.webhooksOf(workFormId);
			expect(registered).toEqual([
				expect.objectContaining({ id: webhookId, url: `${url}/${accountId}`, account: accountId }),
			]);
		});

		it('delete: the webhook is gone at Fillout', async () => {
			expect(webhookId).toBeDefined();
			const items = outputOf(
				await run('webhook delete', {
					resource: 'webhook',
					operation: 'delete',
					webhookId: String(webhookId),
				}),
			);
			expect(items).toEqual([{ deleted: true, webhookId }]);
			expect(await e2e.sandbox.webhooksOf(workFormId)).toEqual([]);
		});
	});
}
