/**
 * What export and import share: each variant gets its own sandbox account (its own
 * rate-limit window) plus a warm-up account, and after its measured run the figures
 * are read back from the sandbox's counters and n8n's execution record.
 */
import type { CredentialRef, Execution, WorkflowDefinition } from '../test/e2e/support';
import type { BenchContext, BenchRow } from './context';
import { benchAccount, statsOfKey, statsSince, type BenchAccount, type KeyStats } from './fixtures';
import { runTimed, type TimedRun } from './measure';
import type { MemorySummary } from './memory';
import type { HeaderCredentialRef } from './workflows';

export type AnyCredential = CredentialRef | HeaderCredentialRef;

export interface Variant {
	key: string;
	label: string;
	/** The node that moves the data (its run time is reported). */
	node: string;
	credential(ctx: BenchContext, account: BenchAccount): Promise<AnyCredential>;
}

export interface VariantSetup<V extends Variant> {
	variant: V;
	account: BenchAccount;
	credential: AnyCredential;
	warmAccount: BenchAccount;
	warmCredential: AnyCredential;
}

/** Accounts, data and credentials for every variant, made before any timing starts. */
export async function prepareVariants<V extends Variant>(
	ctx: BenchContext,
	scenario: string,
	variants: V[],
	submissions: number,
	warmSubmissions: number,
): Promise<Array<VariantSetup<V>>> {
	const setups: Array<VariantSetup<V>> = [];
	for (const variant of variants) {
		const name = `${scenario} ${variant.key}`;
		const account = await benchAccount(ctx.control, name, submissions);
		const warmAccount = await benchAccount(ctx.control, `${name} warm-up`, warmSubmissions);
		setups.push({
			variant,
			account,
			credential: await variant.credential(ctx, account),
			warmAccount,
			warmCredential: await variant.credential(ctx, warmAccount),
		});
	}
	return setups;
}

/** Runs the warm-up workflow; a note when it did not succeed. */
export async function warmUp(ctx: BenchContext, workflow: WorkflowDefinition): Promise<string[]> {
	const run = await runTimed(ctx.client, workflow);
	return run.status === 'success' ? [] : [`warm-up run ended ${run.status}`];
}

export interface RunOutcome<T> {
	stats: KeyStats;
	/** Requests to the route that moves the data. */
	dataRequests: number;
	/** What `read` took from the execution's data. */
	value?: T;
	nodeMs?: number;
	notes: string[];
}

async function countersOf(ctx: BenchContext, account: BenchAccount): Promise<KeyStats> {
	return statsOfKey(await ctx.control.stats(), account.apiKey);
}

/** A measured run, and the account's counters read right before it (set-up requests are not its). */
export interface MeasuredRun {
	run: TimedRun;
	before: KeyStats;
}

export async function measuredRun(
	ctx: BenchContext,
	account: BenchAccount,
	workflow: WorkflowDefinition,
): Promise<MeasuredRun> {
	const before = await countersOf(ctx, account);
	return { run: await runTimed(ctx.client, workflow), before };
}

/** The requests the run made and what the execution's data says. */
export async function outcomeOf<T>(
	ctx: BenchContext,
	{ run, before }: MeasuredRun,
	setup: VariantSetup<Variant>,
	dataRoute: string,
	read: (execution: Execution) => T,
): Promise<RunOutcome<T>> {
	const notes: string[] = [];
	const stats = statsSince(await countersOf(ctx, setup.account), before);
	const execution = await ctx.client.getExecution(run.executionId);
	let value: T | undefined;
	let nodeMs: number | undefined;
	if (execution) {
		try {
			value = read(execution);
			nodeMs = execution.nodeRun(setup.variant.node).executionTime;
		} catch (error) {
			notes.push((error as Error).message);
		}
		if (execution.error) notes.push(`error: ${execution.error.message}`);
	} else notes.push(`execution ${run.executionId} not found`);
	const dataRequests = stats.requests[dataRoute] ?? 0;
	const others = Object.entries(stats.requests).filter(([route]) => route !== dataRoute);
	if (others.length) {
		notes.push(
			`besides the data requests: ${others.map(([route, count]) => `${count}× ${route}`).join(', ')}`,
		);
	}
	return { stats, dataRequests, value, nodeMs, notes };
}

/** The table row of an export or import run. */
export function transferRow(
	scenario: 'export' | 'import',
	setup: VariantSetup<Variant>,
	run: TimedRun,
	outcome: RunOutcome<unknown>,
	result: {
		complete: boolean;
		items?: number;
		expected: number;
		floor: { requests: number; seconds: number };
		notes: string[];
		memory?: MemorySummary;
	},
): BenchRow {
	return {
		scenario,
		variant: setup.variant.label,
		ok: run.status === 'success' && result.complete,
		status: run.status,
		items: result.items,
		expectedItems: result.expected,
		requests: outcome.stats.total,
		dataRequests: outcome.dataRequests,
		rateLimited: outcome.stats.rateLimited,
		floorRequests: result.floor.requests,
		floorMs: result.floor.seconds * 1000,
		wallMs: run.wallMs,
		nodeMs: outcome.nodeMs,
		clientMs: run.clientMs,
		memory: result.memory,
		notes: [...result.notes, ...outcome.notes],
	};
}
