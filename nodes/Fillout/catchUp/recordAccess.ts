import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import {
	firstDelivery,
	processMemory,
	triggerKey,
	type NodeContext,
} from '../shared/processMemory';
import type { Slot } from '../webhookTrigger/webhookRecord';
import {
	CATCH_UP_KEY,
	hasRun,
	mergeRecords,
	readCatchUpRecord,
	storedForm,
	type CatchUpRecord,
} from './catchUpRecord';
import { catchUpSettingsOf } from './parameters';

/**
 * The record where every process can reach it: this process's memory (which deliveries
 * and checks here share, so a decision and its mark happen in one synchronous step) and
 * the node's static data (which n8n saves, for restarts and for other processes).
 */

/** Memory's copy merged with static data's; undefined when neither holds one for the form. */
export function currentRecord(
	ctx: NodeContext,
	data: IDataObject,
	formId: string,
): CatchUpRecord | undefined {
	const remembered = readCatchUpRecord(processMemory.catchUpRecords.get(triggerKey(ctx)), formId);
	const stored = readCatchUpRecord(data[CATCH_UP_KEY], formId);
	const record = remembered && stored ? mergeRecords(remembered, stored) : (remembered ?? stored);
	return record === undefined ? undefined : deepCopy(record);
}

/** Writes the record to memory and to static data (which marks it for n8n to save). */
export function saveRecord(ctx: NodeContext, data: IDataObject, record: CatchUpRecord): void {
	processMemory.catchUpRecords.set(triggerKey(ctx), deepCopy(record));
	data[CATCH_UP_KEY] = storedForm(record);
}

/** The longest submission id a delivery marks in the record (Fillout's are 36 characters). */
export const MAX_MARKED_ID_CHARS = 200;

/** What the record says of a delivered submission, after marking it when it had not run. */
export type DeliveryMark = 'marked' | 'alreadyRan' | 'noRecord';

/**
 * Marks a delivery as run, unless the record has it already (a check ran it, or an
 * earlier delivery). Checking and marking are one synchronous step.
 */
export function markDelivered(
	ctx: NodeContext,
	data: IDataObject,
	formId: string,
	submissionId: string,
	receivedMs: number,
): DeliveryMark {
	const record = currentRecord(ctx, data, formId);
	if (record === undefined) return 'noRecord';
	if (hasRun(record, submissionId)) return 'alreadyRan';
	record.delivered = { ...record.delivered, [submissionId]: receivedMs };
	saveRecord(ctx, data, record);
	return 'marked';
}

/** Takes a delivery's mark back: its execution did not start, so a resend must run it. */
export function unmarkDelivered(
	ctx: NodeContext,
	data: IDataObject,
	formId: string,
	submissionId: string,
): void {
	const record = currentRecord(ctx, data, formId);
	if (record === undefined || !(submissionId in record.delivered)) return;
	const delivered = { ...record.delivered };
	delete delivered[submissionId];
	// Both copies drop it: memory alone would merge it back from static data.
	saveRecord(ctx, data, { ...record, delivered });
}

/**
 * Whether a delivery is the first run of its submission: not delivered to this process in
 * the last hour and, with catch-up on, not run by a check or another delivery. Marks it.
 */
export function firstRunOfDelivery(
	ctx: IWebhookFunctions,
	slot: Slot,
	formId: string,
	submissionId: string,
): boolean {
	if (!firstDelivery(ctx, slot, formId, submissionId)) return false;
	const settings = catchUpSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	if (slot !== 'production' || !settings.on) return true;
	// Not one of Fillout's ids (UUIDs): no check lists it, and the body must not fill the record.
	if (submissionId.length > MAX_MARKED_ID_CHARS) return true;
	const data = ctx.getWorkflowStaticData('node');
	return markDelivered(ctx, data, formId, submissionId, Date.now()) !== 'alreadyRan';
}
