/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global setup; shares file paths through process.env and kills the child processes on exit or signals */
/**
 * Starts one n8n (the release in N8N_E2E_VERSION, default 2.41.1) and one sandbox for
 * all end-to-end test files (they run in band) and writes how to reach them to a state
 * file (path in FILLOUT_E2E_STATE). Every process
 * group started, here or by a test file (an n8n restart), is recorded at once in a pid
 * file (FILLOUT_E2E_PIDS): the teardown stops them all, and exit and signal handlers
 * kill them if jest ends some other way, even half-way through a start.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startE2eEnvironment } from '../support/environment';
import { connectionOf } from '../support/n8n';
import { e2eN8nVersion } from '../support/paths';
import { killGroupsOnExit } from '../support/processes';
import { STATE_VARIABLE, writeState, type E2eState } from '../support/state';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const workDir = mkdtempSync(join(tmpdir(), 'fillout-e2e-'));
	killGroupsOnExit(workDir);

	const environment = await startE2eEnvironment({
		workDir,
		n8nVersion: e2eN8nVersion(process.env),
		log: (line) => process.stderr.write(`\n[e2e] ${line}\n`),
	});
	const file = join(workDir, 'state.json');
	const state: E2eState = {
		workDir,
		n8n: connectionOf(environment.n8n),
		sandbox: {
			origin: environment.sandbox.origin,
			apiRoot: environment.sandbox.apiRoot,
			pid: environment.sandbox.pid,
			logFile: environment.sandbox.logFile,
		},
		owner: environment.owner,
		sessionCookie: environment.client.sessionCookie,
		packed: environment.packed,
		installed: environment.installed,
		checkApiKey: environment.checkApiKey,
		startedAt: new Date().toISOString(),
	};
	writeState(state, file);
	process.env[STATE_VARIABLE] = file;
	process.stderr.write(`\n[e2e] ready in ${Date.now() - started} ms (state: ${file})\n`);
}
