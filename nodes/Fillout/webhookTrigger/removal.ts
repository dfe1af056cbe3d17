import type { IDataObject } from 'n8n-workflow';

import type { ServiceFailure } from '../transport/errorMessages';
import { describeFailure, serviceMessage } from '../transport/errorMessages';
import { filloutError } from '../shared/nodeErrors';
import { resolveApiRoot, sendFilloutRequest } from '../transport';
import type { LifecycleContext, WebhookRecord } from './webhookRecord';

/**
 * What a failed `/webhook/delete` means (Fillout cannot list webhooks, so only the answer
 * tells): `retry` (no answer, 408, 429, 5xx): keep the record and fail, to try again;
 * `credentials` (a refusal naming them): a check of the credentials tells whether it is
 * about them or about another account's webhook; `forget` (any other 4xx): Fillout will
 * never remove this id, and keeping it would fail every later activation.
 */
export type RemovalFailure = 'retry' | 'credentials' | 'forget';

export function classifyRemovalFailure(failure: ServiceFailure): RemovalFailure {
	const { statusCode } = failure;
	if (statusCode === undefined || statusCode === 408 || statusCode === 429 || statusCode >= 500) {
		return 'retry';
	}
	if (describeFailure(failure).kind === 'credentials') return 'credentials';
	return statusCode >= 400 ? 'forget' : 'retry';
}

/**
 * Removes a recorded webhook, or warns that it is forgotten (gone, another account's);
 * throws on a failure that may pass, so the caller keeps the record and tries again.
 */
export async function removeWebhook(ctx: LifecycleContext, record: WebhookRecord): Promise<void> {
	const apiRoot = await resolveApiRoot(ctx);
	if (apiRoot !== record.apiRoot) {
		// Deleting the id at another address could remove someone else's webhook there.
		ctx.logger.warn(
			`Fillout Trigger: webhook ${record.webhookId} was registered at ${record.apiRoot}, but the credential now points at ${apiRoot}; it cannot be removed from here. Delete it in Fillout if it keeps calling.`,
			{ webhookId: record.webhookId, formId: record.formId },
		);
		return;
	}
	const outcome = await sendFilloutRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/webhook/delete',
		body: { webhookId: record.webhookId },
		// Deleting twice has the effect of deleting once.
		safety: 'repeatable',
		context: { webhookId: record.webhookId },
	});
	if (outcome.ok) {
		ctx.logger.debug(`Fillout Trigger: removed webhook ${record.webhookId}`, {
			webhookId: record.webhookId,
			formId: record.formId,
		});
		return;
	}
	const kind = classifyRemovalFailure(outcome.failure);
	if (kind === 'forget' || (kind === 'credentials' && (await credentialsWork(ctx)))) {
		warnForgotten(ctx, record, outcome.failure);
		return;
	}
	throw filloutError(ctx, outcome, { webhookId: record.webhookId });
}

/** Whether Fillout accepts the credential for another call: then a refusal was about the webhook. */
async function credentialsWork(ctx: LifecycleContext): Promise<boolean> {
	return (await sendFilloutRequest<unknown>(ctx, { method: 'GET', path: '/forms' })).ok;
}

function warnForgotten(
	ctx: LifecycleContext,
	record: WebhookRecord,
	failure: ServiceFailure,
): void {
	const said = serviceMessage(failure.body);
	ctx.logger.warn(
		`Fillout Trigger: Fillout did not remove webhook ${record.webhookId} (HTTP ${failure.statusCode}${said === undefined ? '' : `: ${said}`}): it is gone or not this account's, so it is forgotten. Should it still call n8n, delete it in Fillout.`,
		{ webhookId: record.webhookId, formId: record.formId, statusCode: failure.statusCode },
	);
}
