/**
 * The answer filter's parameters (Get Many, Count, the polling trigger): the question, the
 * condition, the value; and reading them into an `AnswerFilter` with the form's metadata,
 * which names the question's type and turns a name into its ID.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	ANSWER_CONDITIONS,
	VALUE_CONDITIONS,
	type AnswerCondition,
	type AnswerField,
	type AnswerFilter,
} from './answerFilter';
import type { FormMetadata } from './interfaces';
import { itemProblem } from './nodeErrors';
import { getFormMetadata, type FilloutContext } from '../transport';

const CONDITION_NAMES: Record<AnswerCondition, string> = {
	equals: 'Is Equal To',
	notEquals: 'Is Not Equal To',
	contains: 'Contains',
	notContains: 'Does Not Contain',
	isEmpty: 'Is Empty',
	isNotEmpty: 'Is Not Empty',
};

/** The "Answer" filter: one question, a condition, a value. */
export const answerFilterOption: INodeProperties = {
	displayName: 'Answer',
	name: 'answer',
	type: 'fixedCollection',
	placeholder: 'Add Answer Filter',
	default: {},
	description: 'Only submissions whose answer to one question meets a condition',
	options: [
		{
			displayName: 'Answer',
			name: 'filter',
			values: [
				{
					displayName: 'Question Name or ID',
					name: 'question',
					type: 'options',
					typeOptions: {
						loadOptionsMethod: 'getAnswerFields',
						loadOptionsDependsOn: ['form.value'],
					},
					default: '',
					description:
						'A question or URL parameter (hidden field) of the form. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					hint: 'In an expression, a question’s ID or its name',
				},
				{
					displayName: 'Condition',
					name: 'condition',
					type: 'options',
					options: ANSWER_CONDITIONS.map((value) => ({ name: CONDITION_NAMES[value], value })),
					default: 'equals',
					description:
						'"Is Equal To" on a question with several answers (checkboxes, multi-select) means one of them',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					hint: 'Case and spaces at either end do not count: " Ann@X.com" is equal to "ann@x.com"',
					displayOptions: { show: { condition: VALUE_CONDITIONS as AnswerCondition[] } },
				},
			],
		},
	],
};

/** The form's questions, then its URL parameters, for the "Question" list. */
export function answerFieldOptions(metadata: FormMetadata): INodePropertyOptions[] {
	const questions = listOf(metadata.questions).map((question) => ({
		name: question.name,
		value: question.id,
		description: `${question.type ?? 'Question'} · ID ${question.id}`,
	}));
	const parameters = listOf(metadata.urlParameters).map((parameter) => ({
		name: `${parameter.name} (URL Parameter)`,
		value: parameter.id,
		description: `URL parameter or hidden field · ID ${parameter.id}`,
	}));
	return [...questions, ...parameters];
}

interface Field {
	id: string;
	name: string;
	type?: string;
}

/** The entries with a string id and name (metadata is read defensively, like answers). */
function listOf(value: unknown): Field[] {
	if (!Array.isArray(value)) return [];
	return value.filter(
		(entry: unknown): entry is Field =>
			typeof entry === 'object' &&
			entry !== null &&
			typeof (entry as Field).id === 'string' &&
			typeof (entry as Field).name === 'string',
	);
}

/** The raw parameter, when the filter is set: `{filter: {question, condition, value}}`. */
export function answerParameterOf(raw: unknown): IDataObject | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const filter = (raw as IDataObject).filter;
	return typeof filter === 'object' && filter !== null && !Array.isArray(filter)
		? (filter as IDataObject)
		: undefined;
}

/** What a set filter asks for, before the form is read; a problem is a message for the user. */
export type ParsedFilter =
	| { ref: string; condition: AnswerCondition; value: string }
	| { problem: string; hint?: string };

export function parseAnswerParameter(filter: IDataObject): ParsedFilter {
	const question = filter.question;
	const ref = typeof question === 'number' ? String(question) : String(question ?? '').trim();
	if (ref === '' || typeof question === 'object') {
		return {
			problem: 'The answer filter names no question',
			hint: 'Choose a question in "Question Name or ID", or remove the answer filter.',
		};
	}
	const condition = (filter.condition ?? 'equals') as AnswerCondition;
	if (!ANSWER_CONDITIONS.includes(condition)) {
		return {
			problem: `The answer filter's condition ${JSON.stringify(String(condition))} is not one the node knows`,
			hint: `Use one of: ${ANSWER_CONDITIONS.join(', ')}.`,
		};
	}
	const raw = filter.value;
	const value = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
	if (!VALUE_CONDITIONS.includes(condition)) return { ref, condition, value: '' };
	if (typeof value !== 'string' || value.trim() === '') {
		return {
			problem: `The answer filter's "Value" is empty`,
			hint: 'Give the value to compare with, or use the condition "Is Empty" or "Is Not Empty".',
		};
	}
	return { ref, condition, value };
}

/**
 * The question or URL parameter `ref` names in the form: an ID first, then a name
 * (case and spaces at either end do not count). A name several share is refused.
 */
export function fieldOf(
	metadata: FormMetadata,
	ref: string,
): { field: AnswerField } | { problem: string; hint: string } {
	const questions = listOf(metadata.questions);
	const parameters = listOf(metadata.urlParameters);
	const question = (entry: Field): AnswerField => ({
		kind: 'question',
		id: entry.id,
		name: entry.name,
		type: typeof entry.type === 'string' ? entry.type : undefined,
	});
	const parameter = (entry: Field): AnswerField => ({
		kind: 'urlParameter',
		id: entry.id,
		name: entry.name,
	});
	const byId = questions.find((entry) => entry.id === ref);
	if (byId) return { field: question(byId) };
	const parameterById = parameters.find((entry) => entry.id === ref);
	if (parameterById) return { field: parameter(parameterById) };
	const wanted = ref.trim().toLowerCase();
	const named = [
		...questions.filter((entry) => entry.name.trim().toLowerCase() === wanted).map(question),
		...parameters.filter((entry) => entry.name.trim().toLowerCase() === wanted).map(parameter),
	];
	if (named.length === 1) return { field: named[0] };
	const form = JSON.stringify(String(metadata.name ?? metadata.id ?? ''));
	if (named.length > 1) {
		return {
			problem: `The answer filter's question ${JSON.stringify(ref)} names ${named.length} fields of the form ${form}`,
			hint: `Give one of their IDs instead: ${named.map((field) => field.id).join(', ')}.`,
		};
	}
	const known = [...questions, ...parameters].map((entry) => JSON.stringify(entry.name));
	return {
		problem: `The form ${form} has no question or URL parameter ${JSON.stringify(ref)} (the answer filter's question)`,
		hint:
			known.length === 0
				? 'The form has no questions.'
				: `Choose one from the list, or give an ID or a name: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}.`,
	};
}

/** The forms read for answer filters in one execution (one request per form, not per item). */
const formsRead = new WeakMap<object, Map<string, Promise<FormMetadata>>>();

function formOf(ctx: FilloutContext, formId: string, itemIndex?: number): Promise<FormMetadata> {
	const forms = formsRead.get(ctx) ?? new Map<string, Promise<FormMetadata>>();
	formsRead.set(ctx, forms);
	const known = forms.get(formId);
	if (known) return known;
	const read = getFormMetadata(ctx, formId, itemIndex);
	forms.set(formId, read);
	// A failed read is not kept: the next item asks again.
	read.catch(() => forms.delete(formId));
	return read;
}

/**
 * The answer filter set in `raw` (the "Answer" parameter), checked against the form; undefined
 * when none is set. Reads the form's metadata once per execution and form.
 */
export async function readAnswerFilter(
	ctx: FilloutContext,
	formId: string,
	raw: unknown,
	itemIndex?: number,
): Promise<AnswerFilter | undefined> {
	const parameter = answerParameterOf(raw);
	if (parameter === undefined) return undefined;
	const parsed = parseAnswerParameter(parameter);
	if ('problem' in parsed) throw itemProblem(ctx, parsed.problem, itemIndex, parsed.hint);
	const found = fieldOf(await formOf(ctx, formId, itemIndex), parsed.ref);
	if ('problem' in found) throw itemProblem(ctx, found.problem, itemIndex, found.hint);
	return { field: found.field, condition: parsed.condition, value: parsed.value };
}
