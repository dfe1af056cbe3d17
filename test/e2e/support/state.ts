/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: the suite's global setup hands its connection info to the test files through a JSON file named in process.env */
/**
 * What the suite's global setup started, for the test files (and the global teardown):
 * a JSON file whose path is in FILLOUT_E2E_STATE.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

import type { N8nConnection } from './n8n';
import type { Owner } from './n8nClient';
import type { InstalledPackage, PackedPackage } from './pack';
import type { SandboxConnection } from './sandbox';

export const STATE_VARIABLE = 'FILLOUT_E2E_STATE';

export interface E2eState {
	/** Temp folder with the user folder, the tarball and the logs. */
	workDir: string;
	n8n: N8nConnection;
	sandbox: SandboxConnection;
	owner: Owner;
	/** The owner's session (`n8n-auth=…`): test files reuse it instead of logging in. */
	sessionCookie: string;
	packed: PackedPackage;
	installed: InstalledPackage;
	/** An extra API key for the sandbox's demo account, for the tests' own checks. */
	checkApiKey: string;
	startedAt: string;
}

export function stateFile(): string {
	const file = process.env[STATE_VARIABLE];
	if (!file) {
		throw new Error(
			`${STATE_VARIABLE} is not set: run the end-to-end tests with \`npm run test:e2e\` (jest -c jest.e2e.config.js), whose global setup starts n8n`,
		);
	}
	return file;
}

/** The state file's content (the queue-mode tier keeps its own shape in it). */
export function readState<T = E2eState>(file = stateFile()): T {
	return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function readStateIfAny<T = E2eState>(file: string | undefined): T | undefined {
	if (!file || !existsSync(file)) return undefined;
	try {
		return readState<T>(file);
	} catch {
		return undefined;
	}
}

/** Written atomically: the teardown and exit handlers may read it at any moment. */
export function writeState<T = E2eState>(state: T, file = stateFile()): void {
	writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2), 'utf8');
	renameSync(`${file}.tmp`, file);
}
