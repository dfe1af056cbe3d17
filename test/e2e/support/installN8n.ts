/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: runs install-n8n.sh with node:child_process and reads process.env */
/** The pinned n8n (and the Node 24 it runs on), installed once into a cache outside the clone. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_N8N_VERSION, REPO_ROOT, defaultCacheRoot } from './paths';

export interface N8nInstall {
	version: string;
	/** The cache folder holding node_modules/n8n and node_modules/node. */
	dir: string;
	/** Node 24 from the `node` npm package. */
	nodeBinary: string;
	/** n8n's own launcher script, run with `nodeBinary`. */
	n8nScript: string;
}

export interface InstallOptions {
	version?: string;
	/** Cache root (default N8N_E2E_CACHE or ~/.cache/n8n-nodes-fillout-forms). */
	cacheRoot?: string;
	/** Progress of a first install goes here (default: this process's stderr). */
	onProgress?: (line: string) => void;
}

/** The paths of an install folder (no checks). */
export function n8nInstallAt(dir: string, version = DEFAULT_N8N_VERSION): N8nInstall {
	return {
		version,
		dir,
		nodeBinary: join(dir, 'node_modules', '.bin', 'node'),
		n8nScript: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

/**
 * Runs test/e2e/support/install-n8n.sh: instant when the cache holds a finished install,
 * otherwise about 9 minutes on 2 cores (npm install plus two native rebuilds).
 */
export async function installN8n(options: InstallOptions = {}): Promise<N8nInstall> {
	const version = options.version ?? DEFAULT_N8N_VERSION;
	const env: NodeJS.ProcessEnv = {
		...process.env,
		N8N_VERSION: version,
		N8N_E2E_CACHE: options.cacheRoot ?? defaultCacheRoot(process.env),
	};
	const progress = options.onProgress ?? ((line: string) => process.stderr.write(`${line}\n`));
	const dir = await new Promise<string>((resolve, reject) => {
		const child = spawn('bash', [join(REPO_ROOT, 'test', 'e2e', 'support', 'install-n8n.sh')], {
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderrTail = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => {
			const text = chunk.toString();
			stderrTail = (stderrTail + text).slice(-4000);
			for (const line of text.split('\n')) if (line.trim()) progress(line);
		});
		child.once('error', reject);
		child.once('exit', (code) => {
			const lines = stdout.trim().split('\n');
			if (code === 0 && lines.length) resolve(lines[lines.length - 1].trim());
			else reject(new Error(`install-n8n.sh failed (exit ${code}):\n${stderrTail}`));
		});
	});
	const install = n8nInstallAt(dir, version);
	for (const file of [install.nodeBinary, install.n8nScript]) {
		if (!existsSync(file)) throw new Error(`install-n8n.sh finished but ${file} is missing`);
	}
	return install;
}
