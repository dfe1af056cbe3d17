import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** HTTP statuses with which Fillout refuses a feature the account's plan lacks. */
const PLAN_REFUSALS = new Set(['402', '403']);

/**
 * Fillout lists in-progress submissions only on paid plans. Its refusal becomes an error
 * that says so and how to go on, rather than a bare "Forbidden" (or an empty result).
 * Undefined for any other failure, which keeps its own message.
 */
export function inProgressRefused(ctx: IPollFunctions, error: unknown): NodeApiError | undefined {
	if (!(error instanceof NodeApiError) || !PLAN_REFUSALS.has(String(error.httpCode))) {
		return undefined;
	}
	return new NodeApiError(
		ctx.getNode(),
		{ message: error.message },
		{
			message: 'Fillout refused to list in-progress submissions: this needs a paid Fillout plan',
			description: `Fillout answered: ${error.message}. Upgrade the Fillout plan, or set "In-Progress Submissions" to "Ignore".`,
			httpCode: String(error.httpCode),
		},
	);
}

export function noSubmissionYet(ctx: IPollFunctions, formName: unknown): NodeOperationError {
	const name = typeof formName === 'string' && formName ? `"${formName}"` : 'The form';
	return new NodeOperationError(ctx.getNode(), `${name} has no submissions yet`, {
		description:
			'Fetch Test Event shows the newest submission. Submit the form once (or pick another form), then fetch again.',
	});
}
