import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { formIdOf } from '../shared/parameters';
import type { Slot, WebhookRecord } from './webhookRecord';
import { recordSignature, secretFingerprint, secretsMatch } from './secret';
import { knownKeys, type TriggerKeys } from './derivedKeys';

/**
 * The production record rides with each execution the trigger starts, so that a
 * queue-mode worker's overwrite of static data writes it back too.
 *
 * A worker starts each execution with empty static data (n8n keeps no static data in an
 * execution's workflow snapshot) and, when any node writes some, saves what it holds
 * over the workflow's whole static data. So `webhook()` puts its slot's record on the
 * first item, beside `json`, without the secret and signed with a key derived from the
 * credential (never from the webhook address): only a process holding the credential
 * can make one that `execute()` accepts. `execute()`, which n8n runs first in the
 * execution, takes it off and, when the slot is empty there and the signature holds for
 * this node and its form, places it without marking static data changed: it is saved
 * only when another node makes the worker save anyway. See docs/trigger-static-data.md.
 */

/** Where the record travels: a key of the item itself, never of its `json`. */
export const CARRIED_RECORD_KEY = 'filloutTriggerRecord';

/** The production record without its secret, with the secret's fingerprint and a signature. */
export interface CarriedRecord {
	webhookId: number | string;
	formId: string;
	formName?: string;
	url: string;
	apiRoot: string;
	createdAt: string;
	secretFingerprint: string;
	signature: string;
}

type TriggerContext = IExecuteFunctions | IWebhookFunctions;

/** What the signature covers: every carried field, and the trigger node it belongs to. */
export function signedContent(
	ctx: TriggerContext,
	carried: Omit<CarriedRecord, 'signature'>,
): string {
	return JSON.stringify([
		'n8n-nodes-fillout-forms/carried-record/v1',
		ctx.getWorkflow().id,
		ctx.getNode().id,
		carried.webhookId,
		carried.formId,
		carried.formName ?? null,
		carried.url,
		carried.apiRoot,
		carried.createdAt,
		carried.secretFingerprint,
	]);
}

/**
 * What a delivery carries: the production slot's record, outside manual runs, when its
 * secret is the one derived from the credential (an older record could not be put back).
 */
export async function recordToCarry(
	ctx: IWebhookFunctions,
	slot: Slot,
	record: WebhookRecord | undefined,
): Promise<CarriedRecord | undefined> {
	if (slot !== 'production' || record === undefined || ctx.getMode() === 'manual') return undefined;
	const fingerprint = secretFingerprint(record.secret);
	const keys = await knownKeys(ctx, slot, record.formId, fingerprint);
	if (keys === undefined || !secretsMatch(record.secret, keys.secret)) return undefined;
	const unsigned = {
		webhookId: record.webhookId,
		formId: record.formId,
		...(record.formName === undefined ? {} : { formName: record.formName }),
		url: record.url,
		apiRoot: record.apiRoot,
		createdAt: record.createdAt,
		secretFingerprint: fingerprint,
	};
	return { ...unsigned, signature: recordSignature(keys.recordKey, signedContent(ctx, unsigned)) };
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

/** The items without any carried record, and what the first one carried (unchecked). */
export function takeCarriedRecord(items: INodeExecutionData[]): {
	items: INodeExecutionData[];
	carried?: unknown;
} {
	const clean = items.map((item) => {
		if (!(CARRIED_RECORD_KEY in item)) return item;
		const rest = { ...item };
		delete rest[CARRIED_RECORD_KEY];
		return rest;
	});
	const carried = items[0]?.[CARRIED_RECORD_KEY];
	return carried === undefined ? { items: clean } : { items: clean, carried };
}

/** The value as a carried record, when every field has its type. */
function readCarried(value: unknown): CarriedRecord | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as Partial<Record<keyof CarriedRecord, unknown>>;
	const idOk =
		(typeof v.webhookId === 'number' && Number.isFinite(v.webhookId)) ||
		(typeof v.webhookId === 'string' && v.webhookId !== '');
	const strings = ['formId', 'url', 'apiRoot', 'createdAt', 'secretFingerprint', 'signature'];
	const stringsOk = strings.every((name) => typeof v[name as keyof CarriedRecord] === 'string');
	const nameOk = v.formName === undefined || typeof v.formName === 'string';
	return idOk && stringsOk && nameOk ? (value as CarriedRecord) : undefined;
}

/** Whether the carried record was signed for this node and names its form and derived secret. */
function isAuthentic(ctx: IExecuteFunctions, carried: CarriedRecord, keys: TriggerKeys): boolean {
	const { signature, ...unsigned } = carried;
	const expected = recordSignature(keys.recordKey, signedContent(ctx, unsigned));
	const signed = secretsMatch(signature, expected);
	const derived = secretsMatch(carried.secretFingerprint, secretFingerprint(keys.secret));
	return signed && derived;
}

/** The node's form, or undefined when it cannot be read without an item. */
function nodeFormId(ctx: IExecuteFunctions): string | undefined {
	try {
		return formIdOf(ctx, 0);
	} catch {
		return undefined;
	}
}

/**
 * In the execution: puts the carried record in the production slot when the slot is
 * empty (a worker's fresh static data), and only when it names this node's form and its
 * signature holds. Returns whether it was put.
 */
export async function keepCarriedRecord(ctx: IExecuteFunctions, value: unknown): Promise<boolean> {
	const carried = readCarried(value);
	const formId = nodeFormId(ctx);
	if (carried === undefined || carried.formId !== formId) return false;
	const keys = await knownKeys(ctx, 'production', formId, carried.secretFingerprint);
	if (keys === undefined || !isAuthentic(ctx, carried, keys)) return false;
	const data = ctx.getWorkflowStaticData('node');
	if (data.production !== undefined) return false;
	const record: WebhookRecord = {
		webhookId: carried.webhookId,
		formId: carried.formId,
		...(carried.formName === undefined ? {} : { formName: carried.formName }),
		url: carried.url,
		secret: keys.secret,
		apiRoot: carried.apiRoot,
		createdAt: carried.createdAt,
	};
	placeUnnoticed(data, 'production', { ...record });
	return true;
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
