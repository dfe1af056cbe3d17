/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/require-node-api-error -- dev script, not node code: `npm start` has a fixed, printed login for a local n8n, runs n8n and the sandbox as child processes, keeps their data under .playground/ (node:fs/net/path), reads ports from process.env, prints to process.stdout and stops both on signals */
/**
 * `npm start`: a local playground. The Fillout sandbox (demo data kept in
 * .playground/sandbox.json) and a real n8n (user folder .playground/n8n) with this
 * package built, packed and installed as a community package; an owner account; both
 * credentials pointing at the sandbox (the OAuth2 one connected); the example workflows
 * imported, the trigger one published. A second start reuses all of it. Ctrl-C (SIGINT)
 * or SIGTERM stops n8n and the sandbox (the sandbox writes its data first).
 *
 *   PLAYGROUND_N8N_PORT      n8n's port (default 5678)
 *   PLAYGROUND_SANDBOX_PORT  the sandbox's port (default 4000)
 *   FILLOUT_PLAYGROUND_DIR   where the data lives (default <repo>/.playground)
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

import {
	apiKeyCredentialData,
	connectOAuth2Credential,
	DEFAULT_N8N_VERSION,
	defaultCacheRoot,
	groupAlive,
	installN8n,
	installPackageInto,
	killGroupsNow,
	N8nClient,
	n8nInstallAt,
	oauth2CredentialData,
	packPackage,
	PID_FILE_VARIABLE,
	readPidFile,
	REPO_ROOT,
	sleep,
	startN8n,
	startSandboxProcess,
	stopProcessGroup,
	type CredentialRecord,
	type Owner,
	type RunningSandboxProcess,
	type SandboxInfo,
	type WorkflowRecord,
} from '../test/e2e/support';
import {
	EXAMPLE_CREDENTIALS,
	IMPORT_QUESTIONS,
	prepareExample,
	readExample,
	type ExampleKey,
	type ExampleTarget,
} from './examples';

export const PLAYGROUND_OWNER: Owner = {
	email: 'playground@example.com',
	password: 'Playground-Passw0rd',
	firstName: 'Play',
	lastName: 'Ground',
};

/** The form the trigger and the bulk import use (created on the first start). */
export const EVENT_FORM = { formId: 'eventSignups', name: 'Event signups' };
/** The seeded form the scheduled export reads (320 submissions: three pages). */
const EXPORT_FORM_NAME = 'Customer Feedback Survey';

const dir = process.env.FILLOUT_PLAYGROUND_DIR ?? join(REPO_ROOT, '.playground');
const pidFile = join(dir, 'pids');
/** Holds the pid of the playground that runs now; only that one stops what it started. */
const lockFile = join(dir, 'playground.pid');
let ownsLock = false;
/** Set once this run has emptied the pid file: the groups listed there are its own. */
let ownsGroups = false;

function say(line = ''): void {
	process.stdout.write(`${line}\n`);
}

function portOf(variable: string, fallback: number): number {
	const value = process.env[variable];
	if (value === undefined || value === '') return fallback;
	const port = Number(value);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		throw new Error(`${variable}=${value} is not a port number`);
	}
	return port;
}

/** Fails with a clear message when something already listens on the port. */
async function assertPortFree(port: number, what: string, variable: string): Promise<void> {
	const problem = await new Promise<string | undefined>((resolve) => {
		const server = createServer();
		server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(undefined)));
	});
	if (!problem) return;
	const leftovers = readPidFile(pidFile).filter(groupAlive);
	const hint = leftovers.length
		? ` A playground started earlier may still run (process groups ${leftovers.join(', ')}; stop them with: kill -- -<id>).`
		: '';
	throw new Error(
		`Port ${port} for ${what} is taken (${problem}).${hint} Or choose another port: ${variable}=<port> npm start`,
	);
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** One playground at a time per data folder (they would share n8n's database). */
function acquireLock(): void {
	const holder = existsSync(lockFile) ? Number(readFileSync(lockFile, 'utf8').trim()) : 0;
	if (holder > 1 && holder !== process.pid && processAlive(holder)) {
		throw new Error(
			`A playground already runs with the data in ${dir} (process ${holder}). Stop it with Ctrl-C in its terminal or kill -INT ${holder} (if none runs, delete ${lockFile}).`,
		);
	}
	writeFileSync(lockFile, `${process.pid}\n`);
	ownsLock = true;
}

// --- stopping ---------------------------------------------------------------------------

let stopping: Promise<void> | undefined;

/** Stops every process group this playground started (n8n first, so it ends cleanly). */
async function stopAll(): Promise<void> {
	if (ownsGroups) {
		const groups = readPidFile(pidFile);
		// The sandbox writes its data on SIGTERM; n8n shuts down its workflows.
		await Promise.all(groups.map((pid) => stopProcessGroup(pid, { timeoutMs: 20_000 })));
		rmSync(pidFile, { force: true });
		ownsGroups = false;
	}
	if (ownsLock) rmSync(lockFile, { force: true });
	ownsLock = false;
}

function onSignal(signal: NodeJS.Signals | 'parent gone'): void {
	if (stopping) {
		say(`\n${signal} again: killing n8n and the sandbox now.`);
		if (ownsGroups) killGroupsNow(readPidFile(pidFile));
		process.exit(130);
	}
	say(`\n${signal}: stopping n8n and the sandbox…`);
	stopping = stopAll().then(
		() => {
			say(`Stopped. Data kept in ${dir} (delete it to start over).`);
			process.exit(0);
		},
		(error: Error) => {
			say(`Could not stop cleanly: ${error.message}`);
			process.exit(1);
		},
	);
}

/**
 * `npm start` runs this under `sh -c`; a SIGTERM to npm ends npm and sh but does not reach
 * this process. Its parent changing means whoever started it is gone: stop as on SIGTERM.
 */
function watchParent(): void {
	const parent = process.ppid;
	if (parent <= 1) return;
	const timer = setInterval(() => {
		if (process.ppid !== parent) {
			clearInterval(timer);
			say('\nThe process that started the playground (npm or the shell) is gone.');
			onSignal('parent gone');
		}
	}, 1_000);
	timer.unref();
}

// --- setting up ---------------------------------------------------------------------------

async function findCredential(
	client: N8nClient,
	name: string,
	type: string,
): Promise<CredentialRecord | undefined> {
	const all = await client.rest<CredentialRecord[]>('GET', '/credentials');
	return all.find((credential) => credential.name === name && credential.type === type);
}

/** Creates the credential, or updates it when the sandbox's address changed. */
async function ensureCredential(
	client: N8nClient,
	name: string,
	type: string,
	data: Record<string, unknown>,
	addressField: string,
): Promise<{ record: CredentialRecord; created: boolean }> {
	const existing = await findCredential(client, name, type);
	if (!existing)
		return { record: await client.createCredential({ name, type, data }), created: true };
	const stored = await client.getCredential(existing.id, { includeData: true });
	if (stored.data?.[addressField] !== data[addressField]) {
		await client.rest('PATCH', `/credentials/${existing.id}`, { name, type, data });
	}
	return { record: existing, created: false };
}

async function setUpCredentials(client: N8nClient, info: SandboxInfo) {
	const demo = info.accounts.find((account) => account.id === 'acct_demo');
	if (!demo) throw new Error('the sandbox has no demo account');
	const apiKey = await ensureCredential(
		client,
		EXAMPLE_CREDENTIALS.filloutFormsApi,
		'filloutFormsApi',
		apiKeyCredentialData(demo.apiKeys[0], info.origin),
		'baseUrl',
	);
	const oauth = await ensureCredential(
		client,
		EXAMPLE_CREDENTIALS.filloutFormsOAuth2Api,
		'filloutFormsOAuth2Api',
		oauth2CredentialData(info.origin, info.oauthClients[0]),
		'customAuthUrl',
	);
	// "Connect my account", done over HTTP: the consent page answered for the demo workspace.
	const stored = await client.getCredential(oauth.record.id, { includeData: true });
	if (stored.data?.oauthTokenData !== true) {
		await connectOAuth2Credential(client, oauth.record.id, { account: 'acct_demo' });
		const connected = await client.getCredential(oauth.record.id, { includeData: true });
		if (connected.data?.oauthTokenData !== true) {
			throw new Error('connecting the OAuth2 credential to the sandbox failed');
		}
	}
	const ref = (record: CredentialRecord) => ({ id: record.id, name: record.name });
	return { apiKey: ref(apiKey.record), oauth2: ref(oauth.record), demo };
}

async function ensureEventForm(running: RunningSandboxProcess, info: SandboxInfo): Promise<void> {
	const exists = info.accounts.some((account) =>
		account.forms.some((form) => form.formId === EVENT_FORM.formId),
	);
	if (exists) return;
	await running.control.createForm({ ...EVENT_FORM, questions: IMPORT_QUESTIONS });
	await running.control.generate(EVENT_FORM.formId, { count: 12 });
}

async function ensureWorkflow(
	client: N8nClient,
	key: ExampleKey,
	target: ExampleTarget,
): Promise<{ workflow: WorkflowRecord; created: boolean }> {
	const example = readExample(key);
	const all = await client.rest<WorkflowRecord[]>('GET', '/workflows');
	const existing = all.find((workflow) => workflow.name === example.name && !workflow.isArchived);
	if (existing) return { workflow: existing, created: false };
	return { workflow: await client.createWorkflow(prepareExample(example, target)), created: true };
}

async function main(): Promise<void> {
	const started = Date.now();
	const n8nPort = portOf('PLAYGROUND_N8N_PORT', 5678);
	const sandboxPort = portOf('PLAYGROUND_SANDBOX_PORT', 4000);
	mkdirSync(dir, { recursive: true });
	acquireLock();
	await assertPortFree(n8nPort, 'n8n', 'PLAYGROUND_N8N_PORT');
	await assertPortFree(sandboxPort, 'the sandbox', 'PLAYGROUND_SANDBOX_PORT');

	// Every process group is recorded here the moment it starts (test/e2e/support/processes.ts), so a
	// Ctrl-C during the start still finds n8n.
	writeFileSync(pidFile, '');
	ownsGroups = true;
	process.env[PID_FILE_VARIABLE] = pidFile;
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
	watchParent();
	process.on('exit', () => {
		if (!stopping && ownsGroups) killGroupsNow(readPidFile(pidFile));
	});

	const firstStart = !existsSync(join(dir, 'n8n', '.n8n', 'database.sqlite'));
	say(
		firstStart
			? `Fillout playground: first start (data in ${dir}).`
			: `Fillout playground: starting again with the data in ${dir}.`,
	);
	const cached = n8nInstallAt(join(defaultCacheRoot(process.env), `n8n-${DEFAULT_N8N_VERSION}`));
	if (!existsSync(cached.n8nScript)) {
		say(
			`  installing n8n ${DEFAULT_N8N_VERSION} into ${cached.dir} (once per machine: 5–9 minutes)`,
		);
	}
	const [install, packed] = await Promise.all([
		installN8n({ onProgress: (line) => say(`  ${line}`) }),
		packPackage(join(dir, 'pack')),
	]);
	const userFolder = join(dir, 'n8n');
	const installed = await installPackageInto(userFolder, packed.tarball);
	say(`  ${installed.name}@${installed.version} built and installed as a community package`);

	const [sandbox, n8n] = await Promise.all([
		startSandboxProcess({
			port: sandboxPort,
			dataFile: join(dir, 'sandbox.json'),
			logFile: join(dir, 'sandbox.log'),
		}),
		startN8n({
			install,
			userFolder,
			port: n8nPort,
			logFile: join(dir, 'n8n.log'),
		}),
	]);
	say(`  sandbox and n8n are up (${Math.round((Date.now() - started) / 1000)} s)`);

	const client = new N8nClient(n8n.url);
	try {
		await client.signIn(PLAYGROUND_OWNER);
	} catch (error) {
		throw new Error(
			`Could not sign in as ${PLAYGROUND_OWNER.email} (${(error as Error).message}). If you changed the password, set it back, or delete .playground/ to start over.`,
		);
	}
	let info = await sandbox.control.info();
	await ensureEventForm(sandbox, info);
	info = await sandbox.control.info();
	const { apiKey, oauth2, demo } = await setUpCredentials(client, info);
	const exportForm = demo.forms.find((form) => form.name === EXPORT_FORM_NAME);
	if (!exportForm) throw new Error(`the sandbox has no form "${EXPORT_FORM_NAME}"`);

	const credentials = { filloutFormsApi: apiKey, filloutFormsOAuth2Api: oauth2 };
	const trigger = await ensureWorkflow(client, 'trigger', {
		formId: EVENT_FORM.formId,
		credentials,
	});
	const exporter = await ensureWorkflow(client, 'export', {
		formId: exportForm.formId,
		credentials,
	});
	const importer = await ensureWorkflow(client, 'import', {
		formId: EVENT_FORM.formId,
		credentials,
	});
	// Imported, not published: publish it in the editor to see the polling trigger at work.
	const poller = await ensureWorkflow(client, 'polling', {
		formId: EVENT_FORM.formId,
		credentials,
	});
	if (!(await client.getWorkflow(trigger.workflow.id)).active) {
		await client.activateWorkflow(trigger.workflow.id);
	}

	const url = (workflow: WorkflowRecord) => `${n8n.url}/workflow/${workflow.id}`;
	const state = (result: { created: boolean }) => (result.created ? 'imported' : 'kept');
	const respond = `curl -X POST ${sandbox.origin}/_sandbox/forms/${EVENT_FORM.formId}/respond -H 'content-type: application/json' -d '{"answers":{"Name":"Ada Lovelace","Ticket":"VIP"}}'`;
	say();
	say(`Fillout playground is ready (${Math.round((Date.now() - started) / 1000)} s).`);
	say();
	say(`  n8n            ${n8n.url}`);
	say(`  login          ${PLAYGROUND_OWNER.email} / ${PLAYGROUND_OWNER.password}`);
	say(`  Fillout API    ${sandbox.apiRoot}   (API key ${demo.apiKeys[0]})`);
	say(`  EU workspace   ${sandbox.origin}/eu/v1/api`);
	say(
		`  credentials    "${apiKey.name}" (API key, Region Custom, Base URL ${sandbox.origin}), "${oauth2.name}" (OAuth2, connected)`,
	);
	say('  workflows');
	say(`    ${trigger.workflow.name} (${state(trigger)}, published): ${url(trigger.workflow)}`);
	say(`    ${exporter.workflow.name} (${state(exporter)}): ${url(exporter.workflow)}`);
	say(`    ${importer.workflow.name} (${state(importer)}): ${url(importer.workflow)}`);
	say(`    ${poller.workflow.name} (${state(poller)}): ${url(poller.workflow)}`);
	say();
	say(`  Simulate a respondent to "${EVENT_FORM.name}" (the trigger workflow runs):`);
	say(`    ${respond}`);
	say(`  Sandbox control API: ${sandbox.origin}/_sandbox/info (see sandbox/README.md)`);
	say(`  Data and logs: ${dir} (n8n.log, sandbox.log). Ctrl-C stops both.`);

	// Keep running; if either process dies, stop the other and say so.
	for (;;) {
		await sleep(2_000);
		if (stopping) return;
		for (const [name, pid] of [
			['n8n', n8n.pid],
			['the sandbox', sandbox.pid],
		] as const) {
			if (!groupAlive(pid)) {
				say(
					`\n${name} stopped unexpectedly (see ${dir}/${name === 'n8n' ? 'n8n' : 'sandbox'}.log).`,
				);
				await stopAll();
				process.exit(1);
			}
		}
	}
}

main().catch(async (error: Error) => {
	say(`\nThe playground could not start: ${error.message}`);
	if (!stopping) await stopAll().catch(() => undefined);
	process.exit(1);
});
