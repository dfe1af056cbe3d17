/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: installs and runs Postgres and Redis as child processes (node:child_process/fs/path, process.getuid) */
/**
 * The database and the queue of n8n's queue mode, for the queue-mode tier: Debian's
 * Postgres and Redis (installed by scripts/ensure-queue-services.sh when missing), each
 * started in the foreground as a process group of its own (so the suite's teardown
 * stops it like n8n), on a free loopback port, with its data in a temp folder.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from './paths';
import type { StopOptions } from './processes';
import { cleanEnvironment, freePort, logTail, spawnManaged, waitFor } from './processes';

const run = promisify(execFile);

export interface PostgresConnection {
	host: string;
	port: number;
	database: string;
	user: string;
	/** Postgres's bin folder (psql). */
	binDir: string;
	pid: number;
	logFile: string;
}

export interface RedisConnection {
	host: string;
	port: number;
	pid: number;
	logFile: string;
}

interface Stoppable {
	stop(options?: StopOptions): Promise<void>;
}

/** Installs Postgres and Redis when missing; returns Postgres's bin folder. */
export async function ensureQueueServices(): Promise<string> {
	const { stdout } = await run('bash', [join(REPO_ROOT, 'scripts', 'ensure-queue-services.sh')], {
		env: cleanEnvironment(),
		maxBuffer: 16 * 1024 * 1024,
	});
	return stdout.trim().split('\n').pop() ?? '';
}

/** Postgres refuses to run as root: there, its commands run as the `postgres` user. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
	if (process.getuid?.() !== 0) return [command, args];
	return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
	const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
		run('id', ['-u', 'postgres']),
		run('id', ['-g', 'postgres']),
	]);
	return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * A fresh cluster in `<dir>/data` (trust authentication on loopback, durability off:
 * test data), started in the foreground, with an empty database `n8n`.
 */
export async function startPostgres(
	binDir: string,
	dir: string,
): Promise<PostgresConnection & Stoppable> {
	const dataDir = join(dir, 'data');
	mkdirSync(dir, { recursive: true });
	if (process.getuid?.() === 0) {
		// The postgres user must reach the folder through the temp folder above it.
		const { uid, gid } = await postgresUserIds();
		chmodSync(join(dir, '..'), 0o755);
		chownSync(dir, uid, gid);
	}
	const [initdb, initdbArgs] = asPostgresUser(join(binDir, 'initdb'), [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'--auth=trust',
		'--encoding=UTF8',
		'--no-sync',
	]);
	await run(initdb, initdbArgs, { env: cleanEnvironment(), maxBuffer: 16 * 1024 * 1024 });

	const port = await freePort();
	const logFile = join(dir, 'postgres.log');
	const [postgres, postgresArgs] = asPostgresUser(join(binDir, 'postgres'), [
		'-D',
		dataDir,
		'-p',
		String(port),
		'-h',
		'127.0.0.1',
		'-k',
		dir,
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
	]);
	const child = spawnManaged(postgres, postgresArgs, { env: cleanEnvironment(), logFile });
	const connection = { host: '127.0.0.1', port, database: 'n8n', user: 'postgres' };
	let started = false;
	try {
		await waitFor(
			async () => {
				if (!child.isRunning()) throw new Error(`Postgres exited:\n${logTail(logFile)}`);
				const psql = join(binDir, 'psql');
				const args = ['-h', connection.host, '-p', String(port), '-U', 'postgres', '-c'];
				await run(psql, [...args, 'CREATE DATABASE n8n'], { env: cleanEnvironment() });
				return true;
			},
			{ timeoutMs: 60_000, intervalMs: 250, description: 'Postgres to accept connections' },
		);
		started = true;
		return { ...connection, binDir, pid: child.pid, logFile, stop: child.stop };
	} finally {
		if (!started) await child.stop({ kill: true });
	}
}

/**
 * The rows a query returns, each as its columns' text (psql's unaligned output), e.g. to
 * see what n8n stored in its database.
 */
export async function queryPostgres(
	postgres: PostgresConnection,
	sql: string,
): Promise<string[][]> {
	const args = ['-h', postgres.host, '-p', String(postgres.port), '-U', postgres.user];
	const { stdout } = await run(
		join(postgres.binDir, 'psql'),
		[...args, '-d', postgres.database, '-At', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
		{ env: cleanEnvironment(), maxBuffer: 16 * 1024 * 1024 },
	);
	return stdout
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.split('\t'));
}

/** Redis in the foreground on a free loopback port, nothing saved to disk. */
export async function startRedis(dir: string): Promise<RedisConnection & Stoppable> {
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const logFile = join(dir, 'redis.log');
	const child = spawnManaged(
		'redis-server',
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
		{ cwd: dir, env: cleanEnvironment(), logFile },
	);
	let started = false;
	try {
		await waitFor(
			async () => {
				if (!child.isRunning()) throw new Error(`Redis exited:\n${logTail(logFile)}`);
				const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping']);
				return stdout.trim() === 'PONG';
			},
			{ timeoutMs: 30_000, intervalMs: 100, description: 'Redis to answer PING' },
		);
		started = true;
		return { host: '127.0.0.1', port, pid: child.pid, logFile, stop: child.stop };
	} finally {
		if (!started) await child.stop({ kill: true });
	}
}
