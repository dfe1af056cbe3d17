/**
 * The Fillout Polling Trigger in a real n8n, polling every minute: each submission starts
 * exactly one execution over several poll cycles and a restart of n8n; what was there
 * before the workflow was published starts nothing.
 */
import { createApiKeyCredential } from './support/credentials';
import { sleep, waitFor } from './support/processes';
import { NODE_NAMES, pollingTriggerWorkflow, type CredentialRef } from './support/workflows';
import { connectE2e, restartSharedN8n, unique, type E2eContext } from './support';

const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';
/** n8n's shortest poll interval is a minute; allow for a slow machine. */
const POLL_WAIT_MS = 150_000;

jest.setTimeout(15 * 60_000);

let e2e: E2eContext;
let apiKey: string;
beforeAll(async () => {
	e2e = await connectE2e();
});

/** List requests made with the trigger's own key: one per idle poll. */
async function polls(): Promise<number> {
	const stats = await e2e.sandbox.stats();
	return stats.byKey[apiKey]?.requests[LIST_ROUTE] ?? 0;
}

/** The submission ids of every successful execution of the workflow, one entry per item. */
async function emittedIds(workflowId: string): Promise<string[]> {
	const ids: string[] = [];
	for (const summary of await e2e.n8n.listExecutions({ workflowId })) {
		if (summary.status === 'error') continue;
		const execution = await e2e.n8n.getExecution(summary.id);
		if (!execution) throw new Error(`execution ${summary.id} vanished`);
		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('trigger');
		for (const item of execution.items(NODE_NAMES.pollingTrigger)) {
			ids.push(item.submissionId as string);
		}
	}
	return ids.sort();
}

/** Waits until the executions carry `expected.length` submissions, then checks they are exactly those. */
async function expectEmitted(workflowId: string, expected: string[]): Promise<void> {
	await waitFor(
		async () => ((await emittedIds(workflowId)).length >= expected.length ? true : undefined),
		{ timeoutMs: POLL_WAIT_MS, intervalMs: 1_000, description: `${expected.length} submissions` },
	);
	expect(await emittedIds(workflowId)).toEqual([...expected].sort());
}

/** Waits for the next poll (a list request with the trigger's key). */
async function nextPoll(): Promise<void> {
	const seen = await polls();
	await waitFor(async () => ((await polls()) > seen ? true : undefined), {
		timeoutMs: POLL_WAIT_MS,
		intervalMs: 1_000,
		description: 'one more poll',
	});
	await sleep(2_000);
}

describe('Fillout Polling Trigger, every minute', () => {
	let credential: CredentialRef;
	let formId: string;
	let workflowId: string;
	const made: string[] = [];

	const submit = async () => {
		const { submission } = await e2e.sandbox.respond(formId, {});
		made.push(submission.submissionId);
	};

	beforeAll(async () => {
		const account = await e2e.sandbox.createAccount({ name: unique('polling') });
		apiKey = account.apiKey;
		credential = await createApiKeyCredential(
			e2e.n8n,
			unique('polling key'),
			apiKey,
			e2e.state.sandbox.origin,
		);
		formId = (await e2e.sandbox.createForm({ name: unique('polled form'), accountId: account.id }))
			.id;
		await e2e.sandbox.generate(formId, { count: 3 });
		workflowId = (
			await e2e.n8n.createWorkflow(
				pollingTriggerWorkflow({ name: unique('polling'), credential, formId }),
			)
		).id;
	});

	afterAll(async () => {
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	});

	it('publishing polls once and emits nothing that was already there', async () => {
		expect((await e2e.n8n.activateWorkflow(workflowId)).active).toBe(true);
		await waitFor(async () => ((await polls()) >= 1 ? true : undefined), {
			timeoutMs: 30_000,
			intervalMs: 500,
			description: 'the activation poll',
		});
		expect(await emittedIds(workflowId)).toEqual([]);
	});

	it('two poll cycles: each new submission in exactly one execution', async () => {
		await submit();
		await submit();
		await expectEmitted(workflowId, made);
		// The poll that brings the third must not bring the first two again.
		await submit();
		await expectEmitted(workflowId, made);
	});

	it('a failing poll is a failed execution; the next poll brings what it missed', async () => {
		await submit();
		await e2e.sandbox.setFaults({
			failNext: [
				{
					count: 1,
					method: 'GET',
					pathPattern: '/submissions',
					status: 400,
					body: { statusCode: 400, error: 'Bad Request', message: 'API Key invalid' },
				},
			],
		});
		const [failed] = await waitFor(
			async () => {
				const list = await e2e.n8n.listExecutions({ workflowId });
				const errors = list.filter((execution) => execution.status === 'error');
				return errors.length > 0 ? errors : undefined;
			},
			{ timeoutMs: POLL_WAIT_MS, intervalMs: 1_000, description: 'a failed poll execution' },
		);
		const execution = await e2e.n8n.getExecution(failed.id);
		expect(execution?.error?.message).toMatch(/API key|credential|refused/i);
		await expectEmitted(workflowId, made);
	});

	it('a restart of n8n between polls: what came before and after it, each exactly once', async () => {
		await submit();
		await restartSharedN8n(e2e);
		expect(await e2e.n8n.hasSession()).toBe(true);
		await submit();
		await expectEmitted(workflowId, made);
		await nextPoll();
		expect(await emittedIds(workflowId)).toEqual([...made].sort());
	});

	it('unpublishing stops the polls', async () => {
		expect((await e2e.n8n.deactivateWorkflow(workflowId)).active).toBe(false);
		const before = await polls();
		await submit();
		// Longer than a poll interval: an active poller would have asked again.
		await sleep(65_000);
		expect(await polls()).toBe(before);
		expect(await emittedIds(workflowId)).toEqual([...made.slice(0, -1)].sort());
	});
});
