/**
 * Scenario 2: import 1,000 submissions. A Code node makes the rows; the Fillout node's
 * Create sends them 10 per request; the HTTP Request node sends one per item with the
 * batching a user sets to stay under 5 requests per second.
 */
import {
	loadAnswerColumns,
	type CredentialRef,
	type MapperColumn,
	type WorkflowDefinition,
} from '../test/e2e/support';
import type { BenchContext, BenchRow } from './context';
import {
	filloutCredential,
	headerCredential,
	QUESTION_IDS,
	submissionCount,
	type BenchAccount,
} from './fixtures';
import { requestFloor } from './stats';
import {
	measuredRun,
	outcomeOf,
	prepareVariants,
	transferRow,
	warmUp,
	type AnyCredential,
	type Variant,
	type VariantSetup,
} from './variants';
import {
	BENCH_NODES,
	filloutImportWorkflow,
	httpImportWorkflow,
	type HeaderCredentialRef,
} from './workflows';

export const SUBMISSIONS_PER_CREATE = 10;
export const HTTP_BATCH_SIZE = 5;
/**
 * 5 per 1000 ms sits exactly on the limit: the HTTP Request node starts a batch's
 * requests without waiting for the previous batch's answers, so any delay moves part
 * of a batch into the previous window (a debugging run on a busy machine got 25 429s
 * and a failed node after creating 975 of 1,000). 1200 ms is what a user settles on.
 */
export const HTTP_BATCH_INTERVAL_MS = 1200;
const CREATE_ROUTE = 'POST /v1/api/forms/:formId/submissions';
const WARM_UP_ROWS = 10;

interface ImportVariant extends Variant {
	/**
	 * What the editor loads while the user sets the node up, before any run, and saves
	 * with it (Fillout: the Answers columns of the chosen form).
	 */
	setUpInEditor(
		ctx: BenchContext,
		account: BenchAccount,
		credential: AnyCredential,
	): Promise<MapperColumn[]>;
	build(
		name: string,
		account: BenchAccount,
		credential: AnyCredential,
		count: number,
		columns: MapperColumn[],
	): WorkflowDefinition;
}

export const IMPORT_VARIANTS: ImportVariant[] = [
	{
		key: 'fillout',
		label: 'Fillout: Create (10 per request)',
		node: BENCH_NODES.fillout,
		setUpInEditor: async (ctx, account, credential) =>
			await loadAnswerColumns(ctx.client, credential as CredentialRef, account.formId),
		build: (name, account, credential, count, columns) =>
			filloutImportWorkflow(name, credential as CredentialRef, account.formId, count, columns),
		credential: async (ctx, account) => await filloutCredential(ctx.client, account),
	},
	{
		key: 'http',
		label: `HTTP Request: 1 per item, batch ${HTTP_BATCH_SIZE} / ${HTTP_BATCH_INTERVAL_MS} ms`,
		node: BENCH_NODES.http,
		setUpInEditor: async () => [],
		build: (name, account, credential, count) =>
			httpImportWorkflow(name, {
				apiRoot: account.apiRoot,
				formId: account.formId,
				credential: credential as HeaderCredentialRef,
				count,
				batchSize: HTTP_BATCH_SIZE,
				batchIntervalMs: HTTP_BATCH_INTERVAL_MS,
				questionIds: QUESTION_IDS,
			}),
		credential: async (ctx, account) => await headerCredential(ctx.client, account),
	},
];

export type ImportSetup = VariantSetup<ImportVariant>;

export async function prepareImport(
	ctx: BenchContext,
	variants = IMPORT_VARIANTS,
): Promise<ImportSetup[]> {
	return await prepareVariants(ctx, 'import', variants, 0, 0);
}

/** A warm-up import of 10 rows on another account (task runner, node code), then the run. */
export async function runImportVariant(ctx: BenchContext, setup: ImportSetup): Promise<BenchRow> {
	const { variant, account } = setup;
	const expected = ctx.sizes.importCount;
	// Each request takes at least the latency the sandbox adds.
	const floor = requestFloor(expected, SUBMISSIONS_PER_CREATE, { roundTripMs: ctx.latencyMs });
	const notes = await warmUp(
		ctx,
		variant.build(
			`bench import ${variant.key} warm-up`,
			setup.warmAccount,
			setup.warmCredential,
			WARM_UP_ROWS,
			await variant.setUpInEditor(ctx, setup.warmAccount, setup.warmCredential),
		),
	);

	// Building the workflow in the editor happens before the run; its requests are not the run's.
	const columns = await variant.setUpInEditor(ctx, account, setup.credential);
	ctx.log(`import ${variant.key}: running`);
	const measured = await measuredRun(
		ctx,
		account,
		variant.build(`bench import ${variant.key}`, account, setup.credential, expected, columns),
	);
	const { run } = measured;
	const outcome = await outcomeOf(
		ctx,
		measured,
		setup,
		CREATE_ROUTE,
		(execution) => execution.items(variant.node).length,
	);
	const stored = await submissionCount(ctx.control, account);
	if (stored !== expected) notes.push(`${stored} submissions stored`);
	return transferRow('import', setup, run, outcome, {
		complete: stored === expected && outcome.value === expected,
		items: outcome.value,
		expected,
		floor,
		notes,
	});
}

export async function runImport(ctx: BenchContext, setups: ImportSetup[]): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	for (const setup of setups) rows.push(await runImportVariant(ctx, setup));
	return rows;
}
