/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: starts a real n8n server as a child process (node:fs/path) */
/** A real n8n server on loopback, from the cached install, with a private user folder. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { http } from '../../support/http';
import type { N8nInstall } from './installN8n';
import { n8nMajorVersion } from './paths';
import type { StopOptions } from './processes';
import {
	cleanEnvironment,
	freePort,
	groupAlive,
	logTail,
	sleep,
	spawnManaged,
	stopProcessGroup,
} from './processes';

/**
 * What the process is: `start` (the main: editor, REST API, trigger activation), or, in
 * queue mode, `worker` (runs executions) or `webhook` (a webhook processor).
 */
export type N8nCommand = 'start' | 'worker' | 'webhook';

export interface N8nOptions {
	install: N8nInstall;
	/** Default `start`. */
	command?: N8nCommand;
	/** Extra command-line arguments (e.g. `--concurrency=5` for a worker). */
	args?: string[];
	/** N8N_USER_FOLDER: n8n keeps `.n8n/` (database, config, community nodes) here. */
	userFolder: string;
	/** Default: a free port. Keep it across restarts so webhook addresses stay the same. */
	port?: number;
	/** The task runner broker's port (default: a free one). */
	runnersBrokerPort?: number;
	/** Extra or overriding environment variables. */
	env?: Record<string, string>;
	/** Default: `<userFolder>/n8n.log` (appended across restarts). */
	logFile?: string;
	/** Default 120 s (the first start runs database migrations). */
	startTimeoutMs?: number;
}

/** What is needed to reach (and restart) a running n8n; plain data, fit for a JSON file. */
export interface N8nConnection {
	/** Default `start`. */
	command?: N8nCommand;
	args?: string[];
	url: string;
	port: number;
	runnersBrokerPort: number;
	userFolder: string;
	logFile: string;
	pid: number;
	install: N8nInstall;
	env?: Record<string, string>;
}

export interface RunningN8n extends N8nConnection {
	/** SIGTERM (n8n shuts down cleanly), SIGKILL after the time-out. */
	stop(options?: StopOptions): Promise<void>;
	/** Stops it and starts it again on the same ports and user folder. */
	restart(options?: StopOptions): Promise<RunningN8n>;
}

/** Variables that would make the server depend on the developer's shell. */
const FOREIGN = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|VUE_APP_)/;

/** The environment n8n is started with. */
export function n8nEnvironment(
	connection: Pick<
		N8nConnection,
		'port' | 'runnersBrokerPort' | 'userFolder' | 'env' | 'install' | 'command'
	>,
): NodeJS.ProcessEnv {
	const base = cleanEnvironment();
	for (const name of Object.keys(base)) if (FOREIGN.test(name)) delete base[name];
	const url = `http://127.0.0.1:${connection.port}/`;
	return {
		...base,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: connection.userFolder,
		N8N_PORT: String(connection.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: url,
		WEBHOOK_URL: url,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(connection.runnersBrokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PYTHON_ENABLED: 'false',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_LOG_LEVEL: 'warn',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SCHEDULER_SYSTEM_TASKS_ENABLED: 'false',
		// Its refresh calls api.n8n.io, which is unreachable here (stack traces in the log).
		// n8n 1.x has no such module and refuses to start when an unknown one is named.
		...(n8nMajorVersion(connection.install.version) >= 2
			? { N8N_DISABLED_MODULES: 'mcp-registry' }
			: {}),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		// Nodes reach the sandbox on 127.0.0.1; never through a proxy.
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		// A worker serves no HTTP but its health check, which tells when it is ready.
		...(connection.command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(connection.port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				}
			: {}),
		...connection.env,
	};
}

/**
 * Waits until n8n answers health and readiness, and on a main its public settings (REST
 * is up; workers and webhook processors have no REST API).
 */
async function waitUntilReady(
	url: string,
	command: N8nCommand,
	pid: number,
	logFile: string,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	const ready = async (path: string) => {
		try {
			return (await http('GET', `${url}${path}`, { timeoutMs: 5_000 })).status === 200;
		} catch {
			return false;
		}
	};
	for (;;) {
		if (!groupAlive(pid)) {
			throw new Error(`n8n exited while starting. Log (${logFile}):\n${logTail(logFile)}`);
		}
		if (
			(await ready('/healthz')) &&
			(await ready('/healthz/readiness')) &&
			(command !== 'start' || (await ready('/rest/settings')))
		) {
			return;
		}
		if (Date.now() > deadline) {
			await stopProcessGroup(pid, { kill: true });
			throw new Error(
				`n8n did not become ready within ${timeoutMs} ms. Log (${logFile}):\n${logTail(logFile)}`,
			);
		}
		await sleep(250);
	}
}

/** Starts n8n: `<cache>/node_modules/.bin/node <cache>/node_modules/n8n/bin/n8n start`. */
export async function startN8n(options: N8nOptions): Promise<RunningN8n> {
	mkdirSync(options.userFolder, { recursive: true });
	const command = options.command ?? 'start';
	const connection: Omit<N8nConnection, 'pid'> = {
		command,
		args: options.args,
		port: options.port ?? (await freePort()),
		runnersBrokerPort: options.runnersBrokerPort ?? (await freePort()),
		userFolder: options.userFolder,
		logFile: options.logFile ?? join(options.userFolder, 'n8n.log'),
		install: options.install,
		env: options.env,
		url: '',
	};
	connection.url = `http://127.0.0.1:${connection.port}`;
	const child = spawnManaged(
		options.install.nodeBinary,
		[options.install.n8nScript, command, ...(options.args ?? [])],
		{ cwd: options.userFolder, env: n8nEnvironment(connection), logFile: connection.logFile },
	);
	let ready = false;
	try {
		await waitUntilReady(
			connection.url,
			command,
			child.pid,
			connection.logFile,
			options.startTimeoutMs ?? 120_000,
		);
		ready = true;
	} finally {
		if (!ready) await child.stop({ kill: true });
	}
	return attachN8n({ ...connection, pid: child.pid }, options.startTimeoutMs);
}

/** Handles for an n8n started elsewhere (another module, or the suite's global setup). */
export function attachN8n(connection: N8nConnection, startTimeoutMs?: number): RunningN8n {
	const running: RunningN8n = {
		...connection,
		stop: async (stopOptions) => await stopProcessGroup(connection.pid, stopOptions),
		restart: async (stopOptions) => {
			await running.stop(stopOptions);
			return await startN8n({
				install: connection.install,
				command: connection.command,
				args: connection.args,
				userFolder: connection.userFolder,
				port: connection.port,
				runnersBrokerPort: connection.runnersBrokerPort,
				env: connection.env,
				logFile: connection.logFile,
				startTimeoutMs,
			});
		},
	};
	return running;
}

/** The plain data of a running n8n (drops the functions). */
export function connectionOf(n8n: N8nConnection): N8nConnection {
	const { command, args, url, port, runnersBrokerPort, userFolder, logFile, pid, install, env } =
		n8n;
	return { command, args, url, port, runnersBrokerPort, userFolder, logFile, pid, install, env };
}
