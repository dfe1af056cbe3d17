/* eslint-disable @n8n/community-nodes/no-restricted-globals -- benchmark tool: waits with setTimeout for the memory baseline */
/**
 * Scenarios 1 and 4: export every submission of a form (10,000) with the Fillout node's
 * Get Many / Return All, and the same with the HTTP Request node's pagination (page
 * size 150, and Fillout's default of 50), each in a fresh n8n process whose memory is
 * sampled during the run.
 */
import type { CredentialRef, Execution, WorkflowDefinition } from '../test/e2e/support';
import type { BenchContext, BenchRow } from './context';
import { filloutCredential, headerCredential, type BenchAccount } from './fixtures';
import { MemorySampler } from './memory';
import { timelineNote } from './requestTimeline';
import { requestFloor } from './stats';
import {
	measuredRun,
	outcomeOf,
	prepareVariants,
	transferRow,
	warmUp,
	type AnyCredential,
	type Variant,
	type VariantSetup,
} from './variants';
import {
	BENCH_NODES,
	filloutExportWorkflow,
	httpExportWorkflow,
	PAGE_SIZE,
	type HeaderCredentialRef,
} from './workflows';

/** The pause a user sets between pages so as not to hit 5 requests per second. */
export const HTTP_PAGE_INTERVAL_MS = 200;
const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';
const BASELINE_MS = 1500;
const SAMPLE_MS = 50;
const WARM_UP_SUBMISSIONS = 20;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

interface ExportVariant extends Variant {
	build(name: string, account: BenchAccount, credential: AnyCredential): WorkflowDefinition;
	/** Submission ids in the node's output. */
	ids(execution: Execution): string[];
}

/** HTTP Request with offset pagination; `limit` undefined leaves Fillout's default page of 50. */
function httpVariant(key: string, limit: number | undefined): ExportVariant {
	return {
		key,
		label: `HTTP Request: ${limit === undefined ? 'default limit (50)' : `limit=${limit}`}, offset paging, ${HTTP_PAGE_INTERVAL_MS} ms interval`,
		node: BENCH_NODES.http,
		build: (name, account, credential) =>
			httpExportWorkflow(name, {
				apiRoot: account.apiRoot,
				formId: account.formId,
				credential: credential as HeaderCredentialRef,
				limit,
				requestIntervalMs: HTTP_PAGE_INTERVAL_MS,
			}),
		credential: async (ctx, account) => await headerCredential(ctx.client, account),
		ids: (execution) =>
			execution
				.items(BENCH_NODES.http)
				.flatMap((page) => (page.responses as Array<{ submissionId: string }>) ?? [])
				.map((submission) => submission.submissionId),
	};
}

export const EXPORT_VARIANTS: ExportVariant[] = [
	{
		key: 'fillout',
		label: 'Fillout: Get Many, Return All',
		node: BENCH_NODES.fillout,
		build: (name, account, credential) =>
			filloutExportWorkflow(name, credential as CredentialRef, account.formId),
		credential: async (ctx, account) => await filloutCredential(ctx.client, account),
		ids: (execution) =>
			execution.items(BENCH_NODES.fillout).map((item) => String(item.submissionId)),
	},
	httpVariant('http-150', PAGE_SIZE),
	httpVariant('http-50', undefined),
];

export type ExportSetup = VariantSetup<ExportVariant>;

export async function prepareExport(
	ctx: BenchContext,
	variants = EXPORT_VARIANTS,
): Promise<ExportSetup[]> {
	return await prepareVariants(ctx, 'export', variants, ctx.sizes.exportCount, WARM_UP_SUBMISSIONS);
}

/**
 * One variant: n8n restarted (a fresh process), `settleMs` of waiting, a warm-up run on a
 * small form of another account (loads the node's code, warms the database), a baseline of
 * the process group's memory, then the measured run, sampled every 50 ms until n8n
 * reports the execution ended.
 */
export async function runExportVariant(
	ctx: BenchContext,
	setup: ExportSetup,
	settleMs = 0,
): Promise<BenchRow> {
	const { variant, account } = setup;
	const expected = ctx.sizes.exportCount;
	// Each request takes at least the latency the sandbox adds.
	const floor = requestFloor(expected, PAGE_SIZE, { roundTripMs: ctx.latencyMs });

	ctx.log(`export ${variant.key}: restarting n8n for a fresh process`);
	const n8n = await ctx.restartN8n();
	// A fresh n8n's minor collections are slow for about its first minute (BENCHMARKS.md).
	if (settleMs > 0) await sleep(settleMs);
	const notes = await warmUp(
		ctx,
		variant.build(`bench export ${variant.key} warm-up`, setup.warmAccount, setup.warmCredential),
	);

	const sampler = new MemorySampler(n8n.pid, SAMPLE_MS);
	sampler.start();
	await sleep(BASELINE_MS);
	sampler.markBaseline();
	ctx.log(`export ${variant.key}: running`);
	const measured = await measuredRun(
		ctx,
		account,
		variant.build(`bench export ${variant.key}`, account, setup.credential),
	);
	const memory = sampler.stop();

	const { run } = measured;
	const outcome = await outcomeOf(ctx, measured, setup, LIST_ROUTE, variant.ids);
	notes.push(
		await timelineNote(
			ctx.control,
			account.apiKey,
			Date.parse(run.startedAt),
			Date.parse(run.stoppedAt),
		),
	);
	const ids = outcome.value ?? [];
	const unique = new Set(ids).size;
	if (unique !== ids.length) notes.push(`${ids.length - unique} duplicate submissions`);
	return transferRow('export', setup, run, outcome, {
		complete: unique === expected && ids.length === expected,
		items: ids.length,
		expected,
		floor,
		notes,
		memory,
	});
}

export async function runExport(ctx: BenchContext, setups: ExportSetup[]): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	for (const setup of setups) rows.push(await runExportVariant(ctx, setup));
	return rows;
}
