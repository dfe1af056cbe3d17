/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: starts and stops n8n and the sandbox as child process groups (node:child_process, process.kill) and polls with timers */
/**
 * Child processes for the end-to-end suite. Each one runs in its own process group
 * (detached), with stdout and stderr in a log file, so that `stop()` ends it together
 * with whatever it started (n8n's task runners) and no pipe keeps jest waiting.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';

import { sleep } from '../../../sandbox/timers';

export interface ManagedProcess {
	pid: number;
	logFile: string;
	/** Resolves when the group leader has exited. */
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	isRunning(): boolean;
	/** SIGTERM to the group, SIGKILL after `timeoutMs` (default 15 s); resolves when all are gone. */
	stop(options?: StopOptions): Promise<void>;
}

export interface StopOptions {
	/** Time to wait after SIGTERM before SIGKILL. */
	timeoutMs?: number;
	/** Skip SIGTERM: kill at once (a crash). */
	kill?: boolean;
}

export interface SpawnOptions {
	cwd?: string;
	env: NodeJS.ProcessEnv;
	/** stdout and stderr are appended here. */
	logFile: string;
	/** Append the group's id to this file (default: the file named in FILLOUT_E2E_PIDS). */
	pidFile?: string;
}

/**
 * Names a file to which every process group started here is appended at once, so that
 * a cleanup in another module (jest's global setup and teardown, while a test file
 * restarts n8n) can end them all, even ones still starting.
 */
export const PID_FILE_VARIABLE = 'FILLOUT_E2E_PIDS';

/** The group ids recorded in a pid file (none when it does not exist). */
export function readPidFile(file: string | undefined): number[] {
	if (!file || !existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.map((line) => Number(line.trim()))
		.filter((pid) => Number.isInteger(pid) && pid > 1);
}

export function spawnManaged(
	command: string,
	args: string[],
	options: SpawnOptions,
): ManagedProcess {
	const fd = openSync(options.logFile, 'a');
	let running = true;
	try {
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			detached: true,
			stdio: ['ignore', fd, fd],
		});
		if (child.pid === undefined) throw new Error(`could not start ${command}`);
		const pid = child.pid;
		const pidFile = options.pidFile ?? process.env[PID_FILE_VARIABLE];
		if (pidFile) appendFileSync(pidFile, `${pid}\n`);
		const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
			(resolve) => {
				child.once('exit', (code, signal) => {
					running = false;
					resolve({ code, signal });
				});
				child.once('error', () => {
					running = false;
					resolve({ code: null, signal: null });
				});
			},
		);
		return {
			pid,
			logFile: options.logFile,
			exited,
			isRunning: () => running,
			stop: async (stopOptions) => await stopProcessGroup(pid, stopOptions),
		};
	} finally {
		closeSync(fd);
	}
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

/** Whether any process of the group is still alive. */
export function groupAlive(pgid: number): boolean {
	return signalGroup(pgid, 0);
}

/**
 * Ends a process group started by `spawnManaged` (also one started by another module
 * or an earlier run: only the id is needed). Resolves when no member is left.
 */
export async function stopProcessGroup(pgid: number, options: StopOptions = {}): Promise<void> {
	if (!groupAlive(pgid)) return;
	if (!options.kill) {
		signalGroup(pgid, 'SIGTERM');
		const deadline = Date.now() + (options.timeoutMs ?? 15_000);
		while (groupAlive(pgid) && Date.now() < deadline) await sleep(100);
	}
	if (groupAlive(pgid)) {
		signalGroup(pgid, 'SIGKILL');
		const deadline = Date.now() + 5_000;
		while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
	}
}

/** Synchronous last resort (process exit handlers): SIGKILL to each group. */
export function killGroupsNow(pgids: readonly number[]): void {
	for (const pgid of pgids) signalGroup(pgid, 'SIGKILL');
}

/**
 * For a jest global setup: names `<workDir>/pids` in FILLOUT_E2E_PIDS (every group
 * started from now on is recorded there) and, should jest end on exit or a signal
 * (Ctrl-C) instead of through the teardown, kills them all and removes the work folder
 * (unless FILLOUT_E2E_KEEP=1). Returns the pid file.
 */
export function killGroupsOnExit(workDir: string): string {
	const pidFile = `${workDir}/pids`;
	process.env[PID_FILE_VARIABLE] = pidFile;
	const killAll = () => killGroupsNow(readPidFile(pidFile));
	process.once('exit', killAll);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		process.once(signal, () => {
			killAll();
			if (process.env.FILLOUT_E2E_KEEP !== '1') rmSync(workDir, { recursive: true, force: true });
			process.kill(process.pid, signal);
		});
	}
	return pidFile;
}

export { sleep };

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** The last `lines` lines of a log file, for error messages. */
export function logTail(file: string, lines = 40): string {
	if (!existsSync(file)) return '(no log)';
	const text = readFileSync(file, 'utf8');
	return text.split('\n').slice(-lines).join('\n');
}

export interface WaitOptions {
	timeoutMs?: number;
	intervalMs?: number;
	/** Named in the time-out error. */
	description?: string;
}

/**
 * Calls `check` until it returns something other than undefined (or false), and
 * returns that. Errors thrown by `check` count as "not yet"; the last one is reported
 * on time-out.
 */
export async function waitFor<T>(
	check: () => Promise<T | undefined | false> | T | undefined | false,
	options: WaitOptions = {},
): Promise<T> {
	const timeoutMs = options.timeoutMs ?? 30_000;
	const intervalMs = options.intervalMs ?? 200;
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await check();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			lastError = error;
		}
		if (Date.now() >= deadline) {
			const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
			throw new Error(
				`Timed out after ${timeoutMs} ms waiting for ${options.description ?? 'a condition'}${reason}`,
			);
		}
		await sleep(intervalMs);
	}
}

/** The environment without npm's per-script settings (npm_config_*, npm_package_*, …). */
export function cleanEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const clean: NodeJS.ProcessEnv = {};
	for (const [name, value] of Object.entries(env)) {
		if (/^npm_/i.test(name) || name === 'NODE_OPTIONS' || name === 'INIT_CWD') continue;
		clean[name] = value;
	}
	return clean;
}
