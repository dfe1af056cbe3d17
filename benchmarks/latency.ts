/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tool: a spinner process keeps one core busy (node:child_process spawn, process.execPath) */
/**
 * `--only latency` (issue 24): the export, the import and the polling trigger's backfill
 * with the sandbox at 80, 300 and 1,000 ms per API request, and the HTTP Request node's
 * export beside them, in the run's one n8n; then 300 ms jittered, busy and both (issue 32).
 * The figures: latencyFigures.ts.
 */
import { spawn } from 'node:child_process';

import type { BenchContext } from './context';
import { EXPORT_VARIANTS, prepareExport, runExportVariant, type ExportSetup } from './export';
import { IMPORT_VARIANTS, prepareImport, runImportVariant, type ImportSetup } from './import';
import {
	LATENCY_CASES,
	type LatencyCase,
	type LatencyRow,
	type LatencyRun,
} from './latencyFigures';
import { preparePoll, runBackfill, type PollSetup } from './poll';

/** The export variants measured at every latency, by the run they stand for. */
const EXPORT_RUNS: Array<{ run: LatencyRun; key: string }> = [
	{ run: 'export', key: 'fillout' },
	{ run: 'http-export', key: 'http-150' },
];

export interface LatencySetup extends LatencyCase {
	exports: Array<{ run: LatencyRun; setup: ExportSetup }>;
	imports: ImportSetup[];
	poll: PollSetup;
}

/**
 * Accounts, data, credentials and workflows for every latency, before any timing. The
 * export accounts serve every latency (a read changes nothing); each import and each
 * backfill gets its own (an import checks what is stored, a backfill starts once).
 */
export async function prepareLatency(
	ctx: BenchContext,
	cases: LatencyCase[] = LATENCY_CASES,
): Promise<LatencySetup[]> {
	const variants = EXPORT_RUNS.map(({ key }) => {
		const variant = EXPORT_VARIANTS.find((candidate) => candidate.key === key);
		if (!variant) throw new Error(`no export variant ${key}`);
		return variant;
	});
	const exportSetups = await prepareExport(ctx, variants);
	const exports = EXPORT_RUNS.map(({ run }, index) => ({ run, setup: exportSetups[index] }));
	const fillout = IMPORT_VARIANTS.filter((variant) => variant.key === 'fillout');
	const setups: LatencySetup[] = [];
	for (const condition of cases) {
		const plain = !condition.jitterMs && !condition.busy && !condition.settleMs;
		setups.push({
			...condition,
			// The HTTP Request node is the reference at each plain latency only.
			exports: plain ? exports : exports.filter(({ run }) => run === 'export'),
			imports: await prepareImport(ctx, fillout),
			poll: await preparePoll(
				ctx,
				`poll ${condition.latencyMs} ms${condition.jitterMs ? ` +${condition.jitterMs}` : ''}${condition.busy ? ' busy' : ''}`,
			),
		});
	}
	return setups;
}

/** A spinner keeps one core busy for at most this long, whatever happens to the bench. */
const SPIN_AT_MOST_MS = 10 * 60_000;

/** Runs `work` with one core kept busy by a separate spinner process, ended after it. */
async function whileBusy<T>(busy: boolean, work: () => Promise<T>): Promise<T> {
	if (!busy) return await work();
	const spinner = spawn(
		process.execPath,
		['-e', `const end = Date.now() + ${SPIN_AT_MOST_MS}; while (Date.now() < end);`],
		{ stdio: 'ignore' },
	);
	try {
		return await work();
	} finally {
		spinner.kill();
	}
}

/** Every run at every latency; the sandbox is set back to `restoreLatencyMs` after. */
export async function runLatency(
	ctx: BenchContext,
	setups: LatencySetup[],
	restoreLatencyMs: number,
): Promise<LatencyRow[]> {
	const rows: LatencyRow[] = [];
	try {
		for (const { latencyMs, jitterMs, busy, settleMs, exports, imports, poll } of setups) {
			await ctx.control.setFaults({ latencyMs, latencyJitterMs: jitterMs });
			const at: BenchContext = { ...ctx, latencyMs };
			const row = { latencyMs, jitterMs, busy, settleMs };
			for (const { run, setup } of exports) {
				const result = await whileBusy(busy, () => runExportVariant(at, setup, settleMs));
				rows.push({ ...row, run, result });
			}
			for (const setup of imports) {
				const result = await whileBusy(busy, () => runImportVariant(at, setup));
				rows.push({ ...row, run: 'import', result });
			}
			const result = await whileBusy(busy, () => runBackfill(at, poll));
			rows.push({ ...row, run: 'backfill', result });
			await ctx.client.deactivateWorkflow(poll.workflowId);
		}
	} finally {
		await ctx.control.setFaults({ latencyMs: restoreLatencyMs, latencyJitterMs: 0 });
	}
	return rows;
}
