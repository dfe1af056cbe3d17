/**
 * `--only latency` (issue 24): the export, the import and the polling trigger's backfill
 * with the sandbox at 80, 300 and 1,000 ms per API request, and the HTTP Request node's
 * export beside them, in the run's one n8n. The figures: latencyFigures.ts.
 */
import type { BenchContext } from './context';
import { EXPORT_VARIANTS, prepareExport, runExportVariant, type ExportSetup } from './export';
import { IMPORT_VARIANTS, prepareImport, runImportVariant, type ImportSetup } from './import';
import { LATENCIES_MS, type LatencyRow, type LatencyRun } from './latencyFigures';
import { preparePoll, runBackfill, type PollSetup } from './poll';

/** The export variants measured at every latency, by the run they stand for. */
const EXPORT_RUNS: Array<{ run: LatencyRun; key: string }> = [
	{ run: 'export', key: 'fillout' },
	{ run: 'http-export', key: 'http-150' },
];

export interface LatencySetup {
	latencyMs: number;
	exports: Array<{ run: LatencyRun; setup: ExportSetup }>;
	imports: ImportSetup[];
	poll: PollSetup;
}

/**
 * Accounts, data, credentials and workflows for every latency, before any timing. The
 * export accounts serve every latency (a read changes nothing); each import and each
 * backfill gets its own (an import checks what is stored, a backfill starts once).
 */
export async function prepareLatency(ctx: BenchContext): Promise<LatencySetup[]> {
	const variants = EXPORT_RUNS.map(({ key }) => {
		const variant = EXPORT_VARIANTS.find((candidate) => candidate.key === key);
		if (!variant) throw new Error(`no export variant ${key}`);
		return variant;
	});
	const exportSetups = await prepareExport(ctx, variants);
	const exports = EXPORT_RUNS.map(({ run }, index) => ({ run, setup: exportSetups[index] }));
	const fillout = IMPORT_VARIANTS.filter((variant) => variant.key === 'fillout');
	const setups: LatencySetup[] = [];
	for (const latencyMs of LATENCIES_MS) {
		setups.push({
			latencyMs,
			exports,
			imports: await prepareImport(ctx, fillout),
			poll: await preparePoll(ctx, `poll ${latencyMs} ms`),
		});
	}
	return setups;
}

/** Every run at every latency; the sandbox is set back to `restoreLatencyMs` after. */
export async function runLatency(
	ctx: BenchContext,
	setups: LatencySetup[],
	restoreLatencyMs: number,
): Promise<LatencyRow[]> {
	const rows: LatencyRow[] = [];
	try {
		for (const { latencyMs, exports, imports, poll } of setups) {
			await ctx.control.setFaults({ latencyMs });
			const at: BenchContext = { ...ctx, latencyMs };
			for (const { run, setup } of exports) {
				rows.push({ latencyMs, run, result: await runExportVariant(at, setup) });
			}
			for (const setup of imports) {
				rows.push({ latencyMs, run: 'import', result: await runImportVariant(at, setup) });
			}
			rows.push({ latencyMs, run: 'backfill', result: await runBackfill(at, poll) });
			await ctx.client.deactivateWorkflow(poll.workflowId);
		}
	} finally {
		await ctx.control.setFaults({ latencyMs: restoreLatencyMs });
	}
	return rows;
}
