import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { formIdOf } from '../shared/parameters';
import { cachedDerivedKeys, derivations } from '../webhookTrigger/derivedKeys';
import { recordSignature, secretsMatch } from '../webhookTrigger/secret';
import { setWithoutMarkingChange } from '../webhookTrigger/signedRecord';
import type { Slot } from '../webhookTrigger/webhookRecord';
import { CATCH_UP_KEY, readCatchUpRecord, storedForm, type CatchUpRecord } from './catchUpRecord';
import { currentRecord } from './recordAccess';

/**
 * The catch-up record rides, signed, on the first item of each execution the trigger
 * starts, as the webhook record does (webhookTrigger/signedRecord.ts): a queue-mode worker
 * starts with empty static data and, when another node writes some, saves its own copy
 * over the workflow's. With the record placed in it, that save keeps it. docs/catch-up.md.
 */

/** Where it rides: a key of the item itself, never of its `json`. */
export const CARRIED_CATCH_UP_KEY = 'filloutTriggerCatchUp';

/** Past this size only the window rides: a restore then repeats submissions, never skips one. */
const MAX_CARRIED_CHARS = 64_000;

export interface CarriedCatchUp {
	record: IDataObject;
	signature: string;
}

type CarrierContext = IExecuteFunctions | IWebhookFunctions;

function content(ctx: CarrierContext, record: IDataObject): string {
	const label = 'n8n-nodes-fillout-forms/carried-catch-up/v1';
	return JSON.stringify([label, ctx.getWorkflow().id, ctx.getNode().id, record]);
}

/** The record to carry for this delivery or check; undefined without one (never throws). */
export async function carriedCatchUp(
	ctx: IWebhookFunctions,
	slot: Slot,
	formId: string,
): Promise<CarriedCatchUp | undefined> {
	if (slot !== 'production' || ctx.getMode() === 'manual') return undefined;
	const data = ctx.getWorkflowStaticData('node');
	const record = currentRecord(ctx, data, formId);
	if (record === undefined) return undefined;
	try {
		const keys = await cachedDerivedKeys(ctx, slot, formId, '');
		if (keys === undefined) return undefined;
		const whole = storedForm(record);
		const carried =
			JSON.stringify(whole).length <= MAX_CARRIED_CHARS
				? whole
				: storedForm({ ...record, seen: {}, delivered: {} });
		return { record: carried, signature: recordSignature(keys.recordKey, content(ctx, carried)) };
	} catch {
		return undefined;
	}
}

/**
 * In the execution: puts the carried record in static data when it holds none (a worker's
 * fresh copy), it is for this node's form and its signature holds. Without marking a
 * change: it is saved only when something else is.
 */
export async function restoreCarriedCatchUp(
	ctx: IExecuteFunctions,
	value: unknown,
): Promise<boolean> {
	const carried = value as Partial<CarriedCatchUp> | undefined;
	if (typeof carried?.signature !== 'string') return false;
	let formId: string;
	try {
		formId = formIdOf(ctx, 0);
	} catch {
		return false;
	}
	const record: CatchUpRecord | undefined = readCatchUpRecord(carried.record, formId);
	if (record === undefined) return false;
	const data = ctx.getWorkflowStaticData('node');
	if (data[CATCH_UP_KEY] !== undefined) return false;
	const held = await cachedDerivedKeys(ctx, 'production', formId, '');
	const signed = content(ctx, carried.record as IDataObject);
	const authentic = derivations(held).some((keys) =>
		secretsMatch(carried.signature, recordSignature(keys.recordKey, signed)),
	);
	if (!authentic) return false;
	setWithoutMarkingChange(data, CATCH_UP_KEY, storedForm(record));
	return true;
}

/** The items with the carried record on the first one (the items are not changed). */
export function withCarriedCatchUp(
	items: INodeExecutionData[],
	carried: CarriedCatchUp | undefined,
): INodeExecutionData[] {
	if (carried === undefined || items.length === 0) return items;
	const [first, ...rest] = items;
	return [{ ...first, [CARRIED_CATCH_UP_KEY]: { ...carried } as unknown as IDataObject }, ...rest];
}
