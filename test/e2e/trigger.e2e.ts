/**
 * The Fillout Trigger in a real n8n: activation registers exactly one webhook at the
 * sandbox; a respondent's submission starts an execution with it; deliveries without
 * the secret are refused; a restart keeps the same webhook, which still delivers;
 * deactivation removes it. With the API key, and with OAuth2 for the EU workspace.
 */
import { createApiKeyCredential, createOAuth2Credential } from './support/credentials';
import { http } from '../support/http';
import { sandboxAccessToken } from './support/oauth';
import { sleep } from './support/processes';
import {
	settledWebhooks as settledWebhooksOf,
	type QuestionSpec,
	type SandboxWebhook,
	type Submission,
} from './support/sandbox';
import {
	formById,
	NODE_NAMES,
	productionWebhookUrl,
	testWebhookUrl,
	triggerWorkflow,
	type CredentialRef,
} from './support/workflows';
import { connectE2e, restartSharedN8n, unique, type E2eContext } from './support';

const QUESTIONS: QuestionSpec[] = [
	{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
	{ id: 'qEmail', name: 'Email', type: 'EmailInput' },
	{ id: 'qScore', name: 'Score', type: 'NumberInput' },
];

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

/** The form's webhooks once they stop changing. */
async function settledWebhooks(formId: string, atLeast = 0): Promise<SandboxWebhook[]> {
	return await settledWebhooksOf(e2e.sandbox, formId, atLeast);
}

async function executionCount(workflowId: string): Promise<number> {
	return (await e2e.n8n.listExecutions({ workflowId })).length;
}

/** The trigger's item of the newest execution, after waiting for the `count`-th one. */
async function newestTriggerItem(workflowId: string, count: number) {
	const [newest] = await e2e.n8n.waitForExecutions(workflowId, count);
	const execution = await e2e.n8n.getExecution(newest.id);
	if (!execution) throw new Error(`execution ${newest.id} vanished`);
	expect(execution.status).toBe('success');
	expect(execution.mode).toBe('webhook');
	expect(execution.items(NODE_NAMES.done)).toEqual(execution.items(NODE_NAMES.trigger));
	return execution.items(NODE_NAMES.trigger);
}

describe('Fillout Trigger with the API key credential', () => {
	let credential: CredentialRef;
	let formId: string;
	let formName: string;
	let workflowId: string;
	const webhookId = crypto.randomUUID();
	let registered: SandboxWebhook;
	let delivered: Submission;

	beforeAll(async () => {
		credential = await createApiKeyCredential(
			e2e.n8n,
			unique('trigger key'),
			e2e.demo.apiKeys[0],
			e2e.state.sandbox.origin,
		);
		formName = unique('e2e trigger form');
		formId = (await e2e.sandbox.createForm({ name: formName, questions: QUESTIONS })).id;
		workflowId = (
			await e2e.n8n.createWorkflow(
				triggerWorkflow({ name: unique('trigger'), credential, formId, webhookId }),
			)
		).id;
	});

	afterAll(async () => {
		// Leave nothing active for other files, even when a test failed half-way.
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	});

	it('activation registers exactly one webhook: n8n’s production address with a secret', async () => {
		expect(await e2e.sandbox.webhooksOf(formId)).toEqual([]);
		const activated = await e2e.n8n.activateWorkflow(workflowId);
		expect(activated.active).toBe(true);

		const webhooks = await settledWebhooks(formId, 1);
		expect(webhooks).toHaveLength(1);
		[registered] = webhooks;
		const address = new URL(registered.url);
		expect(`${address.origin}${address.pathname}`).toBe(
			productionWebhookUrl(e2e.state.n8n.url, webhookId),
		);
		expect(address.searchParams.get('secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(registered.account).toBe('acct_demo');
	});

	it('a respondent’s submission starts one execution with that submission', async () => {
		expect(await executionCount(workflowId)).toBe(0);
		const { submission, deliveries } = await e2e.sandbox.respond(formId, {
			answers: { qName: 'Trigger Tester', qEmail: 'tester@example.com', qScore: 42 },
		});
		delivered = submission;
		expect(deliveries).toEqual([
			expect.objectContaining({ webhookId: registered.id, statusCode: 200 }),
		]);

		const items = await newestTriggerItem(workflowId, 1);
		expect(items).toEqual([
			expect.objectContaining({
				submissionId: submission.submissionId,
				submissionTime: submission.submissionTime,
				Name: 'Trigger Tester',
				Email: 'tester@example.com',
				Score: 42,
				formId,
				formName,
			}),
		]);
		expect(await executionCount(workflowId)).toBe(1);
	});

	it('a delivery without the secret, or with a wrong one, gets 401 and starts nothing', async () => {
		const body = { formId, formName, submission: delivered };
		const bare = productionWebhookUrl(e2e.state.n8n.url, webhookId);
		const withoutSecret = await http('POST', bare, { json: body });
		expect(withoutSecret.status).toBe(401);
		const wrongSecret = await http('POST', `${bare}?secret=${'x'.repeat(43)}`, { json: body });
		expect(wrongSecret.status).toBe(401);

		// The right secret is accepted (the refusals above are about the secret alone).
		await sleep(1_500);
		expect(await executionCount(workflowId)).toBe(1);
		const another = { ...delivered, submissionId: `${delivered.submissionId}-another` };
		const rightSecret = await http('POST', registered.url, {
			json: { ...body, submission: another },
		});
		expect(rightSecret.status).toBe(200);
		await e2e.n8n.waitForExecutions(workflowId, 2);
		// A submission delivered again (as a second registration would) starts nothing.
		const repeat = await http('POST', registered.url, { json: body });
		expect(repeat.status).toBe(200);
		await sleep(1_500);
		expect(await executionCount(workflowId)).toBe(2);
	});

	it.each([
		['restarting', false],
		['killing (a crash) and starting', true],
	])(
		'after %s n8n with the workflow active: the same single webhook, and deliveries still work',
		async (_how, kill) => {
			const before = await executionCount(workflowId);
			const kept = registered;
			await restartSharedN8n(e2e, { kill });
			// The session outlives the restart (same user folder, same signing key).
			expect(await e2e.n8n.hasSession()).toBe(true);

			// The restart keeps the registration: same id, same address and secret.
			const webhooks = await settledWebhooks(formId, 1);
			expect(webhooks).toEqual([expect.objectContaining({ id: kept.id, url: kept.url })]);
			[registered] = webhooks;

			const name = kill ? 'After Crash' : 'After Restart';
			const { submission, deliveries } = await e2e.sandbox.respond(formId, {
				answers: { qName: name },
			});
			expect(deliveries).toEqual([
				expect.objectContaining({ webhookId: registered.id, statusCode: 200 }),
			]);
			const items = await newestTriggerItem(workflowId, before + 1);
			expect(items).toEqual([
				expect.objectContaining({ submissionId: submission.submissionId, Name: name }),
			]);
		},
	);

	it('deactivation removes the webhook; its address then starts nothing', async () => {
		const before = await executionCount(workflowId);
		const deactivated = await e2e.n8n.deactivateWorkflow(workflowId);
		expect(deactivated.active).toBe(false);
		expect(await settledWebhooks(formId)).toEqual([]);

		const late = await http('POST', registered.url, {
			json: { formId, formName, submission: delivered },
		});
		expect(late.status).toBe(404);
		const { deliveries } = await e2e.sandbox.respond(formId, {});
		expect(deliveries).toEqual([]);
		await sleep(1_000);
		expect(await executionCount(workflowId)).toBe(before);
	});
});

describe('Fillout Trigger with the OAuth2 credential (EU workspace)', () => {
	it('registers at the token’s base_url, delivers, and removes its webhook there', async () => {
		const token = await sandboxAccessToken(e2e.state.sandbox.origin, e2e.oauthClient, {
			account: 'acct_eu',
		});
		const credential = await createOAuth2Credential(
			e2e.n8n,
			unique('trigger oauth'),
			e2e.state.sandbox.origin,
			e2e.oauthClient,
			token,
		);
		const formName = unique('e2e EU trigger form');
		const formId = (
			await e2e.sandbox.createForm({ name: formName, accountId: 'acct_eu', questions: QUESTIONS })
		).id;
		const workflowId = (
			await e2e.n8n.createWorkflow(
				triggerWorkflow({ name: unique('trigger eu'), credential, formId, formName }),
			)
		).id;
		try {
			await e2e.n8n.activateWorkflow(workflowId);
			const webhooks = await settledWebhooks(formId, 1);
			expect(webhooks).toEqual([expect.objectContaining({ formId, account: 'acct_eu' })]);

			const { submission, deliveries } = await e2e.sandbox.respond(formId, {
				answers: { qName: 'Europa' },
			});
			expect(deliveries).toEqual([expect.objectContaining({ statusCode: 200 })]);
			const items = await newestTriggerItem(workflowId, 1);
			expect(items).toEqual([
				expect.objectContaining({
					submissionId: submission.submissionId,
					Name: 'Europa',
					formId,
					formName,
				}),
			]);

			// A bare delivery (the documented shape, without formId and formName) reads the same.
			await e2e.sandbox.updateWebhook(webhooks[0].id, { shape: 'bare' });
			const bare = await e2e.sandbox.respond(formId, { answers: { qName: 'Bare' } });
			expect(bare.deliveries).toEqual([
				expect.objectContaining({ shape: 'bare', statusCode: 200 }),
			]);
			expect(await newestTriggerItem(workflowId, 2)).toEqual([
				expect.objectContaining({
					submissionId: bare.submission.submissionId,
					Name: 'Bare',
					formId,
					formName,
				}),
			]);
		} finally {
			await e2e.n8n.deactivateWorkflow(workflowId);
		}
		expect(await settledWebhooks(formId)).toEqual([]);
	});
});

describe('Fillout Trigger: "Listen for test event" beside the active workflow', () => {
	it('registers a second, test webhook, removes it after one event, and leaves the production one alone', async () => {
		const credential = await createApiKeyCredential(
			e2e.n8n,
			unique('trigger test slot'),
			e2e.demo.apiKeys[0],
			e2e.state.sandbox.origin,
		);
		const formId = (
			await e2e.sandbox.createForm({ name: unique('e2e test-slot form'), questions: QUESTIONS })
		).id;
		const webhookId = crypto.randomUUID();
		const workflowId = (
			await e2e.n8n.createWorkflow(
				triggerWorkflow({ name: unique('trigger test slot'), credential, formId, webhookId }),
			)
		).id;
		try {
			await e2e.n8n.activateWorkflow(workflowId);
			const [production] = await settledWebhooks(formId, 1);
			const path = (url: string) => new URL(url).pathname;
			expect(path(production.url)).toBe(path(productionWebhookUrl(e2e.state.n8n.url, webhookId)));

			expect(await e2e.n8n.listenForTestEvent(workflowId, NODE_NAMES.trigger)).toBe(true);
			const both = await settledWebhooks(formId, 2);
			expect(both.map((webhook) => path(webhook.url)).sort()).toEqual(
				[
					path(productionWebhookUrl(e2e.state.n8n.url, webhookId)),
					path(testWebhookUrl(e2e.state.n8n.url, webhookId)),
				].sort(),
			);

			const { submission, deliveries } = await e2e.sandbox.respond(formId, {
				answers: { qName: 'Both Slots' },
			});
			expect(deliveries.map((delivery) => delivery.statusCode)).toEqual([200, 200]);
			const executions = await e2e.n8n.waitForExecutions(workflowId, 2);
			expect(executions.map((execution) => execution.mode).sort()).toEqual(['manual', 'webhook']);
			for (const summary of executions) {
				const execution = await e2e.n8n.getExecution(summary.id);
				expect(execution?.items(NODE_NAMES.trigger)).toEqual([
					expect.objectContaining({ submissionId: submission.submissionId, Name: 'Both Slots' }),
				]);
			}

			// One event ends the test listening: only the production webhook is left.
			expect(await settledWebhooks(formId, 1)).toEqual([
				expect.objectContaining({ id: production.id, url: production.url }),
			]);
		} finally {
			await e2e.n8n.deactivateWorkflow(workflowId);
		}
		expect(await settledWebhooks(formId)).toEqual([]);
	});
});

describe('Fillout Trigger: two workflows on one form, and a form changed while active', () => {
	it('each workflow keeps its own webhook; publishing another form moves only that one', async () => {
		const credential = await createApiKeyCredential(
			e2e.n8n,
			unique('trigger changes'),
			e2e.demo.apiKeys[0],
			e2e.state.sandbox.origin,
		);
		const newForm = async (label: string) =>
			(await e2e.sandbox.createForm({ name: unique(label), questions: QUESTIONS })).id;
		const [shared, other] = [await newForm('e2e shared form'), await newForm('e2e other form')];
		const create = async (label: string) =>
			(
				await e2e.n8n.createWorkflow(
					triggerWorkflow({ name: unique(label), credential, formId: shared }),
				)
			).id;
		const [first, second] = [await create('trigger first'), await create('trigger second')];
		try {
			await e2e.n8n.activateWorkflow(first);
			await e2e.n8n.activateWorkflow(second);
			expect(await settledWebhooks(shared, 2)).toHaveLength(2);

			const both = await e2e.sandbox.respond(shared, { answers: { qName: 'Shared' } });
			expect(both.deliveries.map((delivery) => delivery.statusCode)).toEqual([200, 200]);
			for (const workflowId of [first, second]) {
				expect(await newestTriggerItem(workflowId, 1)).toEqual([
					expect.objectContaining({ submissionId: both.submission.submissionId }),
				]);
			}

			// The first workflow now listens to the other form: save, then publish.
			const saved = await e2e.n8n.getWorkflow(first);
			const nodes = saved.nodes.map((node) =>
				node.name === NODE_NAMES.trigger
					? { ...node, parameters: { ...node.parameters, form: formById(other) } }
					: node,
			);
			const updated = await e2e.n8n.updateWorkflow(first, { nodes });
			await e2e.n8n.activateWorkflow(first, updated.versionId);

			expect(await settledWebhooks(other, 1)).toHaveLength(1);
			const left = await settledWebhooks(shared, 1);
			expect(left).toHaveLength(1);
			const moved = await e2e.sandbox.respond(other, { answers: { qName: 'Moved' } });
			expect(moved.deliveries.map((delivery) => delivery.statusCode)).toEqual([200]);
			expect(await newestTriggerItem(first, 2)).toEqual([
				expect.objectContaining({ submissionId: moved.submission.submissionId, formId: other }),
			]);
			const stayed = await e2e.sandbox.respond(shared, { answers: { qName: 'Stayed' } });
			expect(stayed.deliveries.map((delivery) => delivery.statusCode)).toEqual([200]);
			expect(await newestTriggerItem(second, 2)).toEqual([
				expect.objectContaining({ submissionId: stayed.submission.submissionId, formId: shared }),
			]);
			expect(await executionCount(first)).toBe(2);
		} finally {
			await e2e.n8n.deactivateWorkflow(first);
			await e2e.n8n.deactivateWorkflow(second);
		}
		expect(await settledWebhooks(shared)).toEqual([]);
		expect(await settledWebhooks(other)).toEqual([]);
	});
});
