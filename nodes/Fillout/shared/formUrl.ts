/** Fillout form ids are short alphanumeric public identifiers (e.g. `foAdHjd1Duus`). */
export const FORM_ID_PATTERN = '^[A-Za-z0-9_-]{2,64}$';

/**
 * Form addresses the "By URL" mode accepts, for the editor's validation:
 * share links `https://forms.fillout.com/t/<id>`, `https://<sub>.fillout.com/t/<id>`,
 * and the editor `https://build.fillout.com/editor/<id>/…`.
 */
export const FORM_URL_PATTERN =
	'^\\s*(?:https?://)?(?:[A-Za-z0-9-]+\\.)*fillout\\.com/(?:t|editor)/[A-Za-z0-9_-]{2,64}(?:[/?#].*)?\\s*$';

/** Where a form opens in Fillout's editor: this address followed by the form's id. */
export const FORM_EDITOR_ADDRESS = 'https://build.fillout.com/editor/';

export function formEditorUrl(formId: string): string {
	return `${FORM_EDITOR_ADDRESS}${formId}`;
}

const formUrl = new RegExp(FORM_URL_PATTERN, 'i');
const formId = new RegExp(FORM_ID_PATTERN);

/** The form id in a Fillout share or editor address, or undefined if it is not one. */
export function formIdFromUrl(url: string): string | undefined {
	const text = url.trim();
	if (!formUrl.test(text)) return undefined;
	let parsed: URL;
	try {
		parsed = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
	} catch {
		return undefined;
	}
	const [kind, id] = parsed.pathname.split('/').filter(Boolean);
	if ((kind === 't' || kind === 'editor') && id !== undefined && formId.test(id)) return id;
	return undefined;
}

export function isFormId(value: string): boolean {
	return formId.test(value.trim());
}

/**
 * The form id a resource locator value names: the value itself in "From List" and
 * "By ID" modes, the id inside the address in "By URL" mode. An address pasted into
 * the ID field (or given by an expression) is understood too.
 */
export function formIdFromLocator(locator: unknown): string | undefined {
	let mode: unknown;
	let value: unknown = locator;
	if (typeof locator === 'object' && locator !== null && 'value' in locator) {
		({ mode, value } = locator as { mode?: unknown; value?: unknown });
	}
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (mode === 'url' || /fillout\.com\//i.test(text)) return formIdFromUrl(text);
	return isFormId(text) ? text : undefined;
}
