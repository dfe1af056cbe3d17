/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: waits with setTimeout between checks */
/**
 * `--only catchup` (issue 33): the Fillout Trigger with catch-up (version 1.1, checks every
 * minute) in the real n8n. (a) Published and idle for IDLE_MINUTES: the list requests it
 * costs. (b) n8n stopped, N submissions made meanwhile (never delivered), n8n started:
 * the executions that catch up on them, their requests, wall and memory. The figures and
 * the judging: catchUpFigures.ts.
 */
import { ListSampler, LIST_ROUTE } from '../test/e2e/support/catchUp';
import { NODE_NAMES, triggerWorkflow, waitFor } from '../test/e2e/support';
import type { BenchContext } from './context';
import {
	backlogFigures,
	idleFigures,
	MIN_BASELINE_MS,
	type BacklogResult,
	type CatchUpRun,
	type IdleFigures,
} from './catchUpFigures';
import { benchAccount, filloutCredential, statsOfKey, type BenchAccount } from './fixtures';
import { hasEnded, listAllExecutions, mapConcurrent } from './measure';
import { bursts, splitRss, timelineNotes } from './catchUpTrace';
import { MemorySampler } from './memory';

const INTERVAL_MINUTES = 1;
const IDLE_MINUTES = 4;
/** The first check comes 35 s after trigger() starts (checkSchedule.ts); a margin past it. */
const FIRST_CHECK_MS = 40_000;
/** No list request for this long, every execution ended: the catch-up has stopped. */
const QUIET_MS = 15_000;
const BACKLOG_TIMEOUT_MS = 10 * 60_000;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

export interface CatchUpSetup {
	account: BenchAccount;
	workflowId: string;
}

export interface CatchUpResult {
	idle: IdleFigures;
	backlog: BacklogResult;
}

export async function prepareCatchUp(ctx: BenchContext): Promise<CatchUpSetup> {
	const account = await benchAccount(ctx.control, 'catch-up', 0);
	const credential = await filloutCredential(ctx.client, account);
	const workflow = await ctx.client.createWorkflow(
		triggerWorkflow({
			name: 'Benchmark catch-up',
			credential,
			formId: account.formId,
			parameters: { catchUp: true, catchUpMinutes: INTERVAL_MINUTES },
		}),
	);
	return { account, workflowId: workflow.id };
}

export async function runCatchUp(ctx: BenchContext, setup: CatchUpSetup): Promise<CatchUpResult> {
	const publishedAt = Date.now();
	await ctx.client.activateWorkflow(setup.workflowId);
	try {
		const idle = await measureIdle(ctx, setup, publishedAt);
		const backlog = await measureBacklog(ctx, setup, publishedAt);
		return { idle, backlog };
	} finally {
		await ctx.client.deactivateWorkflow(setup.workflowId).catch(() => undefined);
	}
}

const keyStats = async (ctx: BenchContext, apiKey: string) =>
	statsOfKey(await ctx.control.stats(), apiKey);

/**
 * Past the first check (35 s after the publish), a window of IDLE_MINUTES whole minutes:
 * each minute holds one scheduled check, so the count is not a matter of where it starts.
 */
async function measureIdle(
	ctx: BenchContext,
	{ account, workflowId }: CatchUpSetup,
	publishedAt: number,
): Promise<IdleFigures> {
	const sampler = new ListSampler(ctx.control);
	const lists = await sampler.track(account.apiKey);
	try {
		ctx.log(`catch-up: published; idle for ${IDLE_MINUTES} minutes after the first check`);
		await lists.nextRise(publishedAt, 90_000);
		await sleep(Math.max(2_000, publishedAt + FIRST_CHECK_MS - Date.now()));
		const before = await keyStats(ctx, account.apiKey);
		const fromAt = Date.now();
		await sleep(IDLE_MINUTES * 60_000);
		const after = await keyStats(ctx, account.apiKey);
		const toAt = Date.now();
		const executions = (await ctx.client.listExecutions({ workflowId })).length;
		if (executions) ctx.log(`catch-up: ${executions} executions while idle`);
		const list = (after.requests[LIST_ROUTE] ?? 0) - (before.requests[LIST_ROUTE] ?? 0);
		return idleFigures({
			listRequests: list,
			requests: after.total - before.total,
			checks: lists.since(fromAt).filter((rise) => rise.at <= toAt).length,
			minutes: (toAt - fromAt) / 60_000,
			intervalMinutes: INTERVAL_MINUTES,
		});
	} finally {
		await sampler.stop();
	}
}

/** Every ended execution of the workflow with its trigger items' ids (reads each once). */
async function readRuns(ctx: BenchContext, workflowId: string): Promise<CatchUpRun[]> {
	const ended = (await listAllExecutions(ctx.client, workflowId)).filter(hasEnded);
	return await mapConcurrent(ended, 2, async (summary) => {
		const execution = await ctx.client.getExecution(String(summary.id));
		const items = execution?.status === 'success' ? execution.items(NODE_NAMES.trigger) : [];
		return {
			id: String(summary.id),
			status: summary.status,
			startedAt: summary.startedAt,
			stoppedAt: summary.stoppedAt,
			submissionIds: items.map((item) => String(item.submissionId)),
		};
	});
}

/**
 * Waits (reading only n8n's execution list and the sandbox's counters, so that no large
 * execution is read out of n8n while its memory is sampled) until at least one execution
 * ran, every one ended and no list request came for QUIET_MS.
 */
async function waitQuiet(ctx: BenchContext, setup: CatchUpSetup, deadline: number) {
	let last = -1;
	let since = Date.now();
	await waitFor(
		async () => {
			const list = (await keyStats(ctx, setup.account.apiKey)).requests[LIST_ROUTE] ?? 0;
			if (list !== last) [last, since] = [list, Date.now()];
			const all = await listAllExecutions(ctx.client, setup.workflowId);
			return all.length > 0 && all.every(hasEnded) && Date.now() - since >= QUIET_MS;
		},
		{ timeoutMs: Math.max(1, deadline - Date.now()), intervalMs: 500, description: 'catch-up' },
	);
}

/** n8n stopped; N submissions spread from the publish to now; n8n started; the catch-up. */
async function measureBacklog(
	ctx: BenchContext,
	setup: CatchUpSetup,
	publishedAt: number,
): Promise<BacklogResult> {
	const count = ctx.sizes.exportCount;
	const { apiKey, formId } = setup.account;
	let expected: string[] = [];
	let spreadMs = 0;
	ctx.log(`catch-up: stopping n8n; ${count} submissions while it is down`);
	const n8n = await ctx.restartN8n(async () => {
		const start = publishedAt + 5_000;
		const stepMs = Math.max(1, Math.floor((Date.now() - 2_000 - start) / count));
		const made = await ctx.control.generate(formId, {
			count,
			startTime: new Date(start).toISOString(),
			stepMs,
		});
		expected = made.submissionIds;
		spreadMs = stepMs * count;
		// The key's first request from here on is the catch-up's (the sandbox's firstAt).
		await ctx.control.resetStats();
	});
	const backAtMs = Date.now();
	ctx.log('catch-up: n8n is back; waiting for the catch-up');
	const memorySampler = new MemorySampler(n8n.pid, 50);
	memorySampler.start();
	const sampler = new ListSampler(ctx.control);
	const lists = await sampler.track(apiKey);
	const notes: string[] = [];
	const deadline = backAtMs + BACKLOG_TIMEOUT_MS;
	let runs: CatchUpRun[] = [];
	let figures = backlogFigures(expected, []);
	for (let read = 0; ; read++) {
		try {
			await waitQuiet(ctx, setup, deadline);
		} catch (error) {
			notes.push((error as Error).message);
		}
		memorySampler.stop();
		if (read === 1) notes.push('memory: sampled until the first quiet, before the catch-up ended');
		runs = await readRuns(ctx, setup.workflowId);
		figures = backlogFigures(expected, runs);
		if (figures.completedAtMs !== undefined || Date.now() >= deadline) break;
	}
	await sampler.stop();
	const stats = await ctx.control.stats();
	const key = statsOfKey(stats, apiKey);
	const firstRequestAtMs = stats.byKey[apiKey]?.firstAt;
	const samples = memorySampler.trace();
	const earliest = samples[0].at + MIN_BASELINE_MS;
	const memory = splitRss(samples, Math.max(firstRequestAtMs ?? Infinity, earliest));
	if (firstRequestAtMs !== undefined && firstRequestAtMs < earliest) {
		notes.push(
			`memory: the first request came ${((firstRequestAtMs - backAtMs) / 1000).toFixed(2)} s after n8n answered again (its first check started during its start-up): the baseline is n8n's first ${MIN_BASELINE_MS / 1000} s`,
		);
	}
	const { [LIST_ROUTE]: listRequests = 0, ...others } = key.requests;
	const done = figures.completedAtMs;
	const listRequestsToComplete =
		done === undefined
			? undefined
			: lists
					.since(0)
					.filter((rise) => rise.at <= done)
					.reduce((sum, rise) => sum + rise.requests, 0);
	if (firstRequestAtMs)
		notes.push(...timelineNotes(firstRequestAtMs, bursts(lists.since(0)), runs));
	const nextCheckRequests = await nextCheck(ctx, apiKey, listRequests);
	// Read again after that check: a submission it ran a second time shows here.
	figures = backlogFigures(expected, await readRuns(ctx, setup.workflowId));
	notes.push(
		`the ${count} submissions dated over ${(spreadMs / 60_000).toFixed(1)} min from 5 s after the publish, all within the late window (10 min)`,
	);
	return {
		count,
		figures,
		backAtMs,
		firstRequestAtMs,
		listRequests,
		listRequestsToComplete,
		requests: others,
		rateLimited: key.rateLimited,
		memory,
		nextCheckRequests,
		notes,
	};
}

/** The list requests of the next scheduled check (within 90 s), once it has stopped reading. */
async function nextCheck(ctx: BenchContext, apiKey: string, before: number) {
	const lists = async () => (await keyStats(ctx, apiKey)).requests[LIST_ROUTE] ?? 0;
	try {
		await waitFor(async () => (await lists()) > before, {
			timeoutMs: 90_000,
			intervalMs: 250,
			description: 'the next scheduled check',
		});
		let last = await lists();
		for (;;) {
			await sleep(5_000);
			const now = await lists();
			if (now === last) return now - before;
			last = now;
		}
	} catch {
		return undefined;
	}
}
