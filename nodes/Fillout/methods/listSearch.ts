import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { formEditorUrl } from '../shared/formUrl';
import type { FormListEntry } from '../shared/interfaces';
import { filloutRequest } from '../transport';

/** Forms for the "From List" mode, filtered by name (Fillout lists all forms at once). */
export async function searchForms(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const forms = await filloutRequest<FormListEntry[]>(this, { method: 'GET', path: '/forms' });
	const needle = filter?.trim().toLowerCase() ?? '';
	const results = (Array.isArray(forms) ? forms : [])
		.filter(
			(form) =>
				!needle ||
				String(form.name).toLowerCase().includes(needle) ||
				form.formId === filter?.trim(),
		)
		.map((form) => ({
			name: String(form.name || form.formId),
			value: form.formId,
			url: formEditorUrl(form.formId),
		}));
	return { results };
}
