/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: runs jest as a child process per n8n release (node:child_process), reads process.env and reports on process.stderr */
/**
 * `npm run test:e2e`: the end-to-end suite once per supported n8n release, newest first
 * (2.41.1, then the last 1.x, 1.123.81), each leg its own jest run with its own n8n.
 * N8N_E2E_VERSION=<release> runs that one only. Arguments go to jest (e.g. a test path).
 * Every leg runs even when one fails; the exit code is non-zero if any failed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, REPO_ROOT } from './lib/paths';

async function runLeg(version: string, jestArgs: string[]): Promise<number> {
	const child = spawn(
		process.execPath,
		[
			require.resolve('jest/bin/jest'),
			'-c',
			join(REPO_ROOT, 'jest.e2e.config.js'),
			'--runInBand',
			...jestArgs,
		],
		{ cwd: REPO_ROOT, env: { ...process.env, N8N_E2E_VERSION: version }, stdio: 'inherit' },
	);
	return await new Promise((resolve) => {
		child.once('error', () => resolve(1));
		child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
	});
}

function minutes(ms: number): string {
	const seconds = Math.round(ms / 1000);
	return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

async function main(): Promise<void> {
	const chosen = process.env.N8N_E2E_VERSION?.trim();
	const versions = chosen ? [chosen] : [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION];
	const results: string[] = [];
	let failed = false;
	for (const version of versions) {
		process.stderr.write(`\n[e2e] ===== n8n ${version} =====\n`);
		const started = Date.now();
		const code = await runLeg(version, process.argv.slice(2));
		failed ||= code !== 0;
		results.push(
			`n8n ${version}: ${code === 0 ? 'passed' : 'FAILED'} in ${minutes(Date.now() - started)}`,
		);
	}
	process.stderr.write(`\n[e2e] ${results.join('; ')}\n`);
	process.exitCode = failed ? 1 : 0;
}

void main();
