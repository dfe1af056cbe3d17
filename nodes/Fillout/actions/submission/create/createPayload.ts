import type { IDataObject, NodeExecutionHint } from 'n8n-workflow';

import type { BuiltAnswers } from './answers';
import { buildAnswers } from './answers';
import { isEmptyDate } from '../../../shared/dates';
import { paymentValue, requestDate, schedulingValue } from './extraFields';
import type { FormMetadata, FormQuestion, NamedField } from '../../../shared/interfaces';

/**
 * Create's items checked and turned into request entries, before anything is sent.
 * Pure: the operation reads the form when `checkWithSavedColumns` cannot decide.
 */

/** What one item asks for. */
export interface CreateInput {
	/** The input item's fields (Map Automatically) or the values of the columns defined below. */
	values: IDataObject;
	automatic: boolean;
	additional: IDataObject;
}

/** One submission of a create request. */
export type CreatePayload = IDataObject & { questions: Array<{ id: string; value: unknown }> };

export type CheckedItem =
	| {
			ok: true;
			payload: CreatePayload;
			/** Names of the form's questions and other fields, to explain a rejection. */
			fieldNames: ReadonlyMap<string, string>;
			/** Mapped with the questions saved in the node, without reading the form. */
			fromSavedColumns: boolean;
			/** Input fields Map Automatically matched to no question. */
			ignoredFields: string[];
	  }
	| { ok: false; message: string; description?: string };

type Problem = Extract<CheckedItem, { ok: false }>;
type Step<T> = { ok: true; value: T } | Problem;

function problem(message: string, description?: string): Problem {
	return description === undefined ? { ok: false, message } : { ok: false, message, description };
}

/**
 * The item checked with the questions saved in the node when the form was chosen, or
 * undefined when those cannot decide: none saved, URL parameters, scheduling or
 * payments set (the columns do not carry them), or a field or choice the columns do
 * not know (the form may have changed since).
 */
export function checkWithSavedColumns(
	input: CreateInput,
	savedQuestions: FormQuestion[] | undefined,
	timeZone: string,
): CheckedItem | undefined {
	if (savedQuestions === undefined || usesOtherFormFields(input.additional)) return undefined;
	const answers = mapAnswers(input, savedQuestions, timeZone);
	if (answers.unmatched.length > 0 || answers.unlistedChoices.length > 0) return undefined;
	return checked(input, answers, savedQuestions, undefined, timeZone);
}

/** The item checked with the form as Fillout describes it now. */
export function checkWithForm(
	input: CreateInput,
	metadata: FormMetadata,
	savedQuestions: FormQuestion[] | undefined,
	timeZone: string,
): CheckedItem {
	const answers = mapAnswers(input, metadata.questions, timeZone);
	if (!input.automatic && answers.unmatched.length) {
		const [key] = answers.unmatched;
		const savedName = savedQuestions?.find((question) => question.id === key)?.name;
		return {
			ok: false,
			message: `The Answers column ${savedName === undefined ? `"${key}"` : `"${savedName}" (${key})`} is not a question of this form`,
			description:
				'The question may have been removed from the form. Open the node: it loads the form’s current questions.',
		};
	}
	return checked(input, answers, metadata.questions, metadata, timeZone);
}

function mapAnswers(input: CreateInput, questions: FormQuestion[], timeZone: string) {
	const mode = input.automatic ? 'byIdOrName' : 'byId';
	return buildAnswers({ questions }, input.values, mode, timeZone);
}

function checked(
	input: CreateInput,
	answers: BuiltAnswers,
	questions: FormQuestion[],
	metadata: FormMetadata | undefined,
	timeZone: string,
): CheckedItem {
	if (answers.problems.length) {
		const [first, ...others] = answers.problems;
		return problem(
			`Question "${first.questionName}" ${first.message}`,
			others.length
				? `Also: ${others.map((p) => `"${p.questionName}" ${p.message}`).join('; ')}`
				: undefined,
		);
	}
	const dates = checkedDates(input.additional, timeZone);
	if (!dates.ok) return dates;
	const otherFields = checkedOtherFields(input.additional, metadata, timeZone);
	if (!otherFields.ok) return otherFields;
	return {
		ok: true,
		payload: { questions: answers.questions, ...dates.value, ...otherFields.value },
		fieldNames: fieldNames(questions, metadata),
		fromSavedColumns: metadata === undefined,
		ignoredFields: input.automatic ? answers.unmatched : [],
	};
}

const DATE_FIELDS = [
	['submissionTime', 'Submission Time'],
	['lastUpdatedAt', 'Last Updated At'],
] as const;

function checkedDates(additional: IDataObject, timeZone: string): Step<IDataObject> {
	const dates: IDataObject = {};
	for (const [name, label] of DATE_FIELDS) {
		if (isEmptyDate(additional[name])) continue;
		const date = requestDate(additional[name], timeZone);
		if (!date.ok)
			return problem(`"${label}" ${date.message}: ${JSON.stringify(String(additional[name]))}`);
		dates[name] = date.value;
	}
	return { ok: true, value: dates };
}

/** Scheduling and payments: a field of the form each, with a value in Fillout's format. */
const VALUED_FIELDS = [
	{
		collection: 'scheduling',
		entry: 'booking',
		what: 'scheduling field',
		label: 'Scheduling field',
		check: schedulingValue,
	},
	{
		collection: 'payments',
		entry: 'payment',
		what: 'payment field',
		label: 'Payment field',
		check: paymentValue,
	},
] as const;

/** URL parameters, scheduling and payments: each must be a field of the form, each value valid. */
function checkedOtherFields(
	additional: IDataObject,
	metadata: FormMetadata | undefined,
	timeZone: string,
): Step<IDataObject> {
	const fields: IDataObject = {};
	const urlParameters: IDataObject[] = [];
	for (const entry of entries(additional.urlParameters, 'parameter')) {
		const field = fieldOf(metadata?.urlParameters, entry.id, 'URL parameter');
		if (!field.ok) return field;
		const { id, name } = field.value;
		urlParameters.push({ id, name, value: String(entry.value ?? '') });
	}
	if (urlParameters.length) fields.urlParameters = urlParameters;
	for (const { collection, entry: entryName, what, label, check } of VALUED_FIELDS) {
		const values: IDataObject[] = [];
		for (const entry of entries(additional[collection], entryName)) {
			const field = fieldOf(metadata?.[collection], entry.id, what);
			if (!field.ok) return field;
			const value = check(entry.value, timeZone);
			if (!value.ok) return problem(`${label} "${field.value.name}": ${value.message}`);
			values.push({ id: field.value.id, value: value.value });
		}
		if (values.length) fields[collection] = values;
	}
	return { ok: true, value: fields };
}

/** An id chosen for a URL parameter, scheduling or payment field must be one of the form's. */
function fieldOf(fields: NamedField[] | undefined, id: unknown, what: string): Step<NamedField> {
	const field = (fields ?? []).find((candidate) => candidate.id === id);
	if (field) return { ok: true, value: field };
	const known = (fields ?? []).map((candidate) => `${candidate.name} (${candidate.id})`).join(', ');
	return problem(
		`"${String(id)}" is not a ${what} of this form`,
		known ? `The form has: ${known}.` : `The form has no ${what}s.`,
	);
}

/** Entries of a fixedCollection with several values, e.g. additionalFields.urlParameters.parameter. */
function entries(collection: unknown, name: string): IDataObject[] {
	const list = (collection as IDataObject | undefined)?.[name];
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

const OTHER_FIELDS = [
	['urlParameters', 'parameter'],
	['scheduling', 'booking'],
	['payments', 'payment'],
] as const;

/** Whether the item sets URL parameters, scheduling or payments: those need the form's metadata. */
function usesOtherFormFields(additional: IDataObject): boolean {
	return OTHER_FIELDS.some(([collection, entry]) => entries(additional[collection], entry).length);
}

function fieldNames(
	questions: FormQuestion[] | undefined,
	metadata: FormMetadata | undefined,
): Map<string, string> {
	const groups: Array<NamedField[] | undefined> = [
		questions,
		metadata?.urlParameters,
		metadata?.scheduling,
		metadata?.payments,
	];
	return new Map(
		groups.flatMap((fields) =>
			(fields ?? []).map((field): [string, string] => [field.id, field.name]),
		),
	);
}

const NAMED_FIELDS = 10;

/** The run's warning that Map Automatically ignored input fields, named (the first ten). */
export function ignoredFieldsHint(fields: readonly string[]): NodeExecutionHint {
	const named = fields.slice(0, NAMED_FIELDS).map((field) => JSON.stringify(field));
	if (fields.length > NAMED_FIELDS) named.push(`and ${fields.length - NAMED_FIELDS} more`);
	const count =
		fields.length === 1 ? '1 input field that matches' : `${fields.length} input fields that match`;
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Map Automatically ignored ${count} no question of the form: ${named.join(', ')}. Name a field after a question (or its ID) to import it.`,
	};
}
