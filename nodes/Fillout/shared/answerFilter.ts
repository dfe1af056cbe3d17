/**
 * The answer filter: whether a submission's answer to one question (or URL parameter)
 * meets a condition, and which `search` text may narrow Fillout's listing first. Pure;
 * answers are respondent input of any JSON shape, so nothing here trusts their shape.
 * docs/fillout-node.md, "Find by answer", states the rules.
 */
import type { IDataObject } from 'n8n-workflow';

import { questionTypeInfo } from './questionTypes';

export const ANSWER_CONDITIONS = [
	'equals',
	'notEquals',
	'contains',
	'notContains',
	'isEmpty',
	'isNotEmpty',
] as const;

export type AnswerCondition = (typeof ANSWER_CONDITIONS)[number];

/** The conditions that compare with a value (the others ignore it). */
export const VALUE_CONDITIONS: readonly AnswerCondition[] = [
	'equals',
	'notEquals',
	'contains',
	'notContains',
];

export interface AnswerField {
	kind: 'question' | 'urlParameter';
	id: string;
	name: string;
	/** The question's type in the form's metadata (none for a URL parameter). */
	type?: string;
}

export interface AnswerFilter {
	field: AnswerField;
	condition: AnswerCondition;
	/** Compared ignoring case and leading and trailing spaces. */
	value: string;
}

/** Nesting read at most: deeper parts of an answer are ignored (a hostile answer's depth). */
const MAX_DEPTH = 16;

/** How a text is compared: leading and trailing spaces and case do not count. */
export function comparable(text: string): string {
	return text.trim().toLowerCase();
}

/** The text of a plain value (string, finite number, boolean); undefined for anything else. */
function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
	if (typeof value === 'boolean') return String(value);
	return undefined;
}

/** Every plain value inside `value`, depth first, as text. */
function textsIn(value: unknown, depth = 0): string[] {
	const text = textOf(value);
	if (text !== undefined) return [text];
	if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return [];
	const parts = Array.isArray(value) ? value : Object.values(value);
	return parts.flatMap((part) => textsIn(part, depth + 1));
}

/** No answer: missing, null, blank text, or a list or object of nothing but those. */
export function isEmptyAnswer(value: unknown, depth = 0): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value === 'string') return value.trim() === '';
	if (typeof value !== 'object') return false;
	if (depth >= MAX_DEPTH) return false;
	const parts = Array.isArray(value) ? value : Object.values(value);
	return parts.every((part) => isEmptyAnswer(part, depth + 1));
}

/** The answer itself, or for a list (a choice of several), one of its items. */
function isEqual(value: unknown, wanted: string): boolean {
	const candidates = Array.isArray(value) ? value : [value];
	return candidates.some((candidate) => {
		const text = textOf(candidate);
		return text !== undefined && comparable(text) === wanted;
	});
}

function contains(value: unknown, wanted: string): boolean {
	return textsIn(value).some((text) => text.toLowerCase().includes(wanted));
}

/** The value of the field in this submission: the first entry with its id, else undefined. */
export function answerOf(submission: unknown, field: AnswerField): unknown {
	if (typeof submission !== 'object' || submission === null) return undefined;
	const list = (submission as IDataObject)[
		field.kind === 'question' ? 'questions' : 'urlParameters'
	];
	if (!Array.isArray(list)) return undefined;
	const entry: unknown = list.find(
		(item: unknown) =>
			typeof item === 'object' && item !== null && (item as IDataObject).id === field.id,
	);
	return entry === undefined ? undefined : (entry as IDataObject).value;
}

/** Whether the submission's answer meets the filter's condition. */
export function answerMatches(submission: unknown, filter: AnswerFilter): boolean {
	const value = answerOf(submission, filter.field);
	const wanted = comparable(filter.value);
	switch (filter.condition) {
		case 'equals':
			return isEqual(value, wanted);
		case 'notEquals':
			return !isEqual(value, wanted);
		case 'contains':
			return contains(value, wanted);
		case 'notContains':
			return !contains(value, wanted);
		case 'isEmpty':
			return isEmptyAnswer(value);
		case 'isNotEmpty':
			return !isEmptyAnswer(value);
	}
}

/** Question kinds whose answers are text or numbers only, which Fillout's search finds. */
const SEARCHABLE_KINDS = new Set(['text', 'number', 'choice', 'array', 'date', 'dateTime']);

/**
 * The `search` text that keeps every submission the filter matches, when there is one:
 * a matching answer then holds the value as text. Not for URL parameters, booleans or
 * shapes Fillout does not document (whether its search reads them is unverified).
 */
export function searchTextOf(filter: AnswerFilter): string | undefined {
	if (filter.condition !== 'equals' && filter.condition !== 'contains') return undefined;
	if (filter.field.kind !== 'question') return undefined;
	const kind = questionTypeInfo(filter.field.type)?.answer;
	if (kind === undefined || !SEARCHABLE_KINDS.has(kind)) return undefined;
	const text = filter.value.trim();
	return text === '' ? undefined : text;
}
