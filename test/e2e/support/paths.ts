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
	pollingTrigger: `${PACKAGE_NAME}.filloutPollingTrigger`,
	/** n8n derives an AI-tool variant from `usableAsTool`. */
	tool: `${PACKAGE_NAME}.filloutTool`,
} as const;

/**
 * The 2.x release the suite runs on. The registry's newest, 2.41.3, needs packages the
 * registry here lacks (test/e2e/README.md, Notes); install-n8n.sh's default must match.
 */
export const DEFAULT_N8N_VERSION = '2.41.1';

/** The newest n8n 1.x the registry has (the 1.x line ended at 1.123.x); the suite runs on both. */
export const LEGACY_N8N_VERSION = '1.123.81';

/** The n8n release the end-to-end suite runs against: N8N_E2E_VERSION, else the default. */
export function e2eN8nVersion(env: NodeJS.ProcessEnv): string {
	return env.N8N_E2E_VERSION?.trim() || DEFAULT_N8N_VERSION;
}

/** 2 for "2.41.1", 1 for "1.123.81". */
export function n8nMajorVersion(version: string): number {
	const major = Number.parseInt(version, 10);
	if (!Number.isInteger(major)) throw new Error(`not an n8n version: "${version}"`);
	return major;
}

/** Where install-n8n.sh keeps n8n (outside the clone; N8N_E2E_CACHE overrides). */
export function defaultCacheRoot(env: NodeJS.ProcessEnv): string {
	return env.N8N_E2E_CACHE ?? join(homedir(), '.cache', PACKAGE_NAME);
}
