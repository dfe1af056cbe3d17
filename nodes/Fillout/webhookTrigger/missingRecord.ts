import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { formIdForTrigger } from '../shared/parameters';
import type { SlotState } from './lifecycle';
import { rememberRecord, reportLostRecord, restoreLostRecords } from '../shared/processMemory';
import type { Slot, WebhookRecord } from './webhookRecord';
import { lostMarkOf, markLost, readRecord, slotFor } from './webhookRecord';
import { SECRET_PARAMETER, secretsMatch } from './secret';
import { expectedSecret, knownKeys } from './derivedKeys';

/** The fingerprint under which a slot without a record keeps its derived keys. */
const NO_RECORD = '';

/**
 * What the trigger does when its record is missing from static data and no process copy
 * brought it back. In queue mode this happens whenever another node of the workflow
 * writes static data: the worker saves its partial object over the whole one. Fillout
 * cannot list webhooks, so the registration is then unknown, not absent; the secret
 * derived from the credential (secretMaterial.ts) keeps its deliveries verifiable.
 * See docs/trigger-static-data.md.
 */

const PLEASE_DELETE =
	'Fillout cannot list webhooks and the webhook id is lost, so n8n cannot remove it: delete it in the form’s Integrations in Fillout if the workflow should stop receiving (or before publishing again, to avoid a second registration).';

/**
 * Whether another node left its static data where the trigger's record is missing: the
 * sign that the record was overwritten rather than never written.
 */
function othersWroteStaticData(ctx: IHookFunctions): boolean {
	const global = ctx.getWorkflowStaticData('global');
	return Object.keys(global).some((key) => !key.startsWith('__'));
}

/**
 * checkExists without a record. On a main start (`init`, or a new leader in multi-main)
 * a lost record most likely means the webhook registered at publication still delivers
 * to the same address with the same derived secret; registering again would leave two.
 * So it is kept (true) when the record is marked lost or other nodes' static data shows
 * it was overwritten, and the loss is logged as an error. Otherwise (first activation,
 * a workflow imported as active, no derivable secret) false: create registers one.
 */
export async function keepUnrecordedRegistration(
	ctx: IHookFunctions,
	{ data, slot }: SlotState,
): Promise<boolean> {
	const activation = ctx.getActivationMode();
	if (slot !== 'production' || (activation !== 'init' && activation !== 'leadershipChange')) {
		return false;
	}
	if (lostMarkOf(data, slot) === undefined && !othersWroteStaticData(ctx)) return false;
	const formId = formIdForTrigger(ctx);
	if ((await expectedSecret(ctx, slot, formId)) === undefined) return false;
	markLost(data, slot, 'restart');
	reportLostRecord(
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
	const wasLost = lostMarkOf(data, slot) !== undefined;
	markLost(data, slot, 'deactivation');
	const message = `Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} has no record of its Fillout webhook in static data${wasLost ? ' (it was lost earlier, see the previous errors)' : ''}, so nothing was removed at Fillout. ${PLEASE_DELETE}`;
	if (wasLost) ctx.logger.error(message, { workflowId: ctx.getWorkflow().id, slot });
	else ctx.logger.warn(message, { workflowId: ctx.getWorkflow().id, slot });
}

export type Admission =
	| { ok: true; slot: Slot; formId: string; record?: WebhookRecord }
	| { ok: false };

/**
 * Whether a delivery presents the secret of this trigger's registration, decided without
 * reading the credential for a wrong one: while there is a record, only the record's
 * secret counts (the registration it names presents it); without one, the secret
 * derived from the credential, read once per process and kept (secretMaterial.ts). A
 * verified delivery without a record marks the slot lost and logs it; it is accepted.
 */
export async function admitDelivery(ctx: IWebhookFunctions): Promise<Admission> {
	const data = ctx.getWorkflowStaticData('node');
	restoreLostRecords(ctx, data);
	const slot = slotFor(ctx.getMode(), ctx.getNodeWebhookUrl('default'), data);
	const record = readRecord(data[slot]);
	const presented = (ctx.getQueryData() as IDataObject)[SECRET_PARAMETER];
	if (record !== undefined) {
		rememberRecord(ctx, slot, record);
		if (!secretsMatch(presented, record.secret)) return { ok: false };
		return { ok: true, slot, formId: record.formId, record };
	}
	const formId = formIdForTrigger(ctx);
	const expected = (await knownKeys(ctx, slot, formId, NO_RECORD))?.secret;
	if (!secretsMatch(presented, expected)) {
		if (expected === undefined) {
			reportLostRecord(
				ctx,
				slot,
				`Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} lost the record of its Fillout webhook from static data and its credential has no stable secret to verify deliveries with, so every delivery is refused. Publish the workflow again after deleting the old webhook in Fillout.`,
				{ formId },
			);
		}
		return { ok: false };
	}
	markLost(data, slot, 'delivery');
	reportLostRecord(
		ctx,
		slot,
		`Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} lost the record of its Fillout webhook (form ${formId}) from its static data, probably because another node of the workflow saved static data over it (n8n's queue-mode workers do). Deliveries are still accepted: their secret is derived from the credential. ${PLEASE_DELETE}`,
		{ formId },
	);
	return { ok: true, slot, formId };
}
