import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { Slot, WebhookRecord } from './registration';
import { readRecord } from './registration';
import { secretFingerprint } from './secret';
import { expectedSecret } from './secretMaterial';

/**
 * The production record rides with each execution the trigger starts, so that a
 * queue-mode worker's overwrite of static data writes it back too.
 *
 * A worker starts each execution with empty static data (n8n keeps no static data in an
 * execution's workflow snapshot) and, when any node writes some, saves what it holds
 * over the workflow's whole static data. So `webhook()` puts its slot's record on the
 * first item, beside `json`, without the secret (the worker derives it again from the
 * credential, and the carried fingerprint tells whether that is the record's).
 * `execute()`, which n8n runs first in the execution, takes it off and, when the slot is
 * empty there, places it without marking static data changed: it is saved
 * only when another node makes the worker save anyway, and the saved object then holds
 * what an execution in the main process would have saved. An execution that writes no
 * static data saves nothing, as before. See docs/trigger-static-data.md.
 */

/** Where the record travels: a key of the item itself, never of its `json`. */
export const CARRIED_RECORD_KEY = 'filloutTriggerRecord';

/** The production record with its secret's fingerprint in place of the secret. */
export type CarriedRecord = Omit<WebhookRecord, 'secret'> & { secretFingerprint: string };

/** The record as it travels. */
export function carriedRecordOf(record: WebhookRecord): CarriedRecord {
	const carried: Partial<WebhookRecord> = { ...record };
	delete carried.secret;
	return {
		...(carried as Omit<WebhookRecord, 'secret'>),
		secretFingerprint: secretFingerprint(record.secret),
	};
}

/** What a delivery carries: the production slot's record, outside manual runs. */
export function recordToCarry(
	mode: WorkflowExecuteMode,
	slot: Slot,
	record: WebhookRecord | undefined,
): CarriedRecord | undefined {
	if (slot !== 'production' || record === undefined || mode === 'manual') return undefined;
	return carriedRecordOf(record);
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
	const clean = items.map((item) => {
		if (!(CARRIED_RECORD_KEY in item)) return item;
		const rest = { ...item };
		delete rest[CARRIED_RECORD_KEY];
		return rest;
	});
	const value = items[0]?.[CARRIED_RECORD_KEY] as Partial<CarriedRecord> | undefined;
	// readRecord checks id and API root; the secret is not carried, so a stand-in passes it.
	const wellFormed =
		typeof value === 'object' &&
		value !== null &&
		readRecord({ ...value, secret: '' }) !== undefined &&
		typeof value.formId === 'string' &&
		typeof value.url === 'string' &&
		typeof value.secretFingerprint === 'string';
	return wellFormed ? { items: clean, carried: { ...value } as CarriedRecord } : { items: clean };
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
 * Secrets this process derived, by fingerprint: a fingerprint names one secret, so the
 * map is right whatever credential changes, and a worker reads the credential once per
 * trigger rather than once per execution. Bounded; emptied when full.
 */
const derivedByFingerprint = new Map<string, string>();
const KNOWN_SECRETS = 1_000;

/** The carried record's secret, when it is the one derived from the credential. */
async function secretOf(
	ctx: IExecuteFunctions,
	carried: CarriedRecord,
): Promise<string | undefined> {
	const known = derivedByFingerprint.get(carried.secretFingerprint);
	if (known !== undefined) return known;
	const derived = await expectedSecret(ctx, 'production', carried.formId);
	if (derived === undefined || secretFingerprint(derived) !== carried.secretFingerprint) {
		// A registration made before secrets were derived, or with an earlier key.
		return undefined;
	}
	if (derivedByFingerprint.size >= KNOWN_SECRETS) derivedByFingerprint.clear();
	derivedByFingerprint.set(carried.secretFingerprint, derived);
	return derived;
}

/**
 * In the execution: puts the carried record in the production slot when the slot is
 * empty (a worker's fresh static data). Only a record whose secret this process can
 * derive from the credential is put back.
 */
export async function keepCarriedRecord(
	ctx: IExecuteFunctions,
	carried: CarriedRecord,
): Promise<boolean> {
	const data = ctx.getWorkflowStaticData('node');
	if (data.production !== undefined) return false;
	const secret = await secretOf(ctx, carried);
	if (secret === undefined) return false;
	const record: Partial<CarriedRecord> = { ...carried };
	delete record.secretFingerprint;
	placeUnnoticed(data, 'production', { ...record, secret } as unknown as IDataObject);
	return true;
}

/** Forgets the derived secrets, as a restarted process (tests). */
export function forgetDerivedSecrets(): void {
	derivedByFingerprint.clear();
}
