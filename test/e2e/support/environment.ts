/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: prepares temp folders (node:fs/os/path) and reports progress on process.stderr */
/**
 * Everything the end-to-end suite (and benchmarks, the playground, browser tests)
 * needs, in one call: the cached n8n, the package packed and installed as a community
 * package into a fresh user folder, the sandbox, n8n started, and an owner signed in.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { installN8n, type N8nInstall } from './installN8n';
import { startN8n, type RunningN8n } from './n8n';
import { DEFAULT_OWNER, N8nClient, type Owner } from './n8nClient';
import { installPackageInto, packPackage, type InstalledPackage, type PackedPackage } from './pack';
import { NODE_TYPES } from './paths';
import {
	startSandboxProcess,
	type RunningSandboxProcess,
	type SandboxProcessOptions,
} from './sandbox';

export interface E2eEnvironmentOptions {
	/** Default: a new temp folder (removed by `stop()` unless `keepWorkDir`). */
	workDir?: string;
	n8nVersion?: string;
	/** Build before packing (default true). */
	build?: boolean;
	sandbox?: SandboxProcessOptions;
	/** Extra environment for n8n. */
	n8nEnv?: Record<string, string>;
	owner?: Owner;
	/** Progress lines (default: stderr). */
	log?: (line: string) => void;
}

export interface E2eEnvironment {
	workDir: string;
	install: N8nInstall;
	packed: PackedPackage;
	installed: InstalledPackage;
	sandbox: RunningSandboxProcess;
	n8n: RunningN8n;
	/** Signed in as the owner. */
	client: N8nClient;
	owner: Owner;
	/** An extra API key for the sandbox's demo account, for checks outside n8n. */
	checkApiKey: string;
	stop(options?: { keepWorkDir?: boolean; copyLogsTo?: string }): Promise<void>;
}

export const CHECK_API_KEY = 'e2e-check-key';

/** Fails unless n8n lists the package's node types (it loaded the community package). */
export async function assertPackageLoaded(client: N8nClient): Promise<void> {
	const names = new Set((await client.nodeTypes()).map((type) => type.name));
	const missing = [NODE_TYPES.action, NODE_TYPES.trigger].filter((name) => !names.has(name));
	if (missing.length) {
		throw new Error(`n8n did not load ${missing.join(', ')} from the community package`);
	}
}

export async function startE2eEnvironment(
	options: E2eEnvironmentOptions = {},
): Promise<E2eEnvironment> {
	const log = options.log ?? ((line: string) => process.stderr.write(`[e2e] ${line}\n`));
	const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'fillout-e2e-'));
	mkdirSync(workDir, { recursive: true });
	const owner = options.owner ?? DEFAULT_OWNER;
	let sandbox: RunningSandboxProcess | undefined;
	let n8n: RunningN8n | undefined;
	let started = false;
	try {
		const time = Date.now();
		log('installing n8n (cached after the first run), building and packing the package');
		const [install, packed] = await Promise.all([
			installN8n({ version: options.n8nVersion }),
			packPackage(join(workDir, 'pack'), { build: options.build }),
		]);
		const userFolder = join(workDir, 'user');
		const installed = await installPackageInto(userFolder, packed.tarball);
		log(
			`n8n ${install.version} at ${install.dir}; ${packed.name}@${packed.version} installed (${Date.now() - time} ms)`,
		);

		const sandboxOptions: SandboxProcessOptions = {
			logFile: join(workDir, 'sandbox.log'),
			...options.sandbox,
			apiKeys: [CHECK_API_KEY, ...(options.sandbox?.apiKeys ?? [])],
		};
		[sandbox, n8n] = await Promise.all([
			startSandboxProcess(sandboxOptions),
			startN8n({
				install,
				userFolder,
				logFile: join(workDir, 'n8n.log'),
				env: options.n8nEnv,
			}),
		]);
		log(`sandbox at ${sandbox.origin}, n8n at ${n8n.url} (${Date.now() - time} ms)`);

		const client = new N8nClient(n8n.url);
		await client.signIn(owner);
		await assertPackageLoaded(client);

		const running = { sandbox, n8n };
		started = true;
		return {
			workDir,
			install,
			packed,
			installed,
			sandbox,
			n8n,
			client,
			owner,
			checkApiKey: CHECK_API_KEY,
			stop: async (stopOptions = {}) => {
				await Promise.all([running.n8n.stop(), running.sandbox.stop()]);
				if (stopOptions.copyLogsTo) copyLogs(workDir, stopOptions.copyLogsTo);
				if (!stopOptions.keepWorkDir) rmSync(workDir, { recursive: true, force: true });
			},
		};
	} finally {
		if (!started) await Promise.all([n8n?.stop(), sandbox?.stop()]);
	}
}

/** Copies n8n.log and sandbox.log of a work folder (for a look after the run). */
export function copyLogs(workDir: string, destination: string): void {
	mkdirSync(destination, { recursive: true });
	for (const name of ['n8n.log', 'sandbox.log']) {
		const file = join(workDir, name);
		if (existsSync(file)) cpSync(file, join(destination, name));
	}
}
