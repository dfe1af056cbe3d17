/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: prepares user folders (node:fs/path/crypto) */
/**
 * n8n in queue mode on one machine, for the queue-mode tier: Postgres and Redis, then
 * one main (`n8n start`), workers (`n8n worker`) and one webhook processor
 * (`n8n webhook`), all with one encryption key, one database, one queue and one
 * community-nodes folder holding the packed package, and the sandbox.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

import { assertPackageLoaded, CHECK_API_KEY } from './environment';
import { installN8n, type N8nInstall } from './installN8n';
import {
	connectionOf,
	startN8n,
	type N8nCommand,
	type N8nConnection,
	type RunningN8n,
} from './n8n';
import { DEFAULT_OWNER, N8nClient, type Owner } from './n8nClient';
import { installPackageInto, packPackage, type InstalledPackage, type PackedPackage } from './pack';
import { DEFAULT_N8N_VERSION } from './paths';
import { freePort, stopProcessGroup } from './processes';
import {
	ensureQueueServices,
	startPostgres,
	startRedis,
	type PostgresConnection,
	type RedisConnection,
} from './queueServices';
import { startSandboxProcess, type SandboxConnection, type SandboxProcessOptions } from './sandbox';

/** Plain data (a JSON state file) for the test files and the teardown. */
export interface QueueState {
	workDir: string;
	main: N8nConnection;
	workers: N8nConnection[];
	webhook: N8nConnection;
	postgres: PostgresConnection;
	redis: RedisConnection;
	sandbox: SandboxConnection;
	owner: Owner;
	sessionCookie: string;
	packed: PackedPackage;
	installed: InstalledPackage;
	checkApiKey: string;
}

export interface QueueEnvironmentOptions {
	workDir: string;
	n8nVersion?: string;
	/** Default 2. */
	workers?: number;
	/** Jobs each worker runs at once (default 5). */
	workerConcurrency?: number;
	sandbox?: SandboxProcessOptions;
	log: (line: string) => void;
}

/**
 * The variables every process of the cluster shares. N8N_WEBHOOK_URL (and the older
 * WEBHOOK_URL) is the webhook processor's address: the main registers it at Fillout.
 */
function sharedQueueEnv(
	postgres: PostgresConnection,
	redis: RedisConnection,
	webhookUrl: string,
	encryptionKey: string,
): Record<string, string> {
	return {
		N8N_ENCRYPTION_KEY: encryptionKey,
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		N8N_WEBHOOK_URL: webhookUrl,
		WEBHOOK_URL: webhookUrl,
		// Info: a worker logs "Worker started execution <id>", which shows where each ran.
		N8N_LOG_LEVEL: 'info',
		// n8n's durable poll cursors, which the README asks queue-mode users of the polling
		// trigger to turn on: the cursor is kept apart from static data, which a worker
		// overwrites.
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
	};
}

/**
 * A user folder per process (n8n keeps a crash journal there, and a second process
 * sharing it would take the first one's journal for a crash and wait 10 s), each with
 * `.n8n/nodes` a link to the one shared community-nodes folder.
 */
function userFolderFor(workDir: string, role: string, sharedNodes: string): string {
	const folder = join(workDir, role);
	mkdirSync(join(folder, '.n8n'), { recursive: true });
	symlinkSync(sharedNodes, join(folder, '.n8n', 'nodes'), 'dir');
	return folder;
}

interface ClusterPlan {
	install: N8nInstall;
	workDir: string;
	sharedNodes: string;
	env: Record<string, string>;
}

async function startRole(
	plan: ClusterPlan,
	role: string,
	command: N8nCommand,
	port: number,
	args?: string[],
): Promise<RunningN8n> {
	return await startN8n({
		install: plan.install,
		command,
		args,
		port,
		userFolder: userFolderFor(plan.workDir, role, plan.sharedNodes),
		logFile: join(plan.workDir, `n8n-${role}.log`),
		env: plan.env,
	});
}

export interface QueueEnvironment {
	state: QueueState;
	client: N8nClient;
}

/**
 * Starts everything; every process group goes to the pid file (FILLOUT_E2E_PIDS) as it
 * starts, so the caller's teardown stops them even when this throws half-way.
 */
export async function startQueueEnvironment(
	options: QueueEnvironmentOptions,
): Promise<QueueEnvironment> {
	const { workDir, log } = options;
	const time = Date.now();
	const elapsed = () => `${Date.now() - time} ms`;
	log('installing n8n (cached), Postgres and Redis (when missing), building and packing');
	const [install, packed, postgresBin] = await Promise.all([
		installN8n({ version: options.n8nVersion ?? DEFAULT_N8N_VERSION }),
		packPackage(join(workDir, 'pack')),
		ensureQueueServices(),
	]);
	const shared = join(workDir, 'shared');
	const installed = await installPackageInto(shared, packed.tarball);
	const [postgres, redis, sandbox] = await Promise.all([
		startPostgres(postgresBin, join(workDir, 'postgres')),
		startRedis(join(workDir, 'redis')),
		startSandboxProcess({
			logFile: join(workDir, 'sandbox.log'),
			...options.sandbox,
			apiKeys: [CHECK_API_KEY, ...(options.sandbox?.apiKeys ?? [])],
		}),
	]);
	log(`Postgres :${postgres.port}, Redis :${redis.port}, sandbox ${sandbox.origin} (${elapsed()})`);

	const webhookPort = await freePort();
	const plan: ClusterPlan = {
		install,
		workDir,
		sharedNodes: join(shared, '.n8n', 'nodes'),
		env: sharedQueueEnv(
			postgres,
			redis,
			`http://127.0.0.1:${webhookPort}/`,
			randomBytes(24).toString('hex'),
		),
	};
	// The main first: it runs the database migrations the others wait for.
	const main = await startRole(plan, 'main', 'start', await freePort());
	const concurrency = `--concurrency=${options.workerConcurrency ?? 5}`;
	const workerCount = options.workers ?? 2;
	const [webhook, ...workers] = await Promise.all([
		startRole(plan, 'webhook', 'webhook', webhookPort),
		...Array.from({ length: workerCount }, async (_, index) =>
			startRole(plan, `worker${index + 1}`, 'worker', await freePort(), [concurrency]),
		),
	]);
	log(
		`main ${main.url}, webhook processor ${webhook.url}, ${workers.length} workers (${elapsed()})`,
	);

	const client = new N8nClient(main.url);
	await client.signIn(DEFAULT_OWNER);
	await assertPackageLoaded(client);
	return {
		client,
		state: {
			workDir,
			main: connectionOf(main),
			workers: workers.map(connectionOf),
			webhook: connectionOf(webhook),
			postgres,
			redis,
			sandbox,
			owner: DEFAULT_OWNER,
			sessionCookie: client.sessionCookie,
			packed,
			installed,
			checkApiKey: CHECK_API_KEY,
		},
	};
}

/** The pid of a connection, for the teardown's order (n8n before its database). */
export function servicePids(state: Pick<QueueState, 'postgres' | 'redis'>): number[] {
	return [state.postgres.pid, state.redis.pid];
}

/**
 * Stops the cluster's process groups: n8n and the sandbox first (so n8n shuts down while
 * its database and queue are still there), then Postgres and Redis.
 */
export async function stopQueueCluster(
	pids: readonly number[],
	state: Pick<QueueState, 'postgres' | 'redis'> | undefined,
): Promise<void> {
	const services = state ? servicePids(state) : [];
	const stopAll = async (group: number[]) =>
		await Promise.all(group.map(async (pid) => await stopProcessGroup(pid, { timeoutMs: 10_000 })));
	await stopAll(pids.filter((pid) => !services.includes(pid)));
	await stopAll(pids.filter((pid) => services.includes(pid)));
}

/** Copies every `*.log` of the work folder and its sub-folders (n8n, sandbox, Postgres, Redis). */
export function copyQueueLogs(workDir: string, destination: string): void {
	mkdirSync(destination, { recursive: true });
	for (const entry of readdirSync(workDir, { recursive: true, encoding: 'utf8' })) {
		const file = join(workDir, entry);
		if (entry.endsWith('.log') && existsSync(file))
			cpSync(file, join(destination, entry.replace(/\//g, '-')));
	}
}

/**
 * Which worker ran each execution, from the workers' logs ("Worker started execution
 * <id> (job ..."): execution id → index in `workers`.
 */
export function workerOfExecutions(workers: readonly N8nConnection[]): Map<string, number> {
	const ran = new Map<string, number>();
	workers.forEach((worker, index) => {
		const log = readFileSync(worker.logFile, 'utf8');
		for (const match of log.matchAll(/Worker started execution (\S+) \(job /g)) {
			ran.set(match[1], index);
		}
	});
	return ran;
}
