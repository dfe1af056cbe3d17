/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: waits with setTimeout for the poll to finish */
/**
 * The polling trigger's scenarios in the real n8n: publishing a workflow whose trigger
 * starts from the beginning of a form of N submissions (the backfill runs in the
 * activation's poll; when n8n's poll budget cuts it short, the next polls go on), then
 * the next scheduled poll, which finds nothing new.
 */
import { pollingTriggerWorkflow, waitFor, type ExecutionSummary } from '../test/e2e/support';
import type { BenchContext, BenchRow } from './context';
import { hasEnded } from './measure';
import { seconds } from './report';
import { timelineNote } from './requestTimeline';
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

export async function preparePoll(ctx: BenchContext, name = 'poll'): Promise<PollSetup> {
	const account = await benchAccount(ctx.control, name, ctx.sizes.exportCount);
	const credential = await filloutCredential(ctx.client, account);
	const workflow = await ctx.client.createWorkflow(
		pollingTriggerWorkflow({
			name: `Benchmark ${name} backfill`,
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

/** What the workflow's ended executions emitted, read once each, oldest first. */
class EmittedIds {
	readonly ids = new Set<string>();
	emitted = 0;
	readonly executions: ExecutionSummary[] = [];

	/** Reads the executions not read yet; the one whose ids complete `count`, if any. */
	async readNew(ctx: BenchContext, workflowId: string, count: number) {
		const ended = (await ctx.client.listExecutions({ workflowId }))
			.filter((summary) => hasEnded(summary) && !this.executions.some((e) => e.id === summary.id))
			.sort((a, b) => Date.parse(a.stoppedAt as string) - Date.parse(b.stoppedAt as string));
		for (const summary of ended) {
			const execution = await ctx.client.getExecution(summary.id);
			this.executions.push(summary);
			if (execution?.status !== 'success') continue;
			const ids = execution.items(POLL_NODE).map((item) => item.submissionId as string);
			this.emitted += ids.length;
			for (const id of ids) this.ids.add(id);
			if (this.ids.size >= count) return summary;
		}
		return undefined;
	}
}

/**
 * Publishes the workflow and waits until its executions have emitted all N submissions
 * (one execution, or several polls a minute apart when n8n's poll budget cuts the read
 * short). Wall = the poll's first request (the key is the backfill's own) → stoppedAt of
 * the execution that completes them: the time n8n's scheduler takes to start the poll
 * after the publish is n8n's, as the export's wall starts at its execution's start. The
 * notes give the publish request → stoppedAt too. The workflow stays published.
 */
export async function runBackfill(
	ctx: BenchContext,
	setup: PollSetup,
	timeoutMs = 900_000,
): Promise<BenchRow> {
	const count = ctx.sizes.exportCount;
	const { apiKey } = setup.account;
	const before = await listRequests(ctx, apiKey);
	ctx.log(`backfill of ${count} at +${ctx.latencyMs} ms: publishing`);
	const publishedAt = Date.now();
	await ctx.client.activateWorkflow(setup.workflowId);
	const publishMs = Date.now() - publishedAt;
	const emitted = new EmittedIds();
	let last: ExecutionSummary | undefined;
	const notes: string[] = [];
	try {
		last = await waitFor(async () => await emitted.readNew(ctx, setup.workflowId, count), {
			timeoutMs,
			intervalMs: 250,
			description: `the executions emitting ${count} submissions`,
		});
	} catch (error) {
		notes.push((error as Error).message);
	}
	const sandboxStats = await ctx.control.stats();
	const stats = statsSince(statsOfKey(sandboxStats, apiKey), before);
	const pollStartedAt = sandboxStats.byKey[apiKey]?.firstAt ?? publishedAt;
	const floor = requestFloor(count, 150, { roundTripMs: ctx.latencyMs });
	const failed = emitted.executions.filter((summary) => summary.status !== 'success').length;
	if (failed) notes.push(`${failed} executions did not succeed`);
	const { executions } = emitted;
	notes.push(
		`${emitted.ids.size} distinct submission ids in ${executions.length} execution(s)`,
		'requests include the one form request of the first poll',
		`the publish request answered after ${seconds(publishMs)} s`,
	);
	notes.push(`the poll's first request came ${seconds(pollStartedAt - publishedAt)} s after it`);
	if (last?.startedAt) {
		const started = Date.parse(last.startedAt);
		const stopped = Date.parse(last.stoppedAt as string);
		notes.push(await timelineNote(ctx.control, apiKey, pollStartedAt, stopped));
		notes.push(
			`the last execution started ${seconds(started - publishedAt)} s after the publish request and ran ${seconds(stopped - started)} s (publish → stoppedAt ${seconds(stopped - publishedAt)} s)`,
		);
	}
	return {
		scenario: 'poll',
		variant: `Fillout Polling Trigger: backfill from the beginning (first request → execution ended)`,
		ok: last !== undefined && !failed && emitted.emitted === count && emitted.ids.size === count,
		status: last ? (failed ? `${failed} failed` : 'success') : 'incomplete',
		items: emitted.emitted,
		expectedItems: count,
		requests: stats.total,
		dataRequests: stats.requests[LIST_ROUTE] ?? 0,
		rateLimited: stats.rateLimited,
		floorRequests: floor.requests,
		floorMs: floor.seconds * 1000,
		wallMs: last ? Date.parse(last.stoppedAt as string) - pollStartedAt : undefined,
		notes,
	};
}

export async function runPoll(ctx: BenchContext, setup: PollSetup): Promise<BenchRow[]> {
	const { apiKey } = setup.account;
	const backfill = await runBackfill(ctx, setup);

	ctx.log('poll: waiting for the next scheduled poll (every minute)');
	const afterBackfill = await listRequests(ctx, apiKey);
	const executionsBefore = (await ctx.client.listExecutions({ workflowId: setup.workflowId }))
		.length;
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
	const started =
		(await ctx.client.listExecutions({ workflowId: setup.workflowId })).length - executionsBefore;
	await ctx.client.deactivateWorkflow(setup.workflowId);

	return [
		backfill,
		{
			scenario: 'poll',
			variant: 'Fillout Polling Trigger: next scheduled poll, nothing new',
			ok: idleCost.total === 1 && started === 0 && idle.total >= 1,
			status: started === 0 ? 'no execution' : `${started} executions`,
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
