/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tool: hashes the files n8n stored (node:fs, node:crypto) and waits with setTimeout for the memory baseline */
/**
 * Download Files at scale (issue 12): one execution of Manual Trigger → Fillout,
 * Submission → Get Many (Download Files) over a form whose submissions carry many files
 * of several MB, in a fresh real n8n per variant (release and binary data mode), with
 * the memory of n8n's process group sampled during the run. Every file is then checked:
 * its binary property in the execution's data, its size, and its bytes (hashed from
 * n8n's store on disk, or from the execution's base64 in the in-memory mode) against
 * what the sandbox served.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { fileChunks, fileOriginFor } from '../sandbox/files';
import {
	DEFAULT_N8N_VERSION,
	LEGACY_N8N_VERSION,
	REPO_ROOT,
	createApiKeyCredential,
	groupAlive,
	startE2eEnvironment,
	type CredentialRef,
	type E2eEnvironment,
	type Execution,
	type WorkflowDefinition,
} from '../test/e2e/support';
import { runTimed, type TimedRun } from './measure';
import { filloutExportWorkflow } from './workflows';
import { MIB, MemorySampler, type MemorySummary } from './memory';
import { describeMachine, loadNow, type Machine } from './report';

const LATENCY_MS = 80;
const RATE_LIMIT = 5;
const BASELINE_MS = 1500;
const SAMPLE_MS = 50;
const RUN_TIMEOUT_MS = 900_000;
/** Reading back an execution that holds its files as base64 takes a while. */
const READ_TIMEOUT_MS = 300_000;
/** Filesystem mode must keep the growth of n8n's process group under this (issue 12). */
export const FILES_MEMORY_TARGET = 200 * MIB;

export interface FilesSizes {
	submissions: number;
	filesPerSubmission: number;
	fileBytes: number;
}

export const FILES_FULL: FilesSizes = {
	submissions: 100,
	filesPerSubmission: 2,
	fileBytes: 5 * MIB,
};
export const FILES_QUICK: FilesSizes = { submissions: 10, filesPerSubmission: 2, fileBytes: MIB };

interface FilesVariant {
	slug: string;
	version: string;
	mode: 'filesystem' | 'default';
	label: string;
	/** Files this many times smaller than the scenario's (what the in-memory mode can finish). */
	shrink?: number;
}

/** The risky in-memory variants last, so that the others are measured whatever they do. */
export const FILES_VARIANTS: FilesVariant[] = [
	{
		slug: '2.41-fs',
		version: DEFAULT_N8N_VERSION,
		mode: 'filesystem',
		label: `n8n ${DEFAULT_N8N_VERSION}, filesystem`,
	},
	{
		slug: '1.123-fs',
		version: LEGACY_N8N_VERSION,
		mode: 'filesystem',
		label: `n8n ${LEGACY_N8N_VERSION}, filesystem`,
	},
	{
		slug: '1.123-default',
		version: LEGACY_N8N_VERSION,
		mode: 'default',
		label: `n8n ${LEGACY_N8N_VERSION}, default`,
	},
	{
		slug: '1.123-default-small',
		version: LEGACY_N8N_VERSION,
		mode: 'default',
		label: `n8n ${LEGACY_N8N_VERSION}, default`,
		shrink: 5,
	},
];

export interface FilesRow {
	variant: string;
	status: string;
	expectedFiles: number;
	fileBytes: number;
	/** Binary properties in the execution's output with the expected size. */
	files?: number;
	bytes?: number;
	/** Files whose stored bytes hash like the sandbox's. */
	hashed?: number;
	/** Requests to the sandbox's file routes, and to its API, during the run. */
	fileRequests: number;
	apiRequests: number;
	wallMs?: number;
	memory?: MemorySummary;
	notes: string[];
}

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
const fileName = (submission: number, file: number) => `file-${submission}-${file}.pdf`;
const filePath = (submission: number, file: number) =>
	`/files/b${submission}-${file}/${fileName(submission, file)}`;

/** The form and its submissions: each carries `filesPerSubmission` uploads of `fileBytes`. */
async function prepareForm(env: E2eEnvironment, sizes: FilesSizes, label: string) {
	const account = await env.sandbox.control.createAccount({ name: `bench files ${label}` });
	const form = await env.sandbox.control.createForm({
		name: `Files ${label}`,
		accountId: account.id,
		questions: [
			{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
			{ id: 'qFiles', name: 'Attachments', type: 'FileUpload' },
		],
	});
	const origin = fileOriginFor(env.sandbox.origin);
	for (let s = 0; s < sizes.submissions; s++) {
		const files = Array.from({ length: sizes.filesPerSubmission }, (_, f) => ({
			url: `${origin}${filePath(s, f)}?size=${sizes.fileBytes}`,
			filename: fileName(s, f),
		}));
		await env.sandbox.control.respond(form.id, {
			answers: { qName: `Respondent ${s}`, qFiles: files },
			fillUnanswered: false,
			submission: { documents: [] },
		});
	}
	const credential = await createApiKeyCredential(
		env.client,
		`Fillout files ${label} ${account.id}`,
		account.apiKey,
		account.apiRoot,
	);
	return { formId: form.id, credential, apiKey: account.apiKey };
}

// The sandbox serves the files from 127.0.0.1 / localhost, refused unless private addresses are allowed.
const filesWorkflow = (name: string, credential: CredentialRef, formId: string) =>
	filloutExportWorkflow(name, credential, formId, {
		downloadFiles: true,
		fileOptions: { allowPrivateAddresses: true },
	});

/**
 * What n8n's log says went wrong after `offset`: an execution whose data it cannot save
 * (in the in-memory mode, 1 GB of base64 is more than one string can hold) stays
 * "running" in its record for good.
 */
function hookFailure(logFile: string, offset: number): string | undefined {
	const text = readFileSync(logFile).subarray(offset).toString('utf8');
	const failure = /There was a problem running hook "(\w+)" (\w*Error: [^\n]*)/.exec(text);
	return failure
		? `n8n could not finish the execution (hook ${failure[1]}: ${failure[2]})`
		: undefined;
}

/**
 * The run, or an error as soon as n8n's process group is gone (out of memory, a crash)
 * or its log shows that the execution will never be recorded as ended.
 */
async function runWhileAlive(env: E2eEnvironment, workflow: WorkflowDefinition) {
	const offset = statSync(env.n8n.logFile).size;
	const began = Date.now();
	let watching = true;
	const watch = async (): Promise<never> => {
		while (watching) {
			await sleep(1000);
			if (!watching) break;
			const failure = groupAlive(env.n8n.pid)
				? hookFailure(env.n8n.logFile, offset)
				: 'n8n exited during the run';
			if (failure) throw new Error(`${failure}, ${((Date.now() - began) / 1000).toFixed(0)} s in`);
		}
		return await new Promise<never>(() => {});
	};
	try {
		return await Promise.race([runTimed(env.client, workflow, RUN_TIMEOUT_MS), watch()]);
	} finally {
		watching = false;
	}
}

async function sha256OfStream(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of chunks) hash.update(chunk);
	return hash.digest('hex');
}

interface StoredBinary {
	fileName?: string;
	id?: string;
	data?: string;
}

/** Where n8n's filesystem mode keeps a binary (2.x: `.n8n/storage`, 1.x: `.n8n/binaryData`). */
function storedFile(env: E2eEnvironment, id: string): string | undefined {
	const fileId = id.slice(id.indexOf(':') + 1);
	return ['storage', 'binaryData']
		.map((dir) => join(env.n8n.userFolder, '.n8n', dir, fileId))
		.find((path) => existsSync(path));
}

/** Size and hash of one binary as n8n stored it; undefined when its bytes are nowhere. */
async function storedBytes(env: E2eEnvironment, binary: StoredBinary) {
	if (binary.id) {
		const path = storedFile(env, binary.id);
		if (!path) return undefined;
		let size = 0;
		const counted = async function* () {
			for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
				size += chunk.length;
				yield chunk;
			}
		};
		const hash = await sha256OfStream(counted());
		return { size, hash };
	}
	if (typeof binary.data !== 'string') return undefined;
	const bytes = Buffer.from(binary.data, 'base64');
	return { size: bytes.length, hash: await sha256OfStream([bytes]) };
}

/** Counts the files in the output that have the right size and the sandbox's bytes. */
async function checkFiles(env: E2eEnvironment, execution: Execution, sizes: FilesSizes) {
	const expected = new Map<string, string>();
	for (let s = 0; s < sizes.submissions; s++) {
		for (let f = 0; f < sizes.filesPerSubmission; f++) expected.set(fileName(s, f), filePath(s, f));
	}
	const items = execution.rawItems('Fillout') as Array<{ binary?: Record<string, StoredBinary> }>;
	const result = { files: 0, bytes: 0, hashed: 0, notes: [] as string[] };
	for (const binary of items.flatMap((item) => Object.values(item.binary ?? {}))) {
		const path = expected.get(binary.fileName ?? '');
		const stored = await storedBytes(env, binary);
		if (!path || !stored) {
			result.notes.push(`${binary.fileName}: ${path ? 'bytes not found' : 'not expected'}`);
			continue;
		}
		expected.delete(binary.fileName ?? '');
		if (stored.size !== sizes.fileBytes) continue;
		result.files++;
		result.bytes += stored.size;
		if (stored.hash === (await sha256OfStream(fileChunks(path, sizes.fileBytes)))) result.hashed++;
	}
	if (expected.size) result.notes.push(`${expected.size} files missing from the output`);
	return result;
}

interface FileLog {
	/** Requests to the file routes since the last reset. */
	requests: number;
}

async function sandboxCounts(env: E2eEnvironment, apiKey: string) {
	const log = (await (await fetch(`${env.sandbox.origin}/_sandbox/files`)).json()) as FileLog;
	const stats = await env.sandbox.control.stats();
	return { fileRequests: log.requests, apiRequests: stats.byKey[apiKey]?.total ?? 0 };
}

/** The measured run and what it produced; errors become the row's status. */
async function measure(
	env: E2eEnvironment,
	variant: FilesVariant,
	sizes: FilesSizes,
	log: (line: string) => void,
): Promise<FilesRow> {
	const warm = await prepareForm(env, { ...sizes, submissions: 2, fileBytes: 1000 }, 'warm-up');
	const main = await prepareForm(env, sizes, variant.slug);
	await runTimed(
		env.client,
		filesWorkflow(`files ${variant.slug} warm-up`, warm.credential, warm.formId),
	);
	await fetch(`${env.sandbox.origin}/_sandbox/files/reset`, { method: 'POST' });
	await env.sandbox.control.resetStats();

	const sampler = new MemorySampler(env.n8n.pid, SAMPLE_MS);
	sampler.start();
	await sleep(BASELINE_MS);
	sampler.markBaseline();
	log(`files ${variant.slug}: running`);
	const workflow = filesWorkflow(`files ${variant.slug}`, main.credential, main.formId);
	const run: TimedRun | Error = await runWhileAlive(env, workflow).catch((error: Error) => error);
	const memory = sampler.stop();
	const counts = await sandboxCounts(env, main.apiKey);
	const row: FilesRow = {
		variant: variant.label,
		status: run instanceof Error ? run.message : run.status,
		expectedFiles: sizes.submissions * sizes.filesPerSubmission,
		fileBytes: sizes.fileBytes,
		...counts,
		memory,
		notes: [],
	};
	if (run instanceof Error) return row;
	row.wallMs = run.wallMs;
	log(`files ${variant.slug}: ${run.status} in ${run.wallMs} ms; checking the files`);
	const execution = await env.client
		.getExecution(run.executionId, READ_TIMEOUT_MS)
		.catch((error: Error) => error);
	if (execution instanceof Error || !execution) {
		row.notes.push(`execution data not readable: ${execution?.message ?? 'not found'}`);
		return row;
	}
	if (execution.error) row.notes.push(`error: ${execution.error.message}`);
	const checked = await checkFiles(env, execution, sizes).catch((error: Error) => error);
	if (checked instanceof Error) row.notes.push(`files not checked: ${checked.message}`);
	else Object.assign(row, { ...checked, notes: [...row.notes, ...checked.notes] });
	return row;
}

/** One variant in its own environment (fresh n8n, user folder and sandbox). */
async function runVariant(
	variant: FilesVariant,
	sizes: FilesSizes,
	run: FilesRun,
	log: (line: string) => void,
): Promise<FilesRow> {
	log(`files ${variant.slug}: starting n8n ${variant.version} (${variant.mode} mode)`);
	const env = await startE2eEnvironment({
		n8nVersion: variant.version,
		build: run.rows.length === 0,
		sandbox: { rateLimit: RATE_LIMIT },
		n8nEnv: { N8N_DEFAULT_BINARY_DATA_MODE: variant.mode },
		log,
	});
	run.machine ??= describeMachine(env.install.nodeBinary, variant.version, run.loadBefore);
	try {
		await env.sandbox.control.setFaults({ latencyMs: LATENCY_MS });
		return await measure(env, variant, sizes, log);
	} finally {
		await env.stop({ copyLogsTo: join(REPO_ROOT, '.tmp', 'bench', `logs-files-${variant.slug}`) });
	}
}

export interface FilesRun {
	rows: FilesRow[];
	/** Described when the first n8n started (its Node), with the load before and after. */
	machine?: Machine;
	loadBefore: number[];
}

export async function runFilesBench(
	sizes: FilesSizes,
	log: (line: string) => void,
): Promise<FilesRun> {
	const run: FilesRun = { rows: [], loadBefore: loadNow() };
	for (const variant of FILES_VARIANTS) {
		const own = { ...sizes, fileBytes: Math.round(sizes.fileBytes / (variant.shrink ?? 1)) };
		const row = await runVariant(variant, own, run, log).catch(
			(error: Error): FilesRow => ({
				variant: variant.label,
				status: `did not run: ${error.message.split('\n')[0]}`,
				expectedFiles: own.submissions * own.filesPerSubmission,
				fileBytes: own.fileBytes,
				fileRequests: 0,
				apiRequests: 0,
				notes: [],
			}),
		);
		log(`files ${variant.slug}: ${row.status}`);
		run.rows.push(row);
	}
	if (run.machine) run.machine.loadAfter = loadNow();
	return run;
}

const size = (bytes: number) =>
	bytes >= MIB ? `${(bytes / MIB).toFixed(bytes % MIB ? 1 : 0)} MiB` : `${bytes} B`;
const mib = (bytes?: number) => (bytes === undefined ? '–' : `${(bytes / MIB).toFixed(0)} MiB`);

/** The target is for filesystem mode; the in-memory mode is measured to state what it does. */
function targetCell(row: FilesRow): string {
	const growth = row.memory?.growth;
	if (growth === undefined) return '–';
	if (!row.variant.endsWith('filesystem')) return 'no target';
	return growth < FILES_MEMORY_TARGET ? 'yes' : 'NO';
}

export function filesTable(rows: FilesRow[]): string {
	const lines = [
		'| variant (binary data mode) | files × size | execution | files (right size) | bytes hash-checked | file requests | API requests | wall | MB/s | RSS baseline | RSS peak | growth | growth < 200 MiB |',
		'| --- | --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |',
	];
	for (const row of rows) {
		const rate = row.wallMs && row.bytes ? (row.bytes / 1e6 / (row.wallMs / 1000)).toFixed(1) : '–';
		lines.push(
			`| ${row.variant} | ${row.expectedFiles} × ${size(row.fileBytes)} | ${row.status} | ${row.files ?? '–'}/${row.expectedFiles} | ${row.hashed ?? '–'} (${mib(row.bytes)}) | ${row.fileRequests} | ${row.apiRequests} | ${row.wallMs === undefined ? '–' : `${(row.wallMs / 1000).toFixed(1)} s`} | ${rate} | ${mib(row.memory?.baseline)} | ${mib(row.memory?.peak)} | ${mib(row.memory?.growth)} | ${targetCell(row)} |`,
		);
	}
	const notes = rows.flatMap((row) => row.notes.map((note) => `- ${row.variant}: ${note}`));
	return notes.length ? `${lines.join('\n')}\n\nNotes:\n${notes.join('\n')}` : lines.join('\n');
}

export function filesHeader(sizes: FilesSizes, quick: boolean): string {
	const count = sizes.submissions * sizes.filesPerSubmission;
	return `Download Files: one execution, Manual Trigger → Fillout Submission → Get Many (Return All, Download Files) over ${sizes.submissions} submissions × ${sizes.filesPerSubmission} files of ${mib(sizes.fileBytes)} (${count} files, ${mib(count * sizes.fileBytes)}; a row with smaller files says so)${quick ? ' (QUICK)' : ''}; each variant in a fresh n8n and sandbox (${RATE_LIMIT} requests/s, +${LATENCY_MS} ms per API request; file routes are not API calls). Wall = the execution's startedAt → stoppedAt. Memory = RSS of n8n's process group every ${SAMPLE_MS} ms; growth = peak − median of a ${BASELINE_MS / 1000} s baseline after a warm-up run.`;
}
