import type { FieldType } from 'n8n-workflow';

/**
 * How the node reads and writes an answer of one question type.
 * - `fieldType`: the n8n resource-mapper field type shown in the editor.
 * - `answer`: how an input value is checked and converted before it is sent.
 *   `any` is for types whose value shape Fillout does not document: passed through as-is.
 */
export type AnswerKind =
	| 'text'
	| 'number'
	| 'boolean'
	| 'date'
	| 'dateTime'
	| 'choice'
	| 'array'
	| 'object'
	| 'any';

export interface QuestionTypeInfo {
	fieldType: FieldType;
	answer: AnswerKind;
}

const text: QuestionTypeInfo = { fieldType: 'string', answer: 'text' };
const number: QuestionTypeInfo = { fieldType: 'number', answer: 'number' };
const boolean: QuestionTypeInfo = { fieldType: 'boolean', answer: 'boolean' };
const array: QuestionTypeInfo = { fieldType: 'array', answer: 'array' };
const object: QuestionTypeInfo = { fieldType: 'object', answer: 'object' };
const passThrough: QuestionTypeInfo = { fieldType: 'string', answer: 'any' };

/**
 * The 38 question types known today (docs/fillout-api.md, "Answer values and question
 * types"). Fillout adds types without notice; a type missing here is discarded from
 * simplified output and from the mapping columns instead of failing the node.
 */
export const QUESTION_TYPES: Readonly<Record<string, QuestionTypeInfo>> = {
	Address: object,
	AudioRecording: passThrough,
	Calcom: object,
	Calendly: object,
	Captcha: passThrough,
	Checkbox: boolean,
	Checkboxes: array,
	ColorPicker: text,
	CurrencyInput: number,
	DatePicker: { fieldType: 'dateTime', answer: 'date' },
	DateRange: object,
	DateTimePicker: { fieldType: 'dateTime', answer: 'dateTime' },
	Dropdown: { fieldType: 'string', answer: 'choice' },
	EmailInput: text,
	FileUpload: array,
	ImagePicker: passThrough,
	LocationCoordinates: object,
	LongAnswer: text,
	Matrix: object,
	MultiSelect: array,
	MultipleChoice: { fieldType: 'string', answer: 'choice' },
	NumberInput: number,
	OpinionScale: number,
	Password: text,
	Payment: object,
	PhoneNumber: text,
	Ranking: array,
	RecordPicker: passThrough,
	ShortAnswer: text,
	Signature: passThrough,
	Slider: number,
	StarRating: number,
	Subform: passThrough,
	SubmissionPicker: passThrough,
	Switch: boolean,
	Table: passThrough,
	TimePicker: text,
	URLInput: text,
};

export function questionTypeInfo(type: unknown): QuestionTypeInfo | undefined {
	if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(QUESTION_TYPES, type)) {
		return undefined;
	}
	return QUESTION_TYPES[type];
}

export function isKnownQuestionType(type: unknown): type is string {
	return questionTypeInfo(type) !== undefined;
}

/** Calculation types Fillout documents; others are discarded like unknown questions. */
export const CALCULATION_TYPES: readonly string[] = ['number', 'text', 'duration'];
