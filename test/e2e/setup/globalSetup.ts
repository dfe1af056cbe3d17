/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global setup; shares the state file path through process.env and kills the child processes on exit or signals */
/**
 * Starts one n8n and one sandbox for all end-to-end test files (they run in band) and
 * writes how to reach them to a state file (path in FILLOUT_E2E_STATE). The teardown
 * stops them; exit and signal handlers kill them if jest ends some other way.
 */
import { join } from 'node:path';

import { connectionOf } from '../lib/n8n';
import { killGroupsNow } from '../lib/processes';
import { readStateIfAny, STATE_VARIABLE, writeState, type E2eState } from '../lib/state';
import { startE2eEnvironment } from '../lib/environment';

function killFromStateFile(file: string): void {
	const state = readStateIfAny(file);
	if (state) killGroupsNow([state.n8n.pid, state.sandbox.pid]);
}

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const environment = await startE2eEnvironment({
		log: (line) => process.stderr.write(`\n[e2e] ${line}`),
	});
	const file = join(environment.workDir, 'state.json');
	const state: E2eState = {
		workDir: environment.workDir,
		n8n: connectionOf(environment.n8n),
		sandbox: {
			origin: environment.sandbox.origin,
			apiRoot: environment.sandbox.apiRoot,
			pid: environment.sandbox.pid,
			logFile: environment.sandbox.logFile,
		},
		owner: environment.owner,
		packed: environment.packed,
		installed: environment.installed,
		checkApiKey: environment.checkApiKey,
		startedAt: new Date().toISOString(),
	};
	writeState(state, file);
	process.env[STATE_VARIABLE] = file;

	// The test files may restart n8n (new pid): read the file at the last moment.
	process.once('exit', () => killFromStateFile(file));
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			killFromStateFile(file);
			process.kill(process.pid, signal);
		});
	}
	process.stderr.write(`\n[e2e] ready in ${Date.now() - started} ms (state: ${file})\n`);
}
