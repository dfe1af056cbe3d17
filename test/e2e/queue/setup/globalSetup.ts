/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global setup; shares file paths through process.env and kills the child processes on exit or signals */
/**
 * The queue-mode tier's one environment for all its files: Postgres, Redis, the sandbox
 * and n8n 2.41.1 as one main, two workers and one webhook processor (lib/queueMode.ts).
 * Like the main suite's setup, every process group is recorded in the pid file
 * (FILLOUT_E2E_PIDS) the moment it starts, and exit and signal handlers kill them all.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION } from '../../support/paths';
import { killGroupsOnExit } from '../../support/processes';
import { startQueueEnvironment } from '../../support/queueMode';
import { STATE_VARIABLE, writeState } from '../../support/state';

export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const workDir = mkdtempSync(join(tmpdir(), 'fillout-queue-'));
	killGroupsOnExit(workDir);

	const file = join(workDir, 'state.json');
	process.env[STATE_VARIABLE] = file;
	const { state } = await startQueueEnvironment({
		workDir,
		n8nVersion: DEFAULT_N8N_VERSION,
		log: (line) => process.stderr.write(`\n[queue] ${line}\n`),
	});
	writeState(state, file);
	process.stderr.write(`\n[queue] ready in ${Date.now() - started} ms (state: ${file})\n`);
}
