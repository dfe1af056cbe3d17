import type { INodePropertyOptions, ResourceMapperField } from 'n8n-workflow';

import type { ChoiceOption, FormMetadata, FormQuestion } from '../../../shared/interfaces';
import type { QuestionTypeInfo } from '../../../shared/questionTypes';
import { questionTypeInfo } from '../../../shared/questionTypes';

/**
 * Create's Answers columns: one per question the node knows, as the editor offers them,
 * and the questions read back from the columns the editor saved in the node.
 */

/** Questions of a type the node knows, in form order; the others cannot be mapped. */
export function knownQuestions(metadata: Pick<FormMetadata, 'questions'>): FormQuestion[] {
	return (metadata.questions ?? []).filter((question) => questionTypeInfo(question.type));
}

function choiceOptions(question: FormQuestion): INodePropertyOptions[] | undefined {
	const options = (question.options ?? []).filter(
		(option): option is ChoiceOption & { value: string } => typeof option?.value === 'string',
	);
	if (!options.length) return undefined;
	return options.map((option) => ({
		name: String(option.label ?? option.value),
		value: option.value,
	}));
}

/** The editor's column type for a question: choices with options are dropdowns. */
function columnType(
	info: QuestionTypeInfo,
	options: unknown[] | undefined,
): ResourceMapperField['type'] {
	return info.answer === 'choice' && options?.length ? 'options' : info.fieldType;
}

/**
 * One resource-mapper column per known question: id = question id, typed by question
 * type. The display name ends with the Fillout type in parentheses: the column types
 * alone cannot tell DatePicker from DateTimePicker, and `questionsFromColumns` reads
 * the type back from the columns the editor saved.
 */
export function questionColumns(metadata: Pick<FormMetadata, 'questions'>): ResourceMapperField[] {
	return knownQuestions(metadata).map((question) => {
		const info = questionTypeInfo(question.type) as QuestionTypeInfo;
		const options = choiceOptions(question);
		const field: ResourceMapperField = {
			id: question.id,
			displayName: `${question.name} (${question.type})`,
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: columnType(info, options),
		};
		if (options) field.options = options;
		return field;
	});
}

const COLUMN_NAME = /^(.*) \(([A-Za-z][A-Za-z0-9]*)\)$/s;

/**
 * The form's questions as the editor saved them in the node (`columns.schema`, made
 * by `questionColumns` when the form was chosen), so that Create need not read the
 * form before sending. Undefined when any column cannot be read back exactly (no
 * columns, a type the node does not know, a column type that does not fit it): then
 * the node reads the form instead.
 */
export function questionsFromColumns(schema: unknown): FormQuestion[] | undefined {
	if (!Array.isArray(schema) || schema.length === 0) return undefined;
	const questions: FormQuestion[] = [];
	for (const column of schema as Array<Partial<ResourceMapperField> | null>) {
		if (typeof column?.id !== 'string' || typeof column.displayName !== 'string') return undefined;
		const [, name, type] = COLUMN_NAME.exec(column.displayName) ?? [];
		const info = questionTypeInfo(type);
		if (name === undefined || !info) return undefined;
		const options = Array.isArray(column.options) ? column.options : undefined;
		if (column.type !== columnType(info, options)) return undefined;
		const question: FormQuestion = { id: column.id, name, type };
		if (options?.length)
			question.options = options.map((option) => ({
				value: String(option.value),
				label: option.name,
			}));
		questions.push(question);
	}
	return questions;
}
