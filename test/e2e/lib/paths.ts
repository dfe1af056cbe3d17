/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: locates the repository (__dirname) and the n8n cache with node:path/os */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The clone this suite belongs to. */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/** The package under test, as n8n prefixes its node and credential types. */
export const PACKAGE_NAME = 'n8n-nodes-fillout-forms';

export const NODE_TYPES = {
	action: `${PACKAGE_NAME}.fillout`,
	trigger: `${PACKAGE_NAME}.filloutTrigger`,
	/** n8n derives an AI-tool variant from `usableAsTool`. */
	tool: `${PACKAGE_NAME}.filloutTool`,
} as const;

export const DEFAULT_N8N_VERSION = '2.41.1';

/** Where install-n8n.sh keeps n8n (outside the clone; N8N_E2E_CACHE overrides). */
export function defaultCacheRoot(env: NodeJS.ProcessEnv): string {
	return env.N8N_E2E_CACHE ?? join(homedir(), '.cache', PACKAGE_NAME);
}
