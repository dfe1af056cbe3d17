/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global teardown; reads process.env and removes the temp folder with node:fs */
/**
 * Stops every process group the tier started: first n8n and the sandbox (so n8n shuts
 * down while its database and queue are still there), then Postgres and Redis. Keeps
 * the logs in .tmp/e2e-logs/queue/ of the clone and removes the temp folder
 * (FILLOUT_E2E_KEEP=1 keeps it).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT } from '../../support/paths';
import { PID_FILE_VARIABLE, readPidFile } from '../../support/processes';
import { copyQueueLogs, stopQueueCluster, type QueueState } from '../../support/queueMode';
import { readStateIfAny, STATE_VARIABLE } from '../../support/state';

export default async function globalTeardown(): Promise<void> {
	const pidFile = process.env[PID_FILE_VARIABLE];
	const pids = readPidFile(pidFile);
	const state = readStateIfAny<QueueState>(process.env[STATE_VARIABLE]);
	await stopQueueCluster(pids, state);
	if (pidFile) rmSync(pidFile, { force: true });
	if (!state) return;
	copyQueueLogs(state.workDir, join(REPO_ROOT, '.tmp', 'e2e-logs', 'queue'));
	if (process.env.FILLOUT_E2E_KEEP !== '1') rmSync(state.workDir, { recursive: true, force: true });
	else process.stderr.write(`[queue] kept ${state.workDir}\n`);
}
