import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { firstLostRecordLog, rememberedRecord } from '../shared/processMemory';
import { formIdForTrigger } from '../shared/parameters';
import { expectedSecret } from './derivedKeys';
import type { SlotState } from './lifecycle';
import type { Slot } from './webhookRecord';
import { noteRecordLoss, readRecord, recordLossOf } from './webhookRecord';

/**
 * What the trigger does when its record is missing from static data (in queue mode, a
 * worker saved other static data over it): Fillout cannot list webhooks, so the
 * registration is then unknown, not absent (docs/trigger-static-data.md).
 */

type TriggerContext = IHookFunctions | IWebhookFunctions;

const SLOTS: readonly Slot[] = ['production', 'test'];

export const PLEASE_DELETE =
	'Fillout cannot list webhooks and the webhook id is lost, so n8n cannot remove it: delete it in the form’s Integrations in Fillout if the workflow should stop receiving (or before publishing again, to avoid a second registration).';

/** Writes back each record static data lost that this process remembers, with a warning. */
export function restoreLostRecords(ctx: TriggerContext, data: IDataObject): void {
	for (const slot of SLOTS) {
		if (readRecord(data[slot]) !== undefined) continue;
		const copy = rememberedRecord(ctx, slot);
		if (copy === undefined) continue;
		data[slot] = copy;
		ctx.logger.warn(
			`Fillout Trigger: the record of ${slot} webhook ${copy.webhookId} (form ${copy.formId}) was missing from workflow ${ctx.getWorkflow().id ?? ''}'s static data; written back from this n8n process's copy. Another node of the workflow probably saved its own static data over it (n8n's queue-mode workers do).`,
			{ workflowId: ctx.getWorkflow().id, webhookId: copy.webhookId, formId: copy.formId, slot },
		);
	}
}

/** Logs a lost record as an error once per slot and process; repeats go to debug. */
export function logLostRecord(
	ctx: TriggerContext,
	slot: Slot,
	message: string,
	meta: IDataObject = {},
): void {
	const details = { workflowId: ctx.getWorkflow().id, node: ctx.getNode().name, slot, ...meta };
	if (firstLostRecordLog(ctx, slot)) ctx.logger.error(message, details);
	else ctx.logger.debug(message, details);
}

/** Whether other nodes left static data: a sign the record was overwritten, not never written. */
function othersWroteStaticData(ctx: IHookFunctions): boolean {
	const global = ctx.getWorkflowStaticData('global');
	return Object.keys(global).some((key) => !key.startsWith('__'));
}

/**
 * checkExists without a record, on a main start: keeps (true) the registration it cannot
 * see when there is evidence the record was overwritten, since registering again would
 * leave two webhooks; otherwise false, and create registers one.
 */
export async function keepUnrecordedRegistration(
	ctx: IHookFunctions,
	{ data, slot }: SlotState,
): Promise<boolean> {
	const activation = ctx.getActivationMode();
	if (slot !== 'production' || (activation !== 'init' && activation !== 'leadershipChange')) {
		return false;
	}
	if (recordLossOf(data, slot) === undefined && !othersWroteStaticData(ctx)) return false;
	const formId = formIdForTrigger(ctx);
	if ((await expectedSecret(ctx, slot, formId)) === undefined) return false;
	noteRecordLoss(data, slot, 'restart');
	logLostRecord(
		ctx,
		slot,
		`Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} lost the record of its Fillout webhook (form ${formId}) from its static data, probably because another node of the workflow saved static data over it (n8n's queue-mode workers do). The webhook registered earlier is kept and its deliveries are still verified (with the secret derived from the credential); no second one is registered. ${PLEASE_DELETE}`,
		{ formId },
	);
	return true;
}

/** delete without a record: nothing can be removed; says so, loudly when a webhook may live. */
export function reportUnremovable(ctx: IHookFunctions, { data, slot }: SlotState): void {
	if (slot !== 'production') return;
	const wasLost = recordLossOf(data, slot) !== undefined;
	noteRecordLoss(data, slot, 'deactivation');
	const message = `Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} has no record of its Fillout webhook in static data${wasLost ? ' (it was lost earlier, see the previous errors)' : ''}, so nothing was removed at Fillout. ${PLEASE_DELETE}`;
	if (wasLost) ctx.logger.error(message, { workflowId: ctx.getWorkflow().id, slot });
	else ctx.logger.warn(message, { workflowId: ctx.getWorkflow().id, slot });
}
