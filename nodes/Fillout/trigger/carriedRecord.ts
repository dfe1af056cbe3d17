import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import type { Slot, WebhookRecord } from './registration';
import { readRecord } from './registration';
import { expectedSecret } from './secretMaterial';

/**
 * The production record rides with each execution the trigger starts, so that a
 * queue-mode worker's overwrite of static data writes it back too.
 *
 * A worker starts each execution with empty static data (n8n keeps no static data in an
 * execution's workflow snapshot) and, when any node writes some, saves what it holds
 * over the workflow's whole static data. So `webhook()` puts its slot's record on the
 * first item, beside `json`, without the secret (the worker derives it again from the
 * credential). `execute()`, which n8n runs first in the execution, takes it off and, when
 * the slot is empty there, places it without marking static data changed: it is saved
 * only when another node makes the worker save anyway, and the saved object then holds
 * what an execution in the main process would have saved. An execution that writes no
 * static data saves nothing, as before. See docs/trigger-static-data.md.
 */

/** Where the record travels: a key of the item itself, never of its `json`. */
export const CARRIED_RECORD_KEY = 'filloutTriggerRecord';

/** The production record without its secret. */
export type CarriedRecord = Omit<WebhookRecord, 'secret'>;

/** The record as it travels. */
export function carriedRecordOf(record: WebhookRecord): CarriedRecord {
	const carried: Partial<WebhookRecord> = { ...record };
	delete carried.secret;
	return carried as CarriedRecord;
}

/**
 * What a delivery to the production slot carries: its record, when the record's secret
 * is the one derived from the credential (the only kind the worker can restore).
 */
export async function recordToCarry(
	ctx: IWebhookFunctions,
	slot: Slot,
	record: WebhookRecord | undefined,
): Promise<CarriedRecord | undefined> {
	if (slot !== 'production' || record === undefined || ctx.getMode() === 'manual') return undefined;
	const derived = await expectedSecret(ctx, slot, record.formId);
	return derived === record.secret ? carriedRecordOf(record) : undefined;
}

/** The items with the record on the first one (the items are not changed). */
export function withCarriedRecord(
	items: INodeExecutionData[],
	carried: CarriedRecord,
): INodeExecutionData[] {
	if (items.length === 0) return items;
	const [first, ...rest] = items;
	return [{ ...first, [CARRIED_RECORD_KEY]: { ...carried } as IDataObject }, ...rest];
}

/** The items without any carried record, and the record the first one carried, if valid. */
export function takeCarriedRecord(items: INodeExecutionData[]): {
	items: INodeExecutionData[];
	carried?: CarriedRecord;
} {
	const carriedValue = items[0]?.[CARRIED_RECORD_KEY];
	const clean = items.map((item) => {
		if (!(CARRIED_RECORD_KEY in item)) return item;
		const rest = { ...item };
		delete rest[CARRIED_RECORD_KEY];
		return rest;
	});
	// readRecord checks the shape; the secret is not carried, so a stand-in passes it.
	const valid = readRecord({ ...(carriedValue as object), secret: '' });
	const carried =
		valid !== undefined && typeof valid.formId === 'string' && typeof valid.url === 'string'
			? carriedRecordOf(valid)
			: undefined;
	return { items: clean, carried };
}

/**
 * Sets `data[key]` without n8n noticing a change: n8n's static data objects mark a
 * change when a property is set or deleted, not when one is defined. Serialised and
 * saved like any other property when something else changes static data.
 */
export function placeUnnoticed(data: IDataObject, key: string, value: IDataObject): void {
	Reflect.defineProperty(data, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/**
 * In the execution: puts the carried record in the production slot when the slot is
 * empty (a worker's fresh static data), with the secret derived from the credential.
 * A record whose secret is not derivable is not carried (webhook() checks).
 */
export async function keepCarriedRecord(
	ctx: IExecuteFunctions,
	carried: CarriedRecord,
): Promise<boolean> {
	const data = ctx.getWorkflowStaticData('node');
	if (data.production !== undefined) return false;
	const secret = await expectedSecret(ctx, 'production', carried.formId);
	if (secret === undefined) return false;
	placeUnnoticed(data, 'production', { ...carried, secret } as unknown as IDataObject);
	return true;
}
