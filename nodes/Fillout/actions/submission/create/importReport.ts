import type { ErrorText } from '../../../transport/errorMessages';
import { atItem, itemsNamed } from '../../../shared/nodeErrors';

/**
 * The words of an import that stopped part way: which items Fillout created (with
 * their submission IDs), which it may have created, and which it did not, so that the
 * user can run the rest again without creating anything twice.
 */

export interface CreatedItem {
	itemIndex: number;
	submissionId: string;
}

export interface StoppedImport {
	created: readonly CreatedItem[];
	/** Items Fillout named a problem of, with its words. */
	rejected: ReadonlyArray<{ itemIndex: number; issue: string }>;
	/**
	 * Items of requests Fillout refused as a whole (nothing of them was created), one
	 * entry per request; `withRejected`: the request also held a rejected item.
	 */
	refused: ReadonlyArray<{ items: readonly number[]; withRejected: boolean }>;
	/** Items of a request that may or may not have been processed. */
	uncertain: readonly number[];
	notSent: readonly number[];
}

/** The cause, preceded by what had been created before it. */
export function stoppedImportMessage(cause: string, created: readonly CreatedItem[]): string {
	if (created.length === 0) return cause;
	const verb = created.length === 1 ? 'was' : 'were';
	return `Import stopped after ${itemsNamed(created.map((item) => item.itemIndex))} ${verb} created: ${cause}`;
}

export function stoppedImportDescription(stopped: StoppedImport): string {
	const { created, rejected, refused, uncertain, notSent } = stopped;
	const sentences: string[] = [];
	if (created.length) {
		const inItemOrder = [...created].sort((a, b) => a.itemIndex - b.itemIndex);
		const ids = inItemOrder.map((item) => `${item.itemIndex} → ${item.submissionId}`);
		sentences.push(`Created (item → submission ID): ${ids.join(', ')}.`);
	} else if (uncertain.length === 0) {
		sentences.push('No submission was created.');
	}
	if (uncertain.length)
		sentences.push(`May or may not have been created: ${itemsNamed(uncertain)}.`);

	const notCreated: string[] = [];
	if (rejected.length)
		notCreated.push(`${itemsNamed(rejected.map((r) => r.itemIndex))} (rejected)`);
	for (const withRejected of [true, false]) {
		const requests = refused.filter((request) => request.withRejected === withRejected);
		if (requests.length === 0) continue;
		const plural = requests.length === 1 ? '' : 's';
		const why = withRejected
			? `sent in the same request${plural}, which Fillout refused as a whole`
			: `Fillout refused their request${plural}`;
		notCreated.push(`${itemsNamed(requests.flatMap((request) => request.items))} (${why})`);
	}
	if (notSent.length) notCreated.push(`${itemsNamed(notSent)} (not sent)`);
	if (notCreated.length) sentences.push(`Not created: ${notCreated.join(', ')}.`);

	// The first rejection is the error's message; the others are named here.
	const others = rejected.slice(1).map((r) => `item ${r.itemIndex} (${r.issue})`);
	if (others.length) sentences.push(`Also rejected: ${others.join('; ')}.`);

	if (created.length || uncertain.length) {
		sentences.push(
			`Run again only the items that were not created${uncertain.length ? ', after checking the form’s results in Fillout for those that may have been' : ''}: an item created once and run again is created twice.`,
		);
	}
	return sentences.join(' ');
}

/** A failure of the request that stopped the import, with the words its error shows. */
export interface StoppedFailure {
	itemIndex: number;
	outcome: 'rejected' | 'refused' | 'uncertain';
	/** A rejected item's problems, in Fillout's words. */
	issue?: string;
	message: string;
	description?: string;
	httpCode?: string;
}

/**
 * The error that stops an import at its failed requests (in the order sent, each with
 * its failures): the first failure, and what became of every item, so that re-running
 * the items that were not created creates nothing twice.
 */
export function stoppedImportWords(
	failedRequests: ReadonlyArray<readonly StoppedFailure[]>,
	created: readonly CreatedItem[],
	notSent: readonly number[],
): ErrorText & { itemIndex: number } {
	const failures = failedRequests.flat();
	const [headline] = failures;
	const indexesIn = (request: readonly StoppedFailure[], outcome: StoppedFailure['outcome']) =>
		request.filter((failure) => failure.outcome === outcome).map((failure) => failure.itemIndex);
	const progress = stoppedImportDescription({
		created,
		rejected: failures.flatMap((failure) =>
			failure.outcome === 'rejected'
				? [{ itemIndex: failure.itemIndex, issue: failure.issue ?? failure.message }]
				: [],
		),
		refused: failedRequests
			.map((request) => ({
				items: indexesIn(request, 'refused'),
				withRejected: indexesIn(request, 'rejected').length > 0,
			}))
			.filter((request) => request.items.length > 0),
		uncertain: failedRequests.flatMap((request) => indexesIn(request, 'uncertain')),
		notSent,
	});
	const { itemIndex, description: cause } = headline;
	const named = headline.message.endsWith(atItem('', itemIndex));
	return {
		message: stoppedImportMessage(
			named ? headline.message : atItem(headline.message, itemIndex),
			created,
		),
		description: cause ? `${cause.replace(/\.?$/, '.')} ${progress}` : progress,
		httpCode: headline.httpCode,
		itemIndex,
	};
}
