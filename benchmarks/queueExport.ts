/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: samples the sandbox's counters on a timer (setInterval) */
/**
 * Queue mode, scenario 1: three exports (QUEUE_EXPORTS for another number) of the same
 * form with one API key, started together as manual runs that n8n offloads to its workers
 * (two of them), against the sandbox at 5 requests/s +80 ms. Each worker paces itself;
 * they know of each other only through Fillout's rate-limit answers
 * (the shared rate, sharedRate.ts).
 */
import {
	NODE_NAMES,
	workerOfExecutions,
	type N8nClient,
	type N8nConnection,
	type SandboxControl,
} from '../test/e2e/lib';
import { benchAccount, filloutCredential, statsOfKey, statsSince } from './fixtures';
import { timedOf, waitForEnd, type TimedRun } from './measure';
import { requestFloor } from './stats';
import { BENCH_NODES, filloutExportWorkflow, PAGE_SIZE } from './workflows';

const EXPORTS = Number(process.env.QUEUE_EXPORTS ?? 3);
const RATE_LIMIT = 5;
const WARM_UP_SUBMISSIONS = 20;
const STATS_SAMPLE_MS = 250;

export interface SharedExportRun extends TimedRun {
	name: string;
	/** Submissions in the node's output. */
	items: number;
	/** Every generated submission exactly once. */
	exact: boolean;
	/** Index of the worker whose log says it ran the execution (undefined: none did). */
	worker?: number;
	error?: string;
}

export interface SharedExportFigures {
	submissions: number;
	/** When the run requests were sent (the benchmark's clock, epoch ms). */
	began: number;
	runs: SharedExportRun[];
	requests: number;
	rateLimited: number;
	/** From the moment the three run requests were sent to the last stoppedAt. */
	wallMs: number;
	/** From the earliest startedAt to the last stoppedAt (n8n's own records). */
	wallFromStartedMs: number;
	/** The issue's shared floor: all exports' requests at 5 per second. */
	floorMs: number;
	/** 429s by whole second since the common start (sampled every 250 ms): when they came. */
	rateLimitedBySecond: Map<number, number>;
}

/**
 * Reads the key's 429 count every 250 ms while the exports run, to tell when the 429s
 * came (the first windows, before the workers see each other, or all along).
 */
function sample429s(control: SandboxControl, apiKey: string, began: number) {
	const bySecond = new Map<number, number>();
	let last: number | undefined;
	let sampling = Promise.resolve();
	const timer = setInterval(() => {
		sampling = sampling.then(async () => {
			const now = statsOfKey(await control.stats(), apiKey).rateLimited;
			const second = Math.floor((Date.now() - began) / 1000);
			if (last !== undefined && now > last) {
				bySecond.set(second, (bySecond.get(second) ?? 0) + now - last);
			}
			last = now;
		});
	}, STATS_SAMPLE_MS);
	return {
		bySecond,
		stop: async () => {
			clearInterval(timer);
			await sampling;
		},
	};
}

interface ExportContext {
	client: N8nClient;
	control: SandboxControl;
	workers: readonly N8nConnection[];
	log(line: string): void;
}

/** Creates one export workflow per run and starts them all at once; returns their ends. */
async function runTogether(
	ctx: ExportContext,
	names: string[],
	build: (name: string) => ReturnType<typeof filloutExportWorkflow>,
): Promise<{ began: number; ended: TimedRun[] }> {
	const created = await Promise.all(
		names.map(async (name) => await ctx.client.createWorkflow(build(name))),
	);
	const began = Date.now();
	const executionIds = await Promise.all(
		created.map(async (workflow) => await ctx.client.runWorkflow(workflow.id, NODE_NAMES.start)),
	);
	const ended = await Promise.all(
		created.map(async (workflow, index) => {
			const summary = await waitForEnd(ctx.client, workflow.id, executionIds[index], names[index]);
			return timedOf(summary, workflow.id, Date.now() - began);
		}),
	);
	return { began, ended };
}

export async function runSharedExports(
	ctx: ExportContext,
	submissions: number,
): Promise<SharedExportFigures> {
	const { client, control } = ctx;
	const account = await benchAccount(control, 'queue export', submissions);
	const warm = await benchAccount(control, 'queue export warm-up', WARM_UP_SUBMISSIONS);
	const credential = await filloutCredential(client, account);
	const warmCredential = await filloutCredential(client, warm);
	const names = Array.from({ length: EXPORTS }, (_, index) => `bench queue export ${index + 1}`);

	// Warm-up on another account: the workers load the node's code before the timing.
	ctx.log(`queue export: warm-up, ${EXPORTS} exports of ${WARM_UP_SUBMISSIONS}`);
	await runTogether(
		ctx,
		names.map((name) => `${name} warm-up`),
		(name) => filloutExportWorkflow(name, warmCredential, warm.formId),
	);

	ctx.log(`queue export: ${EXPORTS} exports of ${submissions} started together, one key`);
	const before = statsOfKey(await control.stats(), account.apiKey);
	const sampler = sample429s(control, account.apiKey, Date.now());
	const { began, ended } = await runTogether(ctx, names, (name) =>
		filloutExportWorkflow(name, credential, account.formId),
	);
	await sampler.stop();
	const made = statsSince(statsOfKey(await control.stats(), account.apiKey), before);

	const expected = new Set(account.submissionIds);
	const ranOn = workerOfExecutions(ctx.workers);
	const runs: SharedExportRun[] = [];
	for (const [index, run] of ended.entries()) {
		const execution = await client.getExecution(run.executionId);
		const ids = (execution?.items(BENCH_NODES.fillout) ?? []).map((item) =>
			String(item.submissionId),
		);
		runs.push({
			...run,
			name: names[index],
			items: ids.length,
			exact:
				ids.length === expected.size &&
				new Set(ids).size === ids.length &&
				ids.every((id) => expected.has(id)),
			worker: ranOn.get(run.executionId),
			error:
				run.status === 'success' ? undefined : JSON.stringify(execution?.error ?? {}).slice(0, 300),
		});
	}
	const floor = requestFloor(submissions, PAGE_SIZE);
	const lastStop = Math.max(...ended.map((run) => Date.parse(run.stoppedAt)));
	const firstStart = Math.min(...ended.map((run) => Date.parse(run.startedAt)));
	return {
		submissions,
		began,
		runs,
		requests: made.total,
		rateLimited: made.rateLimited,
		wallMs: lastStop - began,
		wallFromStartedMs: lastStop - firstStart,
		floorMs: ((EXPORTS * floor.requests) / RATE_LIMIT) * 1000,
		rateLimitedBySecond: sampler.bySecond,
	};
}

/** The per-export table and the line of totals. */
export function sharedExportTable(figures: SharedExportFigures): string {
	const seconds = (ms: number) => (ms / 1000).toFixed(2);
	const origin = figures.began;
	const lines = [
		'| export | ran on | status | submissions | every one once | started at s | stopped at s | wall s |',
		'| --- | --- | --- | --: | --- | --: | --: | --: |',
		...figures.runs.map(
			(run) =>
				`| ${run.name} | ${run.worker === undefined ? 'no worker log' : `worker ${run.worker + 1}`} | ${run.status} | ${run.items} | ${run.exact ? 'yes' : 'no'} | ${seconds(Date.parse(run.startedAt) - origin)} | ${seconds(Date.parse(run.stoppedAt) - origin)} | ${seconds(run.wallMs)} |`,
		),
	];
	const share = figures.requests ? (100 * figures.rateLimited) / figures.requests : 0;
	lines.push(
		'',
		`Key's requests ${figures.requests}, 429s ${figures.rateLimited} (${share.toFixed(1)} %). Wall from the common start (run requests sent) to the last stoppedAt ${seconds(figures.wallMs)} s; from the earliest startedAt ${seconds(figures.wallFromStartedMs)} s. Shared floor ${seconds(figures.floorMs)} s: wall/floor ${(figures.wallMs / figures.floorMs).toFixed(2)} (from startedAt ${(figures.wallFromStartedMs / figures.floorMs).toFixed(2)}).`,
	);
	if (figures.rateLimited) {
		const when = [...figures.rateLimitedBySecond].map(([second, count]) => `${second} s: ${count}`);
		lines.push('', `429s by second since the start (sampled every 250 ms): ${when.join(', ')}.`);
	}
	const errors = figures.runs.filter((run) => run.error);
	if (errors.length) {
		lines.push('', 'Failed:', ...errors.map((run) => `- ${run.name}: ${run.error}`));
	}
	return lines.join('\n');
}
