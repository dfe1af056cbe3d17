/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: jest global teardown; reads process.env and removes the temp folder with node:fs */
/**
 * Stops n8n (whatever pid the tests left in the state file) and the sandbox, keeps
 * their logs in .tmp/e2e-logs/ of the clone, and removes the temp folder
 * (FILLOUT_E2E_KEEP=1 keeps it).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { copyLogs } from '../lib/environment';
import { REPO_ROOT } from '../lib/paths';
import { stopProcessGroup } from '../lib/processes';
import { readStateIfAny, STATE_VARIABLE } from '../lib/state';

export default async function globalTeardown(): Promise<void> {
	const state = readStateIfAny(process.env[STATE_VARIABLE]);
	if (!state) return;
	await Promise.all([
		stopProcessGroup(state.n8n.pid, { timeoutMs: 10_000 }),
		stopProcessGroup(state.sandbox.pid, { timeoutMs: 5_000 }),
	]);
	rmSync(process.env[STATE_VARIABLE] as string, { force: true });
	copyLogs(state.workDir, join(REPO_ROOT, '.tmp', 'e2e-logs'));
	if (process.env.FILLOUT_E2E_KEEP !== '1') rmSync(state.workDir, { recursive: true, force: true });
	else process.stderr.write(`[e2e] kept ${state.workDir}\n`);
}
