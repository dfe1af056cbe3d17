import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { chunk, groupBy } from '../../shared/lists';
import type { Batch, BatchVerdict, ItemFailure, PreparedItem } from '../../helpers/createVerdict';
import { afterResend, batchVerdict } from '../../helpers/createVerdict';
import type { CreatedItem, StoppedFailure } from '../../helpers/importReport';
import { stoppedImportWords } from '../../helpers/importReport';
import type { Submission } from '../../shared/interfaces';
import { errorItem } from '../../shared/itemLoop';
import { apiError } from '../../shared/nodeErrors';
import { sendFilloutRequest } from '../../transport';

/** Fillout accepts at most 10 submissions per create request. */
export const SUBMISSIONS_PER_REQUEST = 10;

/**
 * Sends the prepared items, per form and 10 per request, one request at a time: when
 * one fails, every earlier one has been answered and no later one sent, so the error
 * can say exactly what was created. Each created submission goes to `output` at its
 * item's place, and so does each failure with Continue On Fail.
 */
export async function sendBatches(
	ctx: IExecuteFunctions,
	prepared: PreparedItem[],
	output: Array<INodeExecutionData | undefined>,
): Promise<void> {
	const batches = [...groupBy(prepared, (item) => item.formId)].flatMap(([formId, items]) =>
		chunk(items, SUBMISSIONS_PER_REQUEST).map(
			(batchItems): Batch => ({ formId, items: batchItems }),
		),
	);
	for (const [position, batch] of batches.entries()) {
		const verdict = await sendAndJudge(ctx, batch);
		for (const { itemIndex, submission } of verdict.created)
			output[itemIndex] = { json: submission, pairedItem: { item: itemIndex } };
		if (verdict.failures.length === 0) continue;
		if (!ctx.continueOnFail()) {
			const notSent = batches.slice(position + 1).flatMap((later) => later.items);
			throw stoppedImportError(ctx, verdict.failures, output, notSent);
		}
		for (const { itemIndex, words } of verdict.failures)
			output[itemIndex] = errorItem(apiError(ctx, words, itemIndex), itemIndex);
	}
}

/**
 * One create request and its verdict. A rejected request creates nothing: with
 * Continue On Fail, the items Fillout found no fault with are sent once more.
 */
async function sendAndJudge(ctx: IExecuteFunctions, batch: Batch): Promise<BatchVerdict> {
	const verdict = batchVerdict(batch, await createRequest(ctx, batch));
	if (!ctx.continueOnFail() || verdict.resendable.length === 0) return verdict;
	const resent: Batch = { formId: batch.formId, items: verdict.resendable };
	return afterResend(verdict, batchVerdict(resent, await createRequest(ctx, resent)));
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
	failures: ItemFailure[],
	output: ReadonlyArray<INodeExecutionData | undefined>,
	notSent: PreparedItem[],
) {
	const stopped = failures.map((failure): StoppedFailure => {
		// The words as the error shows them (n8n may fill in what the words leave out).
		const error = apiError(ctx, failure.words, failure.itemIndex);
		return {
			itemIndex: failure.itemIndex,
			outcome: failure.outcome,
			issue: failure.issue,
			message: error.message,
			description: error.description ?? undefined,
			httpCode: error.httpCode ?? undefined,
		};
	});
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
