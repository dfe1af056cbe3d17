/**
 * What every end-to-end test file starts with: the n8n and sandbox the global setup
 * started, an n8n session, and clients to check the sandbox's data.
 */
import { attachN8n, connectionOf, startN8n, type RunningN8n } from './n8n';
import { N8nClient } from './n8nClient';
import { FilloutApi, SandboxControl, type SandboxAccount, type SandboxInfo } from './sandbox';
import { readState, writeState, type E2eState } from './state';

export interface E2eContext {
	state: E2eState;
	n8n: N8nClient;
	sandbox: SandboxControl;
	info: SandboxInfo;
	demo: SandboxAccount;
	eu: SandboxAccount;
	/** Reads the demo account's data with a key n8n does not use (own rate limit). */
	checkDemo: FilloutApi;
	/** Reads the EU account's data with its API key (n8n uses an OAuth token there). */
	checkEu: FilloutApi;
	oauthClient: { clientId: string; clientSecret: string };
}

export async function connectE2e(): Promise<E2eContext> {
	const state = readState();
	const n8n = new N8nClient(state.n8n.url);
	n8n.useSession(state.sessionCookie);
	if (!(await n8n.hasSession())) await n8n.login(state.owner);
	const sandbox = new SandboxControl(state.sandbox.origin);
	const info = await sandbox.info();
	const account = (id: string) => {
		const found = info.accounts.find((candidate) => candidate.id === id);
		if (!found) throw new Error(`the sandbox has no account ${id}`);
		return found;
	};
	const demo = account('acct_demo');
	const eu = account('acct_eu');
	return {
		state,
		n8n,
		sandbox,
		info,
		demo,
		eu,
		checkDemo: new FilloutApi(demo.apiRoot, state.checkApiKey),
		checkEu: new FilloutApi(eu.apiRoot, eu.apiKeys[0]),
		oauthClient: info.oauthClients[0],
	};
}

/**
 * Restarts the shared n8n (same port, user folder and database) and records its new
 * pid for the teardown. The session cookie stays valid (same encryption key).
 */
export async function restartSharedN8n(
	context: E2eContext,
	options: { kill?: boolean; whileDown?: () => Promise<void> } = {},
): Promise<void> {
	const running = attachN8n(context.state.n8n);
	const { whileDown } = options;
	const restarted =
		whileDown === undefined
			? await running.restart({ kill: options.kill })
			: await restartAfter(running, { kill: options.kill }, whileDown);
	context.state = { ...context.state, n8n: connectionOf(restarted) };
	writeState(context.state);
}

/** Stops n8n, runs `whileDown` (n8n's port answers nothing), then starts it as it was. */
async function restartAfter(
	running: RunningN8n,
	stopOptions: { kill?: boolean },
	whileDown: () => Promise<void>,
): Promise<RunningN8n> {
	await running.stop(stopOptions);
	try {
		await whileDown();
	} finally {
		running = await startN8n({ ...connectionOf(running) });
	}
	return running;
}

/** A name unique within this run, for forms, workflows and credentials. */
export function unique(prefix: string): string {
	return `${prefix} ${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

// The end-to-end library: a real n8n with the packed package, the sandbox, and clients for both.
export * from './credentials';
export * from './environment';
export * from '../../support/http';
export * from './installN8n';
export * from './n8n';
export * from './n8nClient';
export * from './oauth';
export * from './pack';
export * from './paths';
export * from './processes';
export * from './queueMode';
export * from './queueServices';
export * from './sandbox';
export * from './state';
export * from './workflows';
