import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { FilloutContext } from '../transport/apiRoot';
import { formIdFromLocator } from './formUrl';
import { itemProblem } from './nodeErrors';

/** The id of the form chosen in the "Form" parameter, for one item. */
export function formIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	const locator = ctx.getNodeParameter('form', itemIndex, undefined, { extractValue: false });
	return checkedFormId(ctx, locator, itemIndex);
}

/**
 * The form's id when the "Form" parameter is a fixed choice, not an expression: the
 * form the editor loaded the Answers columns for.
 */
export function fixedFormIdOf(ctx: IExecuteFunctions): string | undefined {
	const locator = ctx.getNode().parameters.form;
	const value =
		typeof locator === 'object' && locator !== null
			? (locator as { value?: unknown }).value
			: locator;
	if (typeof value !== 'string' || value.startsWith('=')) return undefined;
	return formIdFromLocator(locator);
}

/** The same while the editor loads options (no item). */
export function formIdForEditor(ctx: ILoadOptionsFunctions): string {
	const locator = ctx.getNodeParameter('form', undefined, { extractValue: false });
	return checkedFormId(ctx, locator);
}

/** The same for the triggers: webhook setup, deliveries and polls (no item). */
export function formIdForTrigger(
	ctx: IHookFunctions | IWebhookFunctions | IPollFunctions | ITriggerFunctions,
): string {
	const locator = ctx.getNodeParameter('form', undefined, { extractValue: false });
	return checkedFormId(ctx, locator);
}

function checkedFormId(ctx: FilloutContext, locator: unknown, itemIndex?: number): string {
	const formId = formIdFromLocator(locator);
	if (formId === undefined) {
		const shown =
			typeof locator === 'object' && locator !== null
				? (locator as { value?: unknown }).value
				: locator;
		throw itemProblem(
			ctx,
			`"${String(shown ?? '')}" does not name a Fillout form`,
			itemIndex,
			'Choose a form from the list, give its ID, or paste its share or editor address.',
		);
	}
	return formId;
}

/** A required id typed in a string parameter, trimmed; an empty one is the item's error. */
function requiredText(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string {
	const value = ctx.getNodeParameter(name, itemIndex, '') as unknown;
	const text =
		typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') {
		throw itemProblem(ctx, `"${label}" is empty`, itemIndex);
	}
	return text;
}

export function submissionIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
	return requiredText(ctx, 'submissionId', 'Submission ID', itemIndex);
}

/** Webhook ids are the integers /webhook/create returned; Fillout wants them back as numbers. */
export function webhookIdOf(ctx: IExecuteFunctions, itemIndex: number): number {
	const text = requiredText(ctx, 'webhookId', 'Webhook ID', itemIndex);
	if (!/^\d+$/.test(text)) {
		throw itemProblem(ctx, `"Webhook ID" must be a whole number, got "${text}"`, itemIndex);
	}
	return Number(text);
}
