import type { IDataObject } from 'n8n-workflow';

import type { AnsweredField, FormMetadata, Submission } from './interfaces';
import { CALCULATION_TYPES, isKnownQuestionType } from './questionTypes';

/**
 * Keys a simplified submission uses for its own data. Question names never take
 * them: a question called "submissionId" becomes "submissionId (2)".
 */
export const RESERVED_KEYS: readonly string[] = [
	'submissionId',
	'submissionTime',
	'lastUpdatedAt',
	'startedAt',
	'editLink',
	'calculations',
	'urlParameters',
	'scheduling',
	'payments',
	'quizScore',
	'quizMaxScore',
	'loginEmail',
];

/**
 * Gives each name a unique key, in order: the first holder of a name keeps it, later
 * ones become "Name (2)", "Name (3)"… (the smallest free number). Names listed in
 * `taken` are already claimed. The result is stable for a given order of names.
 */
export function uniqueKeys(names: readonly string[], taken: readonly string[] = []): string[] {
	// Setting `__proto__` on an object replaces its prototype instead of adding a key.
	const used = new Set([...taken, '__proto__']);
	return names.map((name) => {
		let key = name;
		for (let n = 2; used.has(key); n++) key = `${name} (${n})`;
		used.add(key);
		return key;
	});
}

interface NamedQuestion {
	id: string;
	name: string;
	type?: string;
}

/**
 * Maps question ids to simplified keys, following the question order and skipping
 * question types the node does not know. Built from form metadata, or from the
 * submissions themselves (Fillout lists every question of the form in each one, so
 * all submissions of a form get the same keys). `reserved` names keys the caller
 * adds itself (the trigger adds formId and formName).
 */
export function questionKeyMap(
	questions: readonly NamedQuestion[],
	reserved: readonly string[] = RESERVED_KEYS,
): Map<string, string> {
	const known = dedupeById(questions.filter((q) => isKnownQuestionType(q.type)));
	const keys = uniqueKeys(
		known.map((q) => String(q.name ?? q.id)),
		reserved,
	);
	return new Map(known.map((q, i) => [q.id, keys[i]]));
}

function dedupeById<T extends { id: string }>(items: readonly T[]): T[] {
	const seen = new Set<string>();
	return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/** The question list of several submissions merged in first-seen order. */
export function questionsOf(submissions: readonly Submission[]): AnsweredField[] {
	return dedupeById(submissions.flatMap((s) => s.questions ?? []));
}

function namedValues(
	fields: readonly AnsweredField[] | undefined,
	convert: (field: AnsweredField) => unknown = (field) => field.value,
): IDataObject | undefined {
	if (!fields?.length) return undefined;
	const keys = uniqueKeys(fields.map((f) => String(f.name ?? f.id)));
	const result: IDataObject = {};
	fields.forEach((field, i) => {
		result[keys[i]] = convert(field) as IDataObject[string];
	});
	return result;
}

function calculationValue(field: AnsweredField): unknown {
	if (field.type === 'number' && typeof field.value === 'string' && field.value.trim() !== '') {
		const numeric = Number(field.value);
		if (Number.isFinite(numeric)) return numeric;
	}
	return field.value;
}

/**
 * One flat object per submission: each known question's answer under its name (see
 * `questionKeyMap` for repeated names), then the submission's own data under the
 * reserved keys. Unknown question and calculation types are left out.
 */
export function simplifySubmission(
	submission: Submission,
	keys: Map<string, string> = questionKeyMap(submission.questions ?? []),
): IDataObject {
	const result: IDataObject = {
		submissionId: submission.submissionId,
		submissionTime: submission.submissionTime,
	};
	if (submission.lastUpdatedAt !== undefined) result.lastUpdatedAt = submission.lastUpdatedAt;
	if (submission.startedAt !== undefined) result.startedAt = submission.startedAt;

	for (const question of submission.questions ?? []) {
		const key = keys.get(question.id);
		if (key !== undefined && isKnownQuestionType(question.type)) {
			result[key] = question.value ?? null;
		}
	}

	const calculations = namedValues(
		submission.calculations?.filter((c) => CALCULATION_TYPES.includes(String(c.type))),
		calculationValue,
	);
	const extras: IDataObject = {
		calculations,
		urlParameters: namedValues(submission.urlParameters),
		scheduling: namedValues(submission.scheduling),
		payments: namedValues(submission.payments),
		quizScore: submission.quiz?.score,
		quizMaxScore: submission.quiz?.maxScore,
		loginEmail: submission.login?.email,
		editLink: submission.editLink,
	};
	for (const [key, value] of Object.entries(extras)) {
		if (value !== undefined) result[key] = value;
	}
	return result;
}

/** Simplifies submissions of one form with one shared key map; `reserved` as for questionKeyMap. */
export function simplifySubmissions(
	submissions: readonly Submission[],
	reserved: readonly string[] = RESERVED_KEYS,
): IDataObject[] {
	const keys = questionKeyMap(questionsOf(submissions), reserved);
	return submissions.map((submission) => simplifySubmission(submission, keys));
}

/**
 * A form's metadata as Fillout sent it, less the questions and calculations of types
 * the node does not know: Fillout adds types without notice, and clients are to
 * discard the ones they cannot read.
 */
export function simplifyFormMetadata(metadata: FormMetadata): FormMetadata {
	const simplified: FormMetadata = { ...metadata };
	if (Array.isArray(metadata.questions))
		simplified.questions = metadata.questions.filter((q) => isKnownQuestionType(q.type));
	if (Array.isArray(metadata.calculations))
		simplified.calculations = metadata.calculations.filter((c) =>
			CALCULATION_TYPES.includes(String(c.type)),
		);
	return simplified;
}
