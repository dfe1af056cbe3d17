/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, no-console -- benchmark entry point: reads argv, writes results (node:fs/path), prints the table */
/**
 * `npm run bench`: the benchmarks in the real n8n of the end-to-end suite (the packed
 * package installed as a community package) against the sandbox with Fillout's 5
 * requests per second and 80 ms added to every API request (the latency scenario: 80,
 * 300 and 1,000 ms). BENCHMARKS.md says what each measures.
 *
 *   npm run bench                       # everything
 *   npm run bench -- --only latency     # export, import, trigger, poll, latency, catchup, shared-key, files, queue, read-model (comma-separated)
 *   npm run bench -- --quick            # smaller sizes, to try the harness
 *   npm run bench -- --only latency --cases 300+40busy,300busy --repeat 3
 *                                       # chosen latency cases, each in 3 fresh n8n processes
 *   npm run bench -- --only latency --cases 300+40busy,300+40busy@60s
 *                                       # the second case's export once n8n has been up 60 s
 *
 * Results also go to .tmp/bench/<date>.json and .tmp/bench/<date>.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	connectionOf,
	DEFAULT_N8N_VERSION,
	REPO_ROOT,
	startE2eEnvironment,
	startN8n,
	type RunningN8n,
} from '../test/e2e/support';
import { prepareCatchUp, runCatchUp } from './catchUp';
import { catchUpSection } from './catchUpFigures';
import type { BenchContext, BenchRow, BenchSizes } from './context';
import { prepareExport, runExport } from './export';
import { FILES_FULL, FILES_QUICK, filesHeader, filesTable, runFilesBench } from './files';
import { prepareImport, runImport } from './import';
import { prepareLatency, runLatency } from './latency';
import {
	caseLabel,
	chosenCases,
	latencyHeader,
	latencyTable,
	SEQUENTIAL_EXPORT_GROWTH_MIB,
	type LatencyRow,
} from './latencyFigures';
import { MIB } from './memory';
import { preparePoll, runPoll } from './poll';
import {
	checkTargets,
	describeMachine,
	loadNow,
	machineLine,
	targetLines,
	transferTable,
	triggerTable,
} from './report';
import { queueSection, runQueueBench } from './queueMode';
import { runSharedKeyBench, sharedKeyTable } from './sharedKey';
import { modelTable } from './sharedKeyModel';
import { pacedReadTable } from './pacedReadModel';
import { prepareTrigger, runTrigger } from './trigger';

const LATENCY_MS = 80;
const RATE_LIMIT = 5;

const FULL: BenchSizes = {
	exportCount: 10_000,
	importCount: 1_000,
	triggerCount: 500,
	triggerConcurrency: 20,
};
const QUICK: BenchSizes = {
	exportCount: 1_500,
	importCount: 100,
	triggerCount: 60,
	triggerConcurrency: 20,
};

type Scenario =
	| 'export'
	| 'import'
	| 'trigger'
	| 'poll'
	| 'latency'
	| 'catchup'
	| 'shared-key'
	| 'files'
	| 'queue'
	| 'read-model';
const SCENARIOS: Scenario[] = [
	'export',
	'import',
	'trigger',
	'poll',
	'latency',
	'catchup',
	'shared-key',
	'files',
	'queue',
	'read-model',
];

function parseArgs(argv: string[]) {
	const only = new Set<Scenario>(SCENARIOS);
	let quick = false;
	let keep = false;
	let cases: string | undefined;
	let repeat = 1;
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--quick') quick = true;
		else if (arg === '--keep') keep = true;
		else if (arg === '--cases') cases = argv[++index];
		else if (arg === '--repeat') repeat = Number(argv[++index]);
		else if (arg === '--only') {
			const chosen = (argv[++index] ?? '').split(',').filter(Boolean);
			only.clear();
			for (const name of chosen) {
				if (!SCENARIOS.includes(name as Scenario)) throw new Error(`unknown scenario ${name}`);
				only.add(name as Scenario);
			}
		} else throw new Error(`unknown argument ${arg}`);
	}
	if (!Number.isInteger(repeat) || repeat < 1) throw new Error('--repeat takes a whole number');
	return {
		only,
		sizes: quick ? QUICK : FULL,
		quick,
		keep,
		latencyCases: chosenCases(cases, repeat),
	};
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const log = (line: string) =>
		process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
	const began = Date.now();
	const loadBefore = loadNow();
	// Scenarios with servers of their own (no single shared n8n): run first, reported after the rest.
	const queue = args.only.has('queue') ? await runQueueBench(args.sizes, log) : undefined;
	const own: string[] = [];
	if (args.only.has('shared-key')) own.push(await sharedKeySection(args, log));
	if (queue) own.push(queueSection(queue, args.sizes, args.quick));
	if (args.only.has('files')) own.push(await filesSection(args, log));
	if (args.only.has('read-model')) own.push(await pacedReadTable());
	const ownSections = own.length ? own.join('\n\n') : undefined;
	const inN8n: Scenario[] = ['export', 'import', 'trigger', 'poll', 'latency', 'catchup'];
	if (!inN8n.some((scenario) => args.only.has(scenario))) {
		if (ownSections) {
			const machine = describeMachine(
				queue?.n8nNodeBinary ?? process.execPath,
				queue ? DEFAULT_N8N_VERSION : '–',
				loadBefore,
			);
			machine.loadAfter = loadNow();
			const took = `Benchmark took ${((Date.now() - began) / 1000).toFixed(0)} s.`;
			save(
				`Machine: ${machineLine(machine)}\n\n${ownSections}\n\n${took}`,
				log,
				[...args.only].join('-'),
			);
		}
		return;
	}
	const env = await startE2eEnvironment({
		sandbox: { rateLimit: RATE_LIMIT },
		log,
	});
	let n8n: RunningN8n = env.n8n;
	try {
		const machine = describeMachine(env.install.nodeBinary, env.install.version, loadBefore);
		await env.sandbox.control.setFaults({ latencyMs: LATENCY_MS });
		const ctx: BenchContext = {
			env,
			client: env.client,
			control: env.sandbox.control,
			sizes: args.sizes,
			latencyMs: LATENCY_MS,
			n8n: () => n8n,
			restartN8n: async (whileDown) => {
				if (whileDown) {
					await n8n.stop();
					try {
						await whileDown();
					} finally {
						n8n = await startN8n({ ...connectionOf(n8n) });
					}
				} else n8n = await n8n.restart();
				return n8n;
			},
			log,
		};

		log('preparing accounts, forms, submissions and credentials');
		const exportSetups = args.only.has('export') ? await prepareExport(ctx) : [];
		const importSetups = args.only.has('import') ? await prepareImport(ctx) : [];
		const triggerSetup = args.only.has('trigger') ? await prepareTrigger(ctx) : undefined;
		const pollSetup = args.only.has('poll') ? await preparePoll(ctx) : undefined;
		const latencySetups = args.only.has('latency')
			? await prepareLatency(ctx, args.latencyCases)
			: [];
		const catchUpSetup = args.only.has('catchup') ? await prepareCatchUp(ctx) : undefined;

		const rows: BenchRow[] = [];
		if (exportSetups.length) rows.push(...(await runExport(ctx, exportSetups)));
		if (importSetups.length) rows.push(...(await runImport(ctx, importSetups)));
		if (triggerSetup) rows.push(...(await runTrigger(ctx, triggerSetup)));
		if (pollSetup) rows.push(...(await runPoll(ctx, pollSetup)));
		const latencyRows: LatencyRow[] = latencySetups.length
			? await runLatency(ctx, latencySetups, LATENCY_MS)
			: [];
		const catchUp = catchUpSetup ? await runCatchUp(ctx, catchUpSetup) : undefined;
		machine.loadAfter = loadNow();

		const sizes = args.sizes;
		const parts = [`Machine: ${machineLine(machine)}`];
		if (rows.length) {
			parts.push(
				`Sandbox: ${RATE_LIMIT} requests/s per key, +${LATENCY_MS} ms per API request. Sizes: export ${sizes.exportCount}, import ${sizes.importCount}, trigger ${sizes.triggerCount} at ${sizes.triggerConcurrency} at a time${args.quick ? ' (QUICK)' : ''}.`,
				"Wall = the execution's startedAt → stoppedAt in n8n's execution record. Memory = RSS of the n8n process group (main + task runners), sampled every 50 ms, in a fresh n8n per export variant; growth = peak − median of a 1.5 s baseline before the run.",
			);
		}
		if (rows.some((row) => row.scenario !== 'trigger')) parts.push('', transferTable(rows));
		if (rows.some((row) => row.scenario === 'trigger')) parts.push('', triggerTable(rows));
		const notes = rows
			.filter((row) => row.notes.length)
			.map((row) => `- ${row.scenario} / ${row.variant}: ${row.notes.join('; ')}`);
		if (notes.length) parts.push('', 'Notes:', ...notes);
		if (latencyRows.length) parts.push('', latencySection(latencyRows, sizes, args.quick));
		if (catchUp) {
			parts.push('', catchUpSection(catchUp.idle, catchUp.backlog, LATENCY_MS, args.quick));
		}
		if (ownSections) parts.push('', ownSections);
		if (rows.length) parts.push('', 'Targets:', targetLines(checkTargets(rows)));
		parts.push('', `Benchmark took ${((Date.now() - began) / 1000).toFixed(0)} s.`);
		const text = parts.join('\n');
		console.log(text);

		const out = join(REPO_ROOT, '.tmp', 'bench');
		mkdirSync(out, { recursive: true });
		const stamp = machine.date.replace(/[:.]/g, '-');
		writeFileSync(
			join(out, `${stamp}.json`),
			JSON.stringify({ machine, sizes, rows, latencyRows, catchUp }, null, 2),
		);
		writeFileSync(join(out, `${stamp}.md`), `${text}\n`);
		log(`results in ${join(out, stamp)}.{json,md}`);
	} finally {
		await n8n.stop();
		await env.stop({
			keepWorkDir: args.keep,
			copyLogsTo: join(REPO_ROOT, '.tmp', 'bench', 'logs'),
		});
	}
}

/** The latency table with its header and each run's notes. */
function latencySection(rows: LatencyRow[], sizes: BenchSizes, quick: boolean): string {
	const notes = rows
		.filter(({ result }) => result.notes.length)
		.map((row) => `- ${caseLabel(row)} ${row.run}: ${row.result.notes.join('; ')}`);
	// The memory reference is for 10,000 submissions: not judged at --quick's size.
	const growthLimit = (latencyMs: number) =>
		quick ? undefined : SEQUENTIAL_EXPORT_GROWTH_MIB[latencyMs] * MIB;
	return [
		latencyHeader(sizes, quick),
		'',
		latencyTable(rows, growthLimit),
		'',
		'Latency notes:',
		...notes,
	].join('\n');
}

/** Several processes on one key (test/sharedKey), without n8n: its own sandbox. */
async function sharedKeySection(
	args: ReturnType<typeof parseArgs>,
	log: (line: string) => void,
): Promise<string> {
	const count = Number(process.env.SHARED_KEY_SUBMISSIONS ?? args.sizes.exportCount);
	const rows = await runSharedKeyBench(count, log);
	return [
		`Shared key: ${count} submissions exported by separate node processes (the node in n8n-core's engine), one API key, sandbox at ${RATE_LIMIT} requests/s +${LATENCY_MS} ms${args.quick ? ' (QUICK)' : ''}. Wall = the longest export from their common start; floor = 1 process: the request floor, N processes: N × requests / ${RATE_LIMIT} per s.`,
		'',
		sharedKeyTable(rows),
		'',
		modelTable(),
	].join('\n');
}

/** Download Files at scale (benchmarks/files.ts): each variant its own n8n and sandbox. */
async function filesSection(
	args: ReturnType<typeof parseArgs>,
	log: (line: string) => void,
): Promise<string> {
	const sizes = args.quick ? FILES_QUICK : FILES_FULL;
	const run = await runFilesBench(sizes, log);
	return [
		filesHeader(sizes, args.quick),
		run.machine ? `Machine: ${machineLine(run.machine)}` : 'Machine: n8n did not start',
		'',
		filesTable(run.rows),
	].join('\n');
}

/** Prints the text and keeps a copy in .tmp/bench/ (named by the date and the scenarios). */
function save(text: string, log: (line: string) => void, suffix: string): void {
	console.log(text);
	const out = join(REPO_ROOT, '.tmp', 'bench');
	mkdirSync(out, { recursive: true });
	const file = join(out, `${new Date().toISOString().replace(/[:.]/g, '-')}-${suffix}.md`);
	writeFileSync(file, `${text}\n`);
	log(`results in ${file}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
