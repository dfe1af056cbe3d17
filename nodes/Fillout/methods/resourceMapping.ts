import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { formIdForEditor } from '../shared/parameters';
import { questionColumns } from '../actions/submission/create/answerColumns';
import { getFormMetadata } from '../transport';

/** One column per question of the chosen form (questions of unknown types are left out). */
export async function getQuestionColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const formId = formIdForEditor(this);
	const metadata = await getFormMetadata(this, formId);
	const fields = questionColumns(metadata);
	return fields.length
		? { fields }
		: { fields, emptyFieldsNotice: 'This form has no questions that can be filled in' };
}
