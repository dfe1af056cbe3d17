import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IWebhookFunctions,
} from 'n8n-workflow';

import { formIdOf } from '../shared/parameters';
import { cachedDerivedKeys, derivationOf, derivations, type KeyPair } from './derivedKeys';
import { recordSignature, secretFingerprint, secretsMatch } from './secret';
import type { Slot, WebhookRecord } from './webhookRecord';
import { ownerOf } from './webhookRecord';

/**
 * The production record rides, signed and without its secret, on the first item of each
 * execution the trigger starts, so that a queue-mode worker, which starts with empty static
 * data and may save it over the workflow's, writes the record back too. Only a process
 * holding the credential can sign one (docs/trigger-static-data.md).
 */

/** Where the record rides: a key of the item itself, never of its `json`. */
export const SIGNED_RECORD_KEY = 'filloutTriggerRecord';

/** The production record without its secret, with the secret's fingerprint and a signature. */
export interface SignedRecord {
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

/** What the signature covers: every field, and the trigger node it belongs to. */
export function signedContent(
	ctx: TriggerContext,
	unsigned: Omit<SignedRecord, 'signature'>,
): string {
	return JSON.stringify([
		// The label keeps its first name: another would change every signature.
		'n8n-nodes-fillout-forms/carried-record/v1',
		ctx.getWorkflow().id,
		ctx.getNode().id,
		unsigned.webhookId,
		unsigned.formId,
		unsigned.formName ?? null,
		unsigned.url,
		unsigned.apiRoot,
		unsigned.createdAt,
		unsigned.secretFingerprint,
	]);
}

/**
 * The production slot's record, signed, outside manual runs and only when its secret is
 * one derived from the credential (a worker could not put an older record back).
 */
export async function signRecord(
	ctx: IWebhookFunctions,
	slot: Slot,
	record: WebhookRecord | undefined,
): Promise<SignedRecord | undefined> {
	if (slot !== 'production' || record === undefined || ctx.getMode() === 'manual') return undefined;
	const fingerprint = secretFingerprint(record.secret);
	const keys = derivationOf(
		await cachedDerivedKeys(ctx, slot, record.formId, fingerprint),
		record.secret,
	);
	if (keys === undefined) return undefined;
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

/** The items with the signed record on the first one (the items are not changed). */
export function withSignedRecord(
	items: INodeExecutionData[],
	signed: SignedRecord,
): INodeExecutionData[] {
	if (items.length === 0) return items;
	const [first, ...rest] = items;
	return [{ ...first, [SIGNED_RECORD_KEY]: { ...signed } as IDataObject }, ...rest];
}

/** The items without `key`, and what the first one held under it (unchecked). */
export function takeItemKey(
	items: INodeExecutionData[],
	key: string,
): { items: INodeExecutionData[]; value?: unknown } {
	const clean = items.map((item) => {
		if (!(key in item)) return item;
		const rest = { ...item };
		delete rest[key];
		return rest;
	});
	const value = items[0]?.[key];
	return value === undefined ? { items: clean } : { items: clean, value };
}

/** The items without any signed record, and what the first one held (unchecked). */
export function takeSignedRecord(items: INodeExecutionData[]): {
	items: INodeExecutionData[];
	signed?: unknown;
} {
	const { items: clean, value } = takeItemKey(items, SIGNED_RECORD_KEY);
	return value === undefined ? { items: clean } : { items: clean, signed: value };
}

/** The value as a signed record, when every field has its type. */
function readSigned(value: unknown): SignedRecord | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const v = value as Partial<Record<keyof SignedRecord, unknown>>;
	const idOk =
		(typeof v.webhookId === 'number' && Number.isFinite(v.webhookId)) ||
		(typeof v.webhookId === 'string' && v.webhookId !== '');
	const strings = ['formId', 'url', 'apiRoot', 'createdAt', 'secretFingerprint', 'signature'];
	const stringsOk = strings.every((name) => typeof v[name as keyof SignedRecord] === 'string');
	const nameOk = v.formName === undefined || typeof v.formName === 'string';
	return idOk && stringsOk && nameOk ? (value as SignedRecord) : undefined;
}

/** Whether the record was signed for this node and names its form and derived secret. */
function isAuthentic(ctx: IExecuteFunctions, signed: SignedRecord, keys: KeyPair): boolean {
	const { signature, ...unsigned } = signed;
	const expected = recordSignature(keys.recordKey, signedContent(ctx, unsigned));
	const signatureOk = secretsMatch(signature, expected);
	const derived = secretsMatch(signed.secretFingerprint, secretFingerprint(keys.secret));
	return signatureOk && derived;
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
 * In the execution: puts the signed record in the production slot when the slot is empty
 * (a worker's fresh static data), it names this node's form and its signature holds.
 * Returns whether it was put.
 */
export async function restoreSignedRecord(
	ctx: IExecuteFunctions,
	value: unknown,
): Promise<boolean> {
	const signed = readSigned(value);
	const formId = nodeFormId(ctx);
	if (signed === undefined || signed.formId !== formId) return false;
	const held = await cachedDerivedKeys(ctx, 'production', formId, signed.secretFingerprint);
	// The derivation the fingerprint names (a webhook registered before the key was trimmed).
	const keys = derivations(held).find((pair) => isAuthentic(ctx, signed, pair));
	if (keys === undefined) return false;
	const data = ctx.getWorkflowStaticData('node');
	if (data.production !== undefined) return false;
	const record: WebhookRecord = {
		webhookId: signed.webhookId,
		formId: signed.formId,
		...(signed.formName === undefined ? {} : { formName: signed.formName }),
		url: signed.url,
		secret: keys.secret,
		apiRoot: signed.apiRoot,
		createdAt: signed.createdAt,
		...ownerOf(ctx),
	};
	setWithoutMarkingChange(data, 'production', { ...record });
	return true;
}

/**
 * Sets `data[key]` without n8n noticing: its static data marks a change when a property is
 * set or deleted, not defined. So it is saved only when something else changes static data.
 */
export function setWithoutMarkingChange(data: IDataObject, key: string, value: IDataObject): void {
	Reflect.defineProperty(data, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}
