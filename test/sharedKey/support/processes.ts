/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: starts separate node processes (node:child_process) with this node binary (process.execPath) */
/**
 * Runs exports in separate OS processes sharing one API key (exportProcess.ts), started
 * together once every process has loaded n8n-core: the test of several processes on one
 * Fillout account, and the shared-key benchmark.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

import type { ExportProcessResult } from './exportProcess';

const REPO_ROOT = resolve(__dirname, '../../..');
const SCRIPT = join(REPO_ROOT, 'test/sharedKey/support/exportProcess.ts');

interface Started {
	child: ChildProcess;
	ready: Promise<void>;
	result: Promise<ExportProcessResult[]>;
}

function start(args: string[]): Started {
	const child = spawn(
		process.execPath,
		['-r', 'ts-node/register/transpile-only', SCRIPT, ...args],
		{
			cwd: REPO_ROOT,
			stdio: ['pipe', 'pipe', 'inherit'],
		},
	);
	let output = '';
	let isReady = false;
	let onReady: () => void = () => undefined;
	let onNotReady: (error: Error) => void = () => undefined;
	const ready = new Promise<void>((resolveReady, reject) => {
		onReady = resolveReady;
		onNotReady = reject;
	});
	child.stdout?.on('data', (chunk: Buffer) => {
		output += chunk.toString();
		if (!isReady && output.startsWith('ready\n')) {
			isReady = true;
			onReady();
		}
	});
	const result = new Promise<ExportProcessResult[]>((resolveResult, reject) => {
		child.on('error', reject);
		child.on('close', (code, signal) => {
			const line = output.split('\n').find((text) => text.startsWith('['));
			const failure = new Error(
				`export process ended (${code ?? signal}) without a result: ${output.slice(0, 500)}`,
			);
			// A process that ends before it is ready must not leave the others waiting.
			if (!isReady) onNotReady(failure);
			if (line) resolveResult(JSON.parse(line) as ExportProcessResult[]);
			else reject(failure);
		});
	});
	// Whoever awaits only `ready` still sees the failure; this keeps it from going unhandled twice.
	result.catch(() => undefined);
	return { child, ready, result };
}

export interface SharedKeyExport {
	origin: string;
	apiKey: string;
	formId: string;
	/** Exports run at once in each process: [1, 1, 1] is three processes, [2, 1] two. */
	split: number[];
	/** Another copy of nodes/ to run instead of this one. */
	nodeDir?: string;
}

/** Starts the processes, lets their exports begin at once, and returns each export's result. */
export async function exportInProcesses(spec: SharedKeyExport): Promise<ExportProcessResult[]> {
	const args = [spec.origin, spec.apiKey, spec.formId];
	const nodeDir = spec.nodeDir ? [spec.nodeDir] : [];
	const started = spec.split.map((exports) => start([...args, String(exports), ...nodeDir]));
	try {
		await Promise.all(started.map((one) => one.ready));
		for (const one of started) one.child.stdin?.end('go\n');
		return (await Promise.all(started.map((one) => one.result))).flat();
	} finally {
		for (const one of started) if (one.child.exitCode === null) one.child.kill();
	}
}
