import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { formIdFromLocator } from '../shared/formUrl';

/**
 * An error as the agent reads it when the node runs as a tool: one sentence, what was
 * wrong (the message people see) and what to call or change, with no "[item 0]" and no
 * description (n8n would append it as "Details: …"). Errors the node did not raise
 * itself, and cancellations, stay as they are.
 */

export const LIST_FORMS = 'list the forms with Form → Get Many and use a formId from its answer';

const FORM_ID_ADVICE = `give a form ID such as foAdHjd1Duus (${LIST_FORMS})`;

/** What to do about a failed request, by the kind errorMessages.ts gave it. */
const KIND_ADVICE: Record<string, string> = {
	credentials:
		'the workflow’s author must fix the Fillout credential in n8n, so tell the user instead of calling again',
	rateLimit: 'wait a few seconds and call again, one call at a time',
	server: 'call again in a minute',
	network: 'call again in a minute, and tell the user if it keeps failing',
	badRequest: 'change the value Fillout names and call again',
};

/** What to do about a 404: which id to look up again, by operation. */
function notFoundAdvice(resource: string, operation: string): string {
	if (resource === 'webhook') return 'use the webhook ID that Webhook → Create returned';
	if (resource === 'submission' && operation !== 'getMany' && operation !== 'create') {
		return `find the submission with Submission → Get Many and use its submissionId, or ${LIST_FORMS}`;
	}
	return LIST_FORMS;
}

function withoutItem(message: string): string {
	return message.replace(/ \[items? [^\]]*\]$/, '').replace(/\.$/, '');
}

/** The first sentence of a description, to follow a semicolon. */
function firstSentence(description: string | null | undefined): string | undefined {
	const text = description
		?.trim()
		.split(/(?<=[.!?])\s+/)[0]
		?.replace(/[.!?]$/, '');
	return text ? text.charAt(0).toLowerCase() + text.slice(1) : undefined;
}

/** Whether the Form parameter names no form (the input error is then about it). */
function formUnreadable(ctx: IExecuteFunctions, itemIndex: number): boolean {
	try {
		const locator = ctx.getNodeParameter('form', itemIndex, undefined, { extractValue: false });
		return locator !== undefined && formIdFromLocator(locator) === undefined;
	} catch {
		return false;
	}
}

function adviceFor(
	ctx: IExecuteFunctions,
	error: NodeApiError | NodeOperationError,
	where: { itemIndex: number; resource: string; operation: string },
): string | undefined {
	if (error instanceof NodeApiError) {
		const kind = (error.errorResponse as { kind?: unknown } | undefined)?.kind;
		if (kind === 'notFound') return notFoundAdvice(where.resource, where.operation);
		return typeof kind === 'string' ? KIND_ADVICE[kind] : undefined;
	}
	if (where.resource !== 'webhook' && formUnreadable(ctx, where.itemIndex)) return FORM_ID_ADVICE;
	return firstSentence(error.description);
}

/** The error reworded for the agent, or the error itself when there is nothing to add. */
export function errorForAgent(
	ctx: IExecuteFunctions,
	error: unknown,
	where: { itemIndex: number; resource: string; operation: string },
): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const advice = adviceFor(ctx, error, where);
	if (advice === undefined) return error;
	const sentence = `${withoutItem(error.message)}; ${advice}.`;
	const reworded = new NodeOperationError(ctx.getNode(), sentence, { itemIndex: where.itemIndex });
	// n8n swaps a message holding a system error code for generic words: keep ours.
	reworded.message = sentence;
	return reworded;
}

/**
 * As a tool, Resource and Operation must be the author's fixed choice: an expression
 * (such as $fromAI) would let the agent pick another operation, Delete among them.
 */
export function checkFixedOperation(ctx: IExecuteFunctions): void {
	const { resource, operation } = ctx.getNode().parameters;
	const chosenLater = [resource, operation].some(
		(value) => typeof value === 'string' && value.startsWith('='),
	);
	if (chosenLater) {
		throw new NodeOperationError(
			ctx.getNode(),
			'The Fillout tool’s Resource and Operation must be fixed by the workflow’s author, not set by an expression',
			{ description: 'Choose them from the lists in the node; the agent cannot change them.' },
		);
	}
}
