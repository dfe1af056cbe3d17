/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global teardown; reads process.env and removes the temp folder with node:fs */
/**
 * Stops every process group the run started (n8n, including restarts, and the
 * sandbox), keeps their logs in .tmp/e2e-logs/n8n-<version>/ of the clone, and removes the temp
 * folder (FILLOUT_E2E_KEEP=1 keeps it).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { copyLogs } from '../support/environment';
import { REPO_ROOT } from '../support/paths';
import { PID_FILE_VARIABLE, readPidFile, stopProcessGroup } from '../support/processes';
import { readStateIfAny, STATE_VARIABLE } from '../support/state';

export default async function globalTeardown(): Promise<void> {
	const pidFile = process.env[PID_FILE_VARIABLE];
	await Promise.all(
		readPidFile(pidFile).map(async (pid) => await stopProcessGroup(pid, { timeoutMs: 10_000 })),
	);
	if (pidFile) rmSync(pidFile, { force: true });
	const state = readStateIfAny(process.env[STATE_VARIABLE]);
	if (!state) return;
	copyLogs(state.workDir, join(REPO_ROOT, '.tmp', 'e2e-logs', `n8n-${state.n8n.install.version}`));
	if (process.env.FILLOUT_E2E_KEEP !== '1') rmSync(state.workDir, { recursive: true, force: true });
	else process.stderr.write(`[e2e] kept ${state.workDir}\n`);
}
