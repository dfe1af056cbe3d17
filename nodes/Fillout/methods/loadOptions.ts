import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { answerFieldOptions } from '../shared/answerFilterParameters';
import { formIdForEditor } from '../shared/parameters';
import type { FormMetadata, NamedField } from '../shared/interfaces';
import { getFormMetadata } from '../transport';

async function formFields(
	ctx: ILoadOptionsFunctions,
	pick: (metadata: FormMetadata) => NamedField[] | undefined,
): Promise<INodePropertyOptions[]> {
	const formId = formIdForEditor(ctx);
	const metadata = await getFormMetadata(ctx, formId);
	return (pick(metadata) ?? []).map((field) => ({ name: field.name, value: field.id }));
}

export async function getUrlParameters(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await formFields(this, (metadata) => metadata.urlParameters);
}

export async function getSchedulingFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await formFields(this, (metadata) => metadata.scheduling);
}

export async function getPaymentFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	return await formFields(this, (metadata) => metadata.payments);
}

/** The answer filter's "Question" list: the form's questions, then its URL parameters. */
export async function getAnswerFields(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const metadata = await getFormMetadata(this, formIdForEditor(this));
	return answerFieldOptions(metadata);
}
