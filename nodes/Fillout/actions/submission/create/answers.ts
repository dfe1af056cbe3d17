import { calendarDate, formatInZone, parseDateInput } from '../../../shared/dates';
import type { FormMetadata, FormQuestion } from '../../../shared/interfaces';
import type { QuestionTypeInfo } from '../../../shared/questionTypes';
import { questionTypeInfo } from '../../../shared/questionTypes';
import { questionKeyMap, RESERVED_KEYS } from '../../../shared/simplify';
import { knownQuestions } from './answerColumns';

/**
 * Create's answers: each mapped value checked against its question's type and converted
 * to what Fillout stores.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

function describe(value: unknown): string {
	if (typeof value === 'string') return `"${value.length > 60 ? `${value.slice(0, 57)}…` : value}"`;
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	return String(value);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Whether a mapped value means "no answer": such questions are left out of the request. */
export function isUnanswered(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Checks one answer against its question's type and converts it to what Fillout
 * stores: numbers from numeric text, booleans from "true"/"false", a DatePicker's date
 * as written (`calendarDate`), a DateTimePicker's instant written in the workflow's
 * time zone, lists and objects from JSON text. Choice labels become the option's value.
 */
export function coerceAnswer(
	question: FormQuestion,
	value: unknown,
	timeZone: string,
): Checked<unknown> {
	const info = questionTypeInfo(question.type);
	if (!info)
		return { ok: false, message: `has a question type the node does not know (${question.type})` };
	const converted = CONVERTERS[info.answer](value, question, timeZone);
	if (converted) return { ok: true, value: converted.value };
	// Epoch numbers are refused rather than guessed: seconds and milliseconds look alike.
	const epochHint =
		typeof value === 'number' && (info.answer === 'date' || info.answer === 'dateTime')
			? ' (a number could be seconds or milliseconds: convert it, e.g. {{ DateTime.fromMillis(…) }})'
			: '';
	return {
		ok: false,
		message: `expects ${EXPECTED[info.answer]}, got ${describe(value)}${epochHint}`,
	};
}

/** A value converted for its kind of answer, or undefined when it cannot be. */
type Converter = (
	value: unknown,
	question: FormQuestion,
	timeZone: string,
) => { value: unknown } | undefined;

const CONVERTERS: Record<QuestionTypeInfo['answer'], Converter> = {
	number(value) {
		const number =
			typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : NaN;
		if (typeof value === 'string' && value.trim() === '') return undefined;
		return Number.isFinite(number) ? { value: number } : undefined;
	},
	boolean(value) {
		if (typeof value === 'boolean') return { value };
		const text = String(value).trim().toLowerCase();
		if (text === 'true' || text === '1') return { value: true };
		if (text === 'false' || text === '0') return { value: false };
		return undefined;
	},
	date(value, _question, timeZone) {
		const date = calendarDate(value, timeZone);
		return date === undefined ? undefined : { value: date };
	},
	dateTime(value, _question, timeZone) {
		const ms = parseDateInput(value, timeZone);
		return ms === undefined ? undefined : { value: formatInZone(ms, timeZone) };
	},
	array(value) {
		const parsed = typeof value === 'string' ? parseJson(value) : value;
		return Array.isArray(parsed) ? { value: parsed } : undefined;
	},
	object(value) {
		const parsed = typeof value === 'string' ? parseJson(value) : value;
		return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
			? { value: parsed }
			: undefined;
	},
	choice(value, question) {
		if (typeof value !== 'string' && typeof value !== 'number') return undefined;
		const text = String(value);
		const byLabel = (question.options ?? []).find(
			(option) => option.value !== text && option.label === text,
		);
		return { value: byLabel?.value ?? text };
	},
	text(value) {
		if (typeof value === 'string') return { value };
		if (typeof value === 'number' || typeof value === 'boolean') return { value: String(value) };
		return undefined;
	},
	any: (value) => ({ value }),
};

const EXPECTED: Record<QuestionTypeInfo['answer'], string> = {
	text: 'text',
	number: 'a number',
	boolean: 'true or false',
	date: 'a date (such as 2024-05-01)',
	dateTime: 'a date and time (such as 2024-05-01T14:30:00)',
	choice: 'one of its choices',
	array: 'a list (or its JSON text)',
	object: 'an object (or its JSON text)',
	any: 'a value',
};

/** A choice question with options, answered with something that is not one of them. */
function isUnlistedChoice(question: FormQuestion, value: unknown): boolean {
	const options = question.options ?? [];
	return (
		questionTypeInfo(question.type)?.answer === 'choice' &&
		options.length > 0 &&
		!options.some((option) => option.value === value)
	);
}

export interface AnswerProblem {
	questionId: string;
	questionName: string;
	message: string;
}

export interface BuiltAnswers {
	questions: Array<{ id: string; value: unknown }>;
	problems: AnswerProblem[];
	/** Input keys with a value that name no question (reserved keys of a simplified submission aside). */
	unmatched: string[];
	/** Questions with choices whose answer is none of them (by value or label). */
	unlistedChoices: string[];
}

/**
 * The answers of one item. In "map automatically" mode the input's keys are matched
 * to questions by id, by name, or by the simplified key ("Name (2)"), so a simplified
 * submission can be imported as it is. Keys that match no question are listed in
 * `unmatched` for the caller to judge.
 */
export function buildAnswers(
	metadata: Pick<FormMetadata, 'questions'>,
	input: Record<string, unknown>,
	mode: 'byId' | 'byIdOrName',
	timeZone: string,
): BuiltAnswers {
	const questions = knownQuestions(metadata);
	const byId = new Map(questions.map((question) => [question.id, question]));
	const byKey = new Map<string, FormQuestion>();
	if (mode === 'byIdOrName') {
		const keys = questionKeyMap(questions);
		for (const question of questions) byKey.set(keys.get(question.id) as string, question);
	}

	const values = new Map<string, unknown>();
	const unmatched: string[] = [];
	for (const [key, value] of Object.entries(input)) {
		if (mode === 'byIdOrName' && RESERVED_KEYS.includes(key)) continue;
		if (isUnanswered(value)) continue;
		const question = byId.get(key) ?? byKey.get(key);
		if (!question) {
			unmatched.push(key);
			continue;
		}
		// An id wins over a name that happens to equal another question's id.
		if (values.has(question.id) && !byId.has(key)) continue;
		values.set(question.id, value);
	}

	const built: BuiltAnswers = { questions: [], problems: [], unmatched, unlistedChoices: [] };
	for (const question of questions) {
		if (!values.has(question.id)) continue;
		const checked = coerceAnswer(question, values.get(question.id), timeZone);
		if (checked.ok) {
			built.questions.push({ id: question.id, value: checked.value });
			if (isUnlistedChoice(question, checked.value)) built.unlistedChoices.push(question.id);
		} else
			built.problems.push({
				questionId: question.id,
				questionName: question.name,
				message: checked.message,
			});
	}
	return built;
}
