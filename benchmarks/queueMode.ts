/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tool: a temp folder for the cluster (node:fs/os/path), QUEUE_TRIGGER from the environment */
/**
 * `npm run bench -- --only queue`: the package in n8n's queue mode (test/e2e/support/queueMode.ts:
 * Postgres, Redis, one main, two workers, one webhook processor, the packed package),
 * against the sandbox at 5 requests/s +80 ms. The cluster starts once with two workers:
 * three exports sharing one key, then the trigger with both workers; then the second
 * worker is stopped and the trigger runs again with one. QUEUE_TRIGGER=0 leaves the
 * trigger out (QUEUE_EXPORTS in queueExport.ts sets the number of exports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	copyQueueLogs,
	DEFAULT_N8N_VERSION,
	killGroupsOnExit,
	readPidFile,
	REPO_ROOT,
	SandboxControl,
	startQueueEnvironment,
	stopProcessGroup,
	stopQueueCluster,
	type N8nClient,
	type QueueState,
} from '../test/e2e/support';
import type { BenchSizes } from './context';
import { runSharedExports, sharedExportTable, type SharedExportFigures } from './queueExport';
import { queueTriggerTable, runQueueTrigger, type QueueTriggerFigures } from './queueTrigger';

const RATE_LIMIT = 5;
const LATENCY_MS = 80;
/** The queue-mode tier's worker concurrency (`n8n worker --concurrency`; n8n's own default is 10). */
const WORKER_CONCURRENCY = 5;

export interface QueueBenchResult {
	exports: SharedExportFigures;
	triggers: QueueTriggerFigures[];
	webhookProcessor: string;
	/** The Node.js that ran n8n. */
	n8nNodeBinary: string;
}

async function runScenarios(
	state: QueueState,
	client: N8nClient,
	sizes: BenchSizes,
	log: (line: string) => void,
): Promise<QueueBenchResult> {
	const control = new SandboxControl(state.sandbox.origin);
	await control.setFaults({ latencyMs: LATENCY_MS });
	const exports = await runSharedExports(
		{ client, control, workers: state.workers, log },
		sizes.exportCount,
	);
	log(sharedExportTable(exports));
	const triggers: QueueTriggerFigures[] = [];
	if (process.env.QUEUE_TRIGGER === '0') {
		return {
			exports,
			triggers,
			webhookProcessor: state.webhook.url,
			n8nNodeBinary: state.main.install.nodeBinary,
		};
	}
	triggers.push(await runQueueTrigger({ client, control, workers: state.workers, sizes, log }));
	log(`queue trigger: stopping worker 2 (pid ${state.workers[1].pid})`);
	await stopProcessGroup(state.workers[1].pid, { timeoutMs: 30_000 });
	const [first] = state.workers;
	triggers.push(await runQueueTrigger({ client, control, workers: [first], sizes, log }));
	return {
		exports,
		triggers,
		webhookProcessor: state.webhook.url,
		n8nNodeBinary: state.main.install.nodeBinary,
	};
}

export async function runQueueBench(
	sizes: BenchSizes,
	log: (line: string) => void,
): Promise<QueueBenchResult> {
	const workDir = mkdtempSync(join(tmpdir(), 'fillout-queue-bench-'));
	const pidFile = killGroupsOnExit(workDir);
	let state: QueueState | undefined;
	try {
		const started = await startQueueEnvironment({
			workDir,
			n8nVersion: DEFAULT_N8N_VERSION,
			workers: 2,
			workerConcurrency: WORKER_CONCURRENCY,
			sandbox: { rateLimit: RATE_LIMIT },
			log,
		});
		state = started.state;
		return await runScenarios(state, started.client, sizes, log);
	} finally {
		await stopQueueCluster(readPidFile(pidFile), state);
		copyQueueLogs(workDir, join(REPO_ROOT, '.tmp', 'bench', 'logs', 'queue'));
		rmSync(workDir, { recursive: true, force: true });
	}
}

/** Whether each target of the issue holds, one line each. */
function targetLines(result: QueueBenchResult): string[] {
	const { exports, triggers } = result;
	const share = exports.requests ? exports.rateLimited / exports.requests : 1;
	const allExact = exports.runs.every((run) => run.status === 'success' && run.exact);
	const ratio = exports.wallMs / exports.floorMs;
	const holds = (ok: boolean) => (ok ? 'holds' : 'FAILS');
	const lines = [
		`- exports: all ${exports.runs.length} succeed, every submission once in each: ${holds(allExact)}`,
		`- exports: wall ≤ 1.25 × shared floor: ${ratio.toFixed(2)} × — ${holds(ratio <= 1.25)}`,
		`- exports: 429s ≤ 5 % of the key's requests: ${(100 * share).toFixed(1)} % — ${holds(share <= 0.05)}`,
		`- exports: run on workers (worker logs): ${exports.runs.map((run) => (run.worker === undefined ? 'none' : `worker ${run.worker + 1}`)).join(', ')}`,
	];
	for (const run of triggers) {
		const figures = run.row.trigger;
		const fine = !!figures && figures.missing === 0 && figures.duplicated === 0;
		lines.push(
			`- trigger, ${run.workers} worker(s): none lost, none run twice — ${holds(fine && run.row.ok)}; webhook registered at ${run.webhookUrl.split('?')[0]} (its secret left out; webhook processor ${result.webhookProcessor})`,
		);
	}
	return lines;
}

export function queueSection(result: QueueBenchResult, sizes: BenchSizes, quick: boolean): string {
	return [
		`Queue mode: n8n ${DEFAULT_N8N_VERSION}, Postgres, Redis, one main, 2 workers (--concurrency=${WORKER_CONCURRENCY}), one webhook processor; sandbox at ${RATE_LIMIT} requests/s +${LATENCY_MS} ms${quick ? ' (QUICK)' : ''}.`,
		'',
		`Exports: ${result.exports.runs.length} × ${sizes.exportCount} submissions, one API key, manual runs offloaded to the workers, started together.`,
		'',
		sharedExportTable(result.exports),
		'',
		`Trigger: ${sizes.triggerCount} respondents, ${sizes.triggerConcurrency} at a time, delivered to the webhook processor; 2 workers, then worker 2 stopped and 1. Executions/s = successful executions / (first delivery's start → last stoppedAt).`,
		'',
		queueTriggerTable(result.triggers),
		'',
		'Targets:',
		...targetLines(result),
	].join('\n');
}
