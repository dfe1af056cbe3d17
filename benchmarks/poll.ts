/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: waits with setTimeout for the poll to finish */
/**
 * The polling trigger's scenarios in the real n8n: publishing a workflow whose trigger
 * starts from the beginning of a form of N submissions (the backfill runs in the
 * activation's poll and emits all N in one execution), then the next scheduled poll,
 * which finds nothing new.
 */
import { pollingTriggerWorkflow, waitFor } from '../test/e2e/support';
import type { BenchContext, BenchRow } from './context';
import {
	benchAccount,
	filloutCredential,
	statsOfKey,
	statsSince,
	type BenchAccount,
} from './fixtures';
import { requestFloor } from './stats';

const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';
const POLL_NODE = 'Fillout Polling Trigger';

export interface PollSetup {
	account: BenchAccount;
	workflowId: string;
}

export async function preparePoll(ctx: BenchContext): Promise<PollSetup> {
	const account = await benchAccount(ctx.control, 'poll', ctx.sizes.exportCount);
	const credential = await filloutCredential(ctx.client, account);
	const workflow = await ctx.client.createWorkflow(
		pollingTriggerWorkflow({
			name: 'Benchmark polling backfill',
			credential,
			formId: account.formId,
			parameters: { startFrom: 'beginning' },
		}),
	);
	return { account, workflowId: workflow.id };
}

async function listRequests(ctx: BenchContext, apiKey: string) {
	return statsOfKey(await ctx.control.stats(), apiKey);
}

export async function runPoll(ctx: BenchContext, setup: PollSetup): Promise<BenchRow[]> {
	const count = ctx.sizes.exportCount;
	const { apiKey } = setup.account;
	const before = await listRequests(ctx, apiKey);
	ctx.log(`poll: publishing the backfill of ${count}`);
	const publishedAt = Date.now();
	await ctx.client.activateWorkflow(setup.workflowId);
	const [summary] = await waitFor(
		async () => {
			const list = await ctx.client.listExecutions({ workflowId: setup.workflowId });
			return list.some((e) => e.status === 'success' || e.status === 'error') ? list : undefined;
		},
		{ timeoutMs: 300_000, intervalMs: 250, description: 'the backfill execution' },
	);
	const backfillMs = Date.now() - publishedAt;
	const execution = await ctx.client.getExecution(summary.id);
	const ids = execution?.items(POLL_NODE).map((item) => item.submissionId as string) ?? [];
	const backfill = statsSince(await listRequests(ctx, apiKey), before);
	const floor = requestFloor(count, 150, { roundTripMs: ctx.latencyMs });

	ctx.log('poll: waiting for the next scheduled poll (every minute)');
	const afterBackfill = await listRequests(ctx, apiKey);
	const idle = await waitFor(
		async () => {
			const since = statsSince(await listRequests(ctx, apiKey), afterBackfill);
			return since.total > 0 ? since : undefined;
		},
		{ timeoutMs: 150_000, intervalMs: 500, description: 'the next poll' },
	);
	// Let the poll finish, then count what it cost in all.
	await new Promise((resolve) => setTimeout(resolve, 2_000));
	const idleCost = statsSince(await listRequests(ctx, apiKey), afterBackfill);
	const executions = await ctx.client.listExecutions({ workflowId: setup.workflowId });
	await ctx.client.deactivateWorkflow(setup.workflowId);

	const unique = new Set(ids).size;
	return [
		{
			scenario: 'poll',
			variant: `Fillout Polling Trigger: backfill from the beginning (publish → execution ended)`,
			ok: execution?.status === 'success' && ids.length === count && unique === count,
			status: execution?.status ?? 'missing',
			items: ids.length,
			expectedItems: count,
			requests: backfill.total,
			dataRequests: backfill.requests[LIST_ROUTE] ?? 0,
			rateLimited: backfill.rateLimited,
			floorRequests: floor.requests,
			floorMs: floor.seconds * 1000,
			wallMs: backfillMs,
			notes: [
				`${unique} distinct submission ids`,
				'requests include the one form request of the first poll',
			],
		},
		{
			scenario: 'poll',
			variant: 'Fillout Polling Trigger: next scheduled poll, nothing new',
			ok: idleCost.total === 1 && executions.length === 1 && idle.total >= 1,
			status: executions.length === 1 ? 'no execution' : `${executions.length} executions`,
			items: 0,
			expectedItems: 0,
			requests: idleCost.total,
			dataRequests: idleCost.requests[LIST_ROUTE] ?? 0,
			rateLimited: idleCost.rateLimited,
			floorRequests: 1,
			notes: [],
		},
	];
}
