import type { CreatePayload } from './createPayload';
import type { ErrorText, FailedRequest } from '../../../transport/errorMessages';
import { describeFailedRequest, serviceMessage } from '../../../transport/errorMessages';
import { parseValidationIssues, type ValidationIssue } from '../../../transport/validationIssues';
import type { Submission } from '../../../shared/interfaces';
import { attributeIssues } from './issuesByItem';
import { atItem, itemsNamed } from '../../../shared/nodeErrors';
import { neverReachedService } from '../../../transport/retry';

/**
 * What became of each item of a create request, judged from Fillout's response alone.
 * Pure: the sender makes the request, and turns the outcome into output and errors.
 */

/** One item, checked and ready to be sent. */
export interface PreparedItem {
	itemIndex: number;
	formId: string;
	/** Names of the form's questions and other fields, to explain a rejection. */
	fieldNames: ReadonlyMap<string, string>;
	/** Answers were mapped with the questions saved in the node, without reading the form. */
	fromSavedColumns: boolean;
	payload: CreatePayload;
}

/** The items of one create request. */
export interface Batch {
	formId: string;
	items: PreparedItem[];
}

export type CreateResponse =
	| { ok: true; body?: { submissions?: Submission[] } }
	| ({ ok: false } & FailedRequest);

/** An item that did not come back created. */
export interface ItemFailure {
	itemIndex: number;
	/** rejected: Fillout named a problem of the item; refused: its request created nothing; uncertain: it may have been created. */
	outcome: 'rejected' | 'refused' | 'uncertain';
	words: ErrorText;
	/** A rejected item's problems, in Fillout's words. */
	issue?: string;
}

export interface BatchOutcome {
	created: Array<{ itemIndex: number; submission: Submission }>;
	failures: ItemFailure[];
	/** Items refused only for sharing a rejected request: sending them once more may create them. */
	resendable: PreparedItem[];
}

const SAVED_COLUMNS_HINT =
	'The answers were mapped with the questions saved in the node when the form was chosen. If the form’s questions have changed since, open the node: it loads the current ones.';

export function batchOutcome(batch: Batch, answer: CreateResponse): BatchOutcome {
	if (answer.ok) return pairedWithItems(batch, answer.body?.submissions);
	const issues =
		answer.failure.statusCode === 400
			? parseValidationIssues(serviceMessage(answer.failure.body))
			: undefined;
	return issues ? rejection(batch, issues) : wholeRequestFailed(batch, answer);
}

/** The outcome once the resendable items of `first` were sent again and judged in `resent`. */
export function afterResend(first: BatchOutcome, resent: BatchOutcome): BatchOutcome {
	const sentAgain = new Set(first.resendable.map((item) => item.itemIndex));
	return {
		created: [...first.created, ...resent.created],
		failures: [
			...first.failures.filter((failure) => !sentAgain.has(failure.itemIndex)),
			...resent.failures,
		],
		resendable: [],
	};
}

/**
 * Never reached, or refused with a 4xx: nothing was created. A server error or a broken
 * connection: the request may have been processed.
 */
function wholeRequestFailed(batch: Batch, answer: FailedRequest): BatchOutcome {
	const { failure } = answer;
	const refused =
		neverReachedService(failure) || (failure.statusCode !== undefined && failure.statusCode < 500);
	const wordsFor = refused
		? () => describeFailedRequest(answer, { formId: batch.formId })
		: uncertainWords(batch, answer);
	return {
		created: [],
		failures: batch.items.map(({ itemIndex }) => ({
			itemIndex,
			outcome: refused ? 'refused' : 'uncertain',
			words: wordsFor(itemIndex),
		})),
		resendable: [],
	};
}

/** Created submissions come back in the order sent; an item without one may or may not exist. */
function pairedWithItems(batch: Batch, submissions: Submission[] | undefined): BatchOutcome {
	const created = Array.isArray(submissions) ? submissions : [];
	const outcome: BatchOutcome = { created: [], failures: [], resendable: [] };
	batch.items.forEach(({ itemIndex }, position) => {
		const submission = created[position];
		if (submission) outcome.created.push({ itemIndex, submission });
		else
			outcome.failures.push({
				itemIndex,
				outcome: 'uncertain',
				words: { message: atItem('Fillout did not return the created submission', itemIndex) },
			});
	});
	return outcome;
}

/** Each item's words when the request may or may not have created them. */
function uncertainWords(batch: Batch, answer: FailedRequest): (itemIndex: number) => ErrorText {
	const cause = describeFailedRequest(answer, { formId: batch.formId });
	const indexes = batch.items.map((item) => item.itemIndex);
	const which = `the submission${indexes.length === 1 ? '' : 's'} of ${itemsNamed(indexes)}`;
	const description =
		`${cause.message}. ${cause.description ?? ''} Check the form's results in Fillout before running these items again: a repeat could create them twice.`
			.replace(/\s+/g, ' ')
			.trim();
	return (itemIndex) => ({
		message: atItem(`Fillout may or may not have created ${which}`, itemIndex),
		httpCode: cause.httpCode,
		description,
	});
}

/**
 * A rejected request created nothing: each item Fillout named gets its problems; the
 * others were refused only for sharing the request, and may be sent again unless an
 * issue was about the request as a whole.
 */
function rejection(batch: Batch, issues: ValidationIssue[]): BatchOutcome {
	const report = attributeIssues(issues, batch.items, batch.items[0].fieldNames);
	const rejected = batch.items.flatMap((item): ItemFailure[] => {
		const messages = report.byItem.get(item.itemIndex);
		if (!messages) return [];
		const [first, ...others] = messages;
		const details = [others.join('; '), item.fromSavedColumns ? SAVED_COLUMNS_HINT : ''];
		const words: ErrorText = {
			message: atItem(`Fillout rejected ${first}`, item.itemIndex),
			httpCode: '400',
		};
		const description = details.filter(Boolean).join('. ');
		if (description) words.description = description;
		return [{ itemIndex: item.itemIndex, outcome: 'rejected', issue: messages.join('; '), words }];
	});
	const unrejected = batch.items.filter((item) => !report.byItem.has(item.itemIndex));
	const refusedBecause = report.general.length
		? report.general.join('; ')
		: rejected.length
			? `${itemsNamed(rejected.map((failure) => failure.itemIndex))} of the same request ${rejected.length === 1 ? 'was' : 'were'} rejected`
			: 'Fillout rejected the request';
	const refused = unrejected.map(
		({ itemIndex }): ItemFailure => ({
			itemIndex,
			outcome: 'refused',
			words: {
				message: atItem(`Not created because ${refusedBecause}`, itemIndex),
				httpCode: '400',
			},
		}),
	);
	const resendable = report.general.length === 0 && rejected.length > 0 ? unrejected : [];
	return { created: [], failures: [...rejected, ...refused], resendable };
}
