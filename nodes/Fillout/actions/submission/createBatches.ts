import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { attributeIssues } from '../../helpers/issuesByItem';
import { describeFailure, parseValidationIssues, serviceMessage } from '../../helpers/failures';
import type { ServiceFailure, ValidationIssue } from '../../helpers/failures';
import type { CreatedItem } from '../../helpers/importReport';
import { stoppedImportDescription, stoppedImportMessage } from '../../helpers/importReport';
import type { Submission } from '../../helpers/interfaces';
import { atItem, itemsNamed } from '../../helpers/itemNumbers';
import { neverReachedService } from '../../helpers/retry';
import { apiError, filloutError, itemProblem } from '../../shared/nodeErrors';
import { sendFilloutRequest } from '../../transport';

/** Fillout accepts at most 10 submissions per create request. */
export const SUBMISSIONS_PER_REQUEST = 10;

const SAVED_COLUMNS_HINT =
	'The answers were mapped with the questions saved in the node when the form was chosen. If the form’s questions have changed since, open the node: it loads the current ones.';

/** One item, checked and ready to be sent. */
export interface PreparedItem {
	itemIndex: number;
	formId: string;
	/** Names of the form's questions and other fields, to explain a rejection. */
	fieldNames: ReadonlyMap<string, string>;
	/** Answers were mapped with the questions saved in the node, without reading the form. */
	fromSavedColumns: boolean;
	payload: IDataObject & { questions: Array<{ id: string; value: unknown }> };
}

/** Fillout's answer about one item, as an error named at the item. */
function itemApiError(
	ctx: IExecuteFunctions,
	message: string,
	itemIndex: number,
	httpCode?: string,
	description?: string,
): NodeApiError {
	return apiError(ctx, { message: atItem(message, itemIndex), httpCode, description }, itemIndex);
}

/** An item of a create request that did not come back created. */
export interface BatchFailure {
	itemIndex: number;
	/** rejected: Fillout named a problem of the item; refused: its request created nothing; uncertain: it may have been created. */
	outcome: 'rejected' | 'refused' | 'uncertain';
	error: NodeApiError | NodeOperationError;
	/** A rejected item's problems, in Fillout's words. */
	issue?: string;
}

/**
 * Sends one create request. Each created submission goes to `output` at its item's
 * place; the items that were not created are returned. `resendUnrejected`: after a
 * rejection, which creates nothing, send once more the items Fillout found no fault with.
 */
export async function sendBatch(
	ctx: IExecuteFunctions,
	formId: string,
	batch: PreparedItem[],
	output: Array<INodeExecutionData | undefined>,
	resendUnrejected: boolean,
): Promise<BatchFailure[]> {
	const outcome = await sendFilloutRequest<{ submissions?: Submission[] }>(ctx, {
		method: 'POST',
		path: `/forms/${encodeURIComponent(formId)}/submissions`,
		body: { submissions: batch.map((item) => item.payload) },
	});

	if (outcome.ok) return storeCreated(ctx, batch, outcome.body?.submissions, output);

	const { failure } = outcome;
	const issues =
		failure.statusCode === 400 ? parseValidationIssues(serviceMessage(failure.body)) : undefined;
	if (issues) {
		const { rejected, unrejected, refusedBecause, resendable } = rejection(ctx, batch, issues);
		if (resendUnrejected && resendable && unrejected.length) {
			return [...rejected, ...(await sendBatch(ctx, formId, unrejected, output, false))];
		}
		return [
			...rejected,
			...unrejected.map(
				(item): BatchFailure => ({
					itemIndex: item.itemIndex,
					outcome: 'refused',
					error: itemApiError(ctx, `Not created because ${refusedBecause}`, item.itemIndex, '400'),
				}),
			),
		];
	}

	if (
		neverReachedService(failure) ||
		(failure.statusCode !== undefined && failure.statusCode < 500)
	) {
		// Fillout refused the request as a whole: nothing was created.
		return batch.map((item) => ({
			itemIndex: item.itemIndex,
			outcome: 'refused',
			error: filloutError(ctx, outcome, { formId }, item.itemIndex),
		}));
	}

	// A server error or a broken connection: the request may have been processed.
	return mayHaveBeenCreated(ctx, formId, batch, outcome);
}

/** Each created submission into `output`, paired to its item; the ones missing are returned. */
function storeCreated(
	ctx: IExecuteFunctions,
	batch: PreparedItem[],
	submissions: Submission[] | undefined,
	output: Array<INodeExecutionData | undefined>,
): BatchFailure[] {
	const created = Array.isArray(submissions) ? submissions : [];
	return batch.flatMap((item, position): BatchFailure[] => {
		const submission = created[position];
		if (submission) {
			output[item.itemIndex] = { json: submission, pairedItem: { item: item.itemIndex } };
			return [];
		}
		const error = itemProblem(ctx, 'Fillout did not return the created submission', item.itemIndex);
		return [{ itemIndex: item.itemIndex, outcome: 'uncertain', error }];
	});
}

function mayHaveBeenCreated(
	ctx: IExecuteFunctions,
	formId: string,
	batch: PreparedItem[],
	outcome: { failure: ServiceFailure; attempts: number; apiRoot: string },
): BatchFailure[] {
	const cause = describeFailure(outcome.failure, {
		formId,
		apiRoot: outcome.apiRoot,
		attempts: outcome.attempts,
	});
	const which = `the submission${batch.length === 1 ? '' : 's'} of ${itemsNamed(batch.map((item) => item.itemIndex))}`;
	const description =
		`${cause.message}. ${cause.description ?? ''} Check the form's results in Fillout before running these items again: a repeat could create them twice.`
			.replace(/\s+/g, ' ')
			.trim();
	return batch.map((item) => ({
		itemIndex: item.itemIndex,
		outcome: 'uncertain',
		error: itemApiError(
			ctx,
			`Fillout may or may not have created ${which}`,
			item.itemIndex,
			cause.httpCode,
			description,
		),
	}));
}

/**
 * A rejected request created nothing: each item Fillout named gets its problems; the
 * others were refused only for sharing the request, and may be sent again unless an
 * issue was about the request as a whole.
 */
function rejection(
	ctx: IExecuteFunctions,
	batch: PreparedItem[],
	issues: ValidationIssue[],
): {
	rejected: BatchFailure[];
	unrejected: PreparedItem[];
	refusedBecause: string;
	resendable: boolean;
} {
	const report = attributeIssues(issues, batch, batch[0].fieldNames);
	const rejected = batch.flatMap((item): BatchFailure[] => {
		const messages = report.byItem.get(item.itemIndex);
		if (!messages) return [];
		const [first, ...others] = messages;
		const details = [others.join('; '), item.fromSavedColumns ? SAVED_COLUMNS_HINT : ''];
		return [
			{
				itemIndex: item.itemIndex,
				outcome: 'rejected',
				issue: messages.join('; '),
				error: itemApiError(
					ctx,
					`Fillout rejected ${first}`,
					item.itemIndex,
					'400',
					details.filter(Boolean).join('. ') || undefined,
				),
			},
		];
	});
	const rejectedIndexes = rejected.map((failure) => failure.itemIndex);
	const refusedBecause = report.general.length
		? report.general.join('; ')
		: rejected.length
			? `${itemsNamed(rejectedIndexes)} of the same request ${rejected.length === 1 ? 'was' : 'were'} rejected`
			: 'Fillout rejected the request';
	return {
		rejected,
		unrejected: batch.filter((item) => !report.byItem.has(item.itemIndex)),
		refusedBecause,
		resendable: report.general.length === 0 && rejected.length > 0,
	};
}

/**
 * The error that stops an import at a failed request (without Continue On Fail): its
 * first failure, and what became of every item, so that re-running the items that
 * were not created creates nothing twice.
 */
export function stoppedImportError(
	ctx: IExecuteFunctions,
	failures: BatchFailure[],
	output: ReadonlyArray<INodeExecutionData | undefined>,
	notSent: number[],
): NodeApiError {
	const [headline] = failures;
	const created = output.flatMap((entry, itemIndex): CreatedItem[] =>
		entry && !entry.error ? [{ itemIndex, submissionId: String(entry.json.submissionId) }] : [],
	);
	const indexesOf = (outcome: BatchFailure['outcome']) =>
		failures.filter((failure) => failure.outcome === outcome).map((failure) => failure.itemIndex);
	const progress = stoppedImportDescription({
		created,
		rejected: failures.flatMap((failure) =>
			failure.outcome === 'rejected'
				? [{ itemIndex: failure.itemIndex, issue: failure.issue ?? failure.error.message }]
				: [],
		),
		refused: indexesOf('refused'),
		uncertain: indexesOf('uncertain'),
		notSent,
	});
	const cause = headline.error.description;
	const named = headline.error.message.endsWith(atItem('', headline.itemIndex));
	const message = stoppedImportMessage(
		named ? headline.error.message : atItem(headline.error.message, headline.itemIndex),
		created,
	);
	const httpCode = headline.error instanceof NodeApiError ? headline.error.httpCode : null;
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description: cause ? `${cause.replace(/\.?$/, '.')} ${progress}` : progress,
		httpCode: httpCode ?? undefined,
		itemIndex: headline.itemIndex,
	});
}
