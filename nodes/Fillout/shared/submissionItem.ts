import type { IDataObject } from 'n8n-workflow';

import type { Submission } from './interfaces';
import { questionKeyMap, RESERVED_KEYS, simplifySubmission } from './simplify';

/** The item both triggers emit for one submission, whatever the service sent. */

/** An object that is neither an array nor bytes: a JSON object. */
export function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		!(value instanceof Uint8Array)
	);
}

const LISTS = ['questions', 'calculations', 'urlParameters', 'scheduling', 'payments'] as const;

/**
 * A copy the simplifier can read whatever the service sent: list entries that are not
 * objects with an id are left out, and lists or objects of the wrong type are dropped.
 */
export function readableSubmission(submission: Submission): Submission {
	const copy: Submission = { ...submission };
	for (const name of LISTS) {
		const list: unknown = submission[name];
		if (list === undefined) continue;
		if (!Array.isArray(list)) {
			delete copy[name];
			continue;
		}
		copy[name] = list.filter(
			(entry): entry is NonNullable<Submission['questions']>[number] =>
				isPlainObject(entry) && (typeof entry.id === 'string' || typeof entry.id === 'number'),
		);
	}
	if (submission.quiz !== undefined && !isPlainObject(submission.quiz)) delete copy.quiz;
	if (submission.login !== undefined && !isPlainObject(submission.login)) delete copy.login;
	return copy;
}

/** Keys the trigger adds to each item; question names never take them. */
const FORM_KEYS = ['formId', 'formName'] as const;

export interface FormFacts {
	formId: string;
	/** Null when neither the delivery nor the activation told it. */
	formName: string | null;
}

/**
 * A trigger's item for a submission: simplified (unknown question types left out) or as
 * sent, plus the form's id and name and any `extra` fields (the polling trigger's
 * `status`). Question names never take those keys, nor the `reserved` ones (the files).
 */
export function submissionItem(
	submission: Submission,
	form: FormFacts,
	simplify: boolean,
	extra: IDataObject = {},
	reserved: readonly string[] = [],
): IDataObject {
	const added = { formId: form.formId, formName: form.formName, ...extra };
	// First for the order, last so that keys of the submission never replace them.
	if (!simplify) return { ...added, ...submission, ...added };
	const readable = readableSubmission(submission);
	const taken = [...RESERVED_KEYS, ...FORM_KEYS, ...Object.keys(extra), ...reserved];
	const keys = questionKeyMap(readable.questions ?? [], taken);
	return { ...simplifySubmission(readable, keys), ...added };
}
