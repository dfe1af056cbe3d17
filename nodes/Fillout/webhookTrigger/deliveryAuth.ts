import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { rememberRecord } from '../shared/processMemory';
import { formIdForTrigger } from '../shared/parameters';
import { cachedDerivedKeys, derivationOf } from './derivedKeys';
import { logLostRecord, PLEASE_DELETE, restoreLostRecords } from './lostRecord';
import { SECRET_PARAMETER, secretsMatch } from './secret';
import type { Slot, WebhookRecord } from './webhookRecord';
import { noteRecordLoss, readRecord, slotFor } from './webhookRecord';

/** The fingerprint under which a slot without a record caches its derived keys. */
const NO_RECORD = '';

/** What a refused delivery presented as its secret: nothing, one wrong value, or several. */
export type PresentedSecret = 'none' | 'wrong' | 'several';

export type DeliveryAuth =
	| { ok: true; slot: Slot; formId: string; record?: WebhookRecord }
	| { ok: false; slot: Slot; presented: PresentedSecret };

function refused(slot: Slot, presented: unknown): DeliveryAuth {
	if (presented === undefined || presented === '') return { ok: false, slot, presented: 'none' };
	return { ok: false, slot, presented: typeof presented === 'string' ? 'wrong' : 'several' };
}

/**
 * Whether a delivery presents this trigger's secret: the record's while there is one (a
 * wrong secret costs no credential read), else the one derived from the credential, read
 * once per process. A delivery verified without a record notes and logs the loss.
 */
export async function authenticateDelivery(ctx: IWebhookFunctions): Promise<DeliveryAuth> {
	const data = ctx.getWorkflowStaticData('node');
	restoreLostRecords(ctx, data);
	const slot = slotFor(ctx.getMode(), ctx.getNodeWebhookUrl('default'), data);
	const record = readRecord(data[slot]);
	const presented = (ctx.getQueryData() as IDataObject)[SECRET_PARAMETER];
	if (record !== undefined) {
		rememberRecord(ctx, slot, record);
		if (!secretsMatch(presented, record.secret)) return refused(slot, presented);
		return { ok: true, slot, formId: record.formId, record };
	}
	const formId = formIdForTrigger(ctx);
	const keys = await cachedDerivedKeys(ctx, slot, formId, NO_RECORD);
	// Either derivation: a webhook registered before the key was trimmed presents the other.
	if (derivationOf(keys, presented) === undefined) {
		if (keys === undefined) {
			logLostRecord(
				ctx,
				slot,
				`Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} lost the record of its Fillout webhook from static data and its credential has no stable secret to verify deliveries with, so every delivery is refused. Publish the workflow again after deleting the old webhook in Fillout.`,
				{ formId },
			);
		}
		return refused(slot, presented);
	}
	noteRecordLoss(data, slot, 'delivery');
	logLostRecord(
		ctx,
		slot,
		`Fillout Trigger: workflow ${ctx.getWorkflow().id ?? ''} lost the record of its Fillout webhook (form ${formId}) from its static data, probably because another node of the workflow saved static data over it (n8n's queue-mode workers do). Deliveries are still accepted: their secret is derived from the credential. ${PLEASE_DELETE}`,
		{ formId },
	);
	return { ok: true, slot, formId };
}
