/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test-only: gives n8n-core a private temp N8N_USER_FOLDER, which needs process.env and node:fs/os/path */
/**
 * Gives this test file its own n8n user folder before n8n-core reads it.
 *
 * n8n-core's `InstanceSettings` writes `<N8N_USER_FOLDER>/.n8n/config` (encryption key,
 * instance id) the first time an execution context is built; parallel jest workers
 * sharing one folder race on that file. `test/harness/index.ts` imports this first, so
 * importing the harness is enough; a test that builds n8n-core contexts without the
 * harness imports this module FIRST. It also works as a jest `setupFilesAfterEnv` entry
 * (there `afterAll` exists, so the folder is removed; in `setupFiles` it would not be).
 * jest gives every test file its own copy of `process.env` and its own module registry,
 * so each file gets its own folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const userFolder: string = mkdtempSync(join(tmpdir(), 'n8n-harness-'));

process.env.N8N_USER_FOLDER = userFolder;
// Settings-file permission checks would warn on every run in a fresh temp folder.
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
// Keep n8n's own logger quiet unless a developer asks for it.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'silent';

// `afterAll` exists when this runs inside a test file, not in a `setupFiles` entry.
if (typeof afterAll === 'function') {
	afterAll(() => rmSync(userFolder, { recursive: true, force: true }));
}
