/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: runs jest as a child process per n8n release (node:child_process), reads process.env and reports on process.stderr */
/**
 * `npm run test:e2e`: the end-to-end suite once per supported n8n release, newest first
 * (2.41.1, then the last 1.x, 1.123.81), each leg its own jest run with its own n8n,
 * then the queue-mode tier (jest.queue.config.js: n8n 2.41.1 as main, workers and
 * webhook processor on Postgres and Redis).
 * N8N_E2E_VERSION=<release> runs that release's leg only; N8N_E2E_QUEUE=only runs the
 * queue-mode leg only, N8N_E2E_QUEUE=skip leaves it out. Arguments go to jest (e.g. a
 * test path). Every leg runs even when one fails; the exit code is non-zero if any failed.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION, REPO_ROOT } from './support/paths';

interface Leg {
	name: string;
	config: string;
	version: string;
}

const releaseLeg = (version: string): Leg => ({
	name: `n8n ${version}`,
	config: 'jest.e2e.config.js',
	version,
});

const QUEUE_LEG: Leg = {
	name: `queue mode (${DEFAULT_N8N_VERSION})`,
	config: 'jest.queue.config.js',
	version: DEFAULT_N8N_VERSION,
};

/** The legs to run, from N8N_E2E_VERSION and N8N_E2E_QUEUE. */
function chooseLegs(env: NodeJS.ProcessEnv): Leg[] {
	const queue = env.N8N_E2E_QUEUE?.trim();
	if (queue === 'only') return [QUEUE_LEG];
	const chosen = env.N8N_E2E_VERSION?.trim();
	if (chosen) return [releaseLeg(chosen)];
	const releases = [releaseLeg(DEFAULT_N8N_VERSION), releaseLeg(LEGACY_N8N_VERSION)];
	return queue === 'skip' ? releases : [...releases, QUEUE_LEG];
}

async function runLeg(leg: Leg, jestArgs: string[]): Promise<number> {
	const child = spawn(
		process.execPath,
		[
			require.resolve('jest/bin/jest'),
			'-c',
			join(REPO_ROOT, leg.config),
			'--runInBand',
			// A test path given for one leg matches no file of another.
			...(jestArgs.length > 0 ? ['--passWithNoTests'] : []),
			...jestArgs,
		],
		{ cwd: REPO_ROOT, env: { ...process.env, N8N_E2E_VERSION: leg.version }, stdio: 'inherit' },
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
	const results: string[] = [];
	let failed = false;
	for (const leg of chooseLegs(process.env)) {
		process.stderr.write(`\n[e2e] ===== ${leg.name} =====\n`);
		const started = Date.now();
		const code = await runLeg(leg, process.argv.slice(2));
		failed ||= code !== 0;
		results.push(
			`${leg.name}: ${code === 0 ? 'passed' : 'FAILED'} in ${minutes(Date.now() - started)}`,
		);
	}
	process.stderr.write(`\n[e2e] ${results.join('; ')}\n`);
	process.exitCode = failed ? 1 : 0;
}

void main();
