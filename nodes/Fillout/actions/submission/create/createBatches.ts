import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk, groupBy } from '../../../shared/lists';
import type { Batch, BatchOutcome, ItemFailure, PreparedItem } from './batchOutcome';
import { afterResend, batchOutcome } from './batchOutcome';
import type { CreatedItem, StoppedFailure } from './importReport';
import { stoppedImportWords } from './importReport';
import type { Submission } from '../../../shared/interfaces';
import { errorItem } from '../../../shared/itemLoop';
import { apiError } from '../../../shared/nodeErrors';
import { sendFilloutRequest } from '../../../transport';

/** Fillout accepts at most 10 submissions per create request. */
export const SUBMISSIONS_PER_REQUEST = 10;

/**
 * Create requests in flight at once: one second's worth of Fillout's 5 requests per
 * second, so the pacer stays the only wait while an answer takes up to ~1 s (at 300 ms,
 * 2 would do).
 */
const REQUESTS_IN_FLIGHT = 5;

/**
 * Sends the prepared items, per form and 10 per request, up to REQUESTS_IN_FLIGHT
 * requests at a time, in item order. Each created submission goes to `output` at its
 * item's place, and so does each failure with Continue On Fail. Without it, a failure
 * stops the import: no further request starts (one waiting for its turn at the pacer
 * has started), those in flight are answered, and the error says what became of every item.
 */
export async function sendBatches(
	ctx: IExecuteFunctions,
	prepared: PreparedItem[],
	output: Array<INodeExecutionData | undefined>,
): Promise<void> {
	const batches = batchesOf(prepared);
	const failed: Array<{ position: number; failures: ItemFailure[] }> = [];
	let started = 0;
	let thrown: { error: unknown } | undefined;
	const sendInTurn = async () => {
		while (started < batches.length && !thrown && failed.length === 0) {
			const position = started++;
			try {
				const outcome = await sendBatch(ctx, batches[position]);
				for (const { itemIndex, submission } of outcome.created)
					output[itemIndex] = { json: submission, pairedItem: { item: itemIndex } };
				if (outcome.failures.length && !ctx.continueOnFail())
					failed.push({ position, failures: outcome.failures });
				else
					for (const { itemIndex, words } of outcome.failures)
						output[itemIndex] = errorItem(apiError(ctx, words, itemIndex), itemIndex);
			} catch (error) {
				thrown ??= { error };
			}
		}
	};
	const senders = Math.min(REQUESTS_IN_FLIGHT, batches.length);
	await Promise.all(Array.from({ length: senders }, sendInTurn));
	if (thrown) throw thrown.error;
	if (failed.length === 0) return;
	// In the order sent: the earliest failed request heads the error, whichever answered first.
	const failures = failed.sort((a, b) => a.position - b.position).map((f) => f.failures);
	const notSent = batches.slice(started).flatMap((batch) => batch.items);
	throw stoppedImportError(ctx, failures, output, notSent);
}

/** The requests of an import: per form in the order of its first item, 10 items each. */
function batchesOf(prepared: PreparedItem[]): Batch[] {
	return [...groupBy(prepared, (item) => item.formId)].flatMap(([formId, items]) =>
		chunk(items, SUBMISSIONS_PER_REQUEST).map(
			(batchItems): Batch => ({ formId, items: batchItems }),
		),
	);
}

/**
 * One create request and its outcome. A rejected request creates nothing: with
 * Continue On Fail, the items Fillout found no fault with are sent once more.
 */
async function sendBatch(ctx: IExecuteFunctions, batch: Batch): Promise<BatchOutcome> {
	const outcome = batchOutcome(batch, await createRequest(ctx, batch));
	if (!ctx.continueOnFail() || outcome.resendable.length === 0) return outcome;
	const resent: Batch = { formId: batch.formId, items: outcome.resendable };
	return afterResend(outcome, batchOutcome(resent, await createRequest(ctx, resent)));
}

async function createRequest(ctx: IExecuteFunctions, batch: Batch) {
	return await sendFilloutRequest<{ submissions?: Submission[] }>(ctx, {
		method: 'POST',
		path: `/forms/${encodeURIComponent(batch.formId)}/submissions`,
		body: { submissions: batch.items.map((item) => item.payload) },
	});
}

/** The error that stops an import, with what became of every item (see stoppedImportWords). */
function stoppedImportError(
	ctx: IExecuteFunctions,
	failedRequests: ItemFailure[][],
	output: ReadonlyArray<INodeExecutionData | undefined>,
	notSent: PreparedItem[],
) {
	const stopped = failedRequests.map((failures) =>
		failures.map((failure) => stoppedFailure(ctx, failure)),
	);
	const created = output.flatMap((entry, itemIndex): CreatedItem[] =>
		entry && !entry.error ? [{ itemIndex, submissionId: String(entry.json.submissionId) }] : [],
	);
	const words = stoppedImportWords(
		stopped,
		created,
		notSent.map((item) => item.itemIndex),
	);
	return apiError(ctx, words, words.itemIndex);
}

/** A failure with the words its error shows (n8n may fill in what the words leave out). */
function stoppedFailure(ctx: IExecuteFunctions, failure: ItemFailure): StoppedFailure {
	const error = apiError(ctx, failure.words, failure.itemIndex);
	return {
		itemIndex: failure.itemIndex,
		outcome: failure.outcome,
		issue: failure.issue,
		message: error.message,
		description: error.description ?? undefined,
		httpCode: error.httpCode ?? undefined,
	};
}
