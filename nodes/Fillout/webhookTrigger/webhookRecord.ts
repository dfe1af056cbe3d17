import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/**
 * What the webhook trigger keeps in static data (`getWorkflowStaticData('node')`), the only
 * way to find and remove its webhook, as Fillout cannot list webhooks:
 *
 *     { production?: WebhookRecord, test?: WebhookRecord, lost?: { production?: RecordLoss } }
 *
 * docs/trigger-static-data.md says what happens when another process overwrites it.
 */

export type Slot = 'production' | 'test';

/** Where the webhook's lifecycle runs: n8n's hooks, and a catch-up check replacing it. */
export type LifecycleContext = IHookFunctions | IWebhookFunctions;

export interface WebhookRecord {
	/** The id /webhook/create answered (an integer; Fillout wants it back as sent). */
	webhookId: number | string;
	formId: string;
	/** From the form's metadata at activation; bare deliveries do not carry it. */
	formName?: string;
	/** n8n's webhook address, without the secret. */
	url: string;
	/** The secret appended to the registered address; deliveries must present it. */
	secret: string;
	/** Where the webhook was registered (region, self-hosted or OAuth2 base URL). */
	apiRoot: string;
	createdAt: string;
	/** The workflow and node it was registered for; records of earlier versions have none. */
	workflowId?: string;
	nodeId?: string;
}

/** The owner fields of a record this node writes. */
export function ownerOf(
	ctx: Pick<IHookFunctions, 'getWorkflow' | 'getNode'>,
): Pick<WebhookRecord, 'workflowId' | 'nodeId'> {
	const workflowId = ctx.getWorkflow().id;
	const nodeId = ctx.getNode().id;
	return { ...(workflowId ? { workflowId } : {}), ...(nodeId ? { nodeId } : {}) };
}

/** When and how a slot's record was found lost: evidence for the next main start. */
export interface RecordLoss {
	detectedAt: string;
	/** 'delivery' (a verified delivery found no record), 'restart' or 'deactivation'. */
	detectedBy: 'delivery' | 'restart' | 'deactivation';
}

export function recordLossOf(data: IDataObject, slot: Slot): RecordLoss | undefined {
	const lost = data.lost as IDataObject | undefined;
	const mark = typeof lost === 'object' && lost !== null ? lost[slot] : undefined;
	return typeof mark === 'object' && mark !== null ? (mark as unknown as RecordLoss) : undefined;
}

/** Notes the slot's record as lost (keeps the first detection). */
export function noteRecordLoss(
	data: IDataObject,
	slot: Slot,
	detectedBy: RecordLoss['detectedBy'],
): void {
	if (recordLossOf(data, slot) !== undefined) return;
	const lost = (
		typeof data.lost === 'object' && data.lost !== null ? data.lost : {}
	) as IDataObject;
	data.lost = { ...lost, [slot]: { detectedAt: new Date().toISOString(), detectedBy } };
}

/** Clears the slot's loss once it holds a record again. */
export function clearRecordLoss(data: IDataObject, slot: Slot): void {
	const lost = data.lost as IDataObject | undefined;
	if (typeof lost !== 'object' || lost === null || !(slot in lost)) return;
	const rest = { ...lost };
	delete rest[slot];
	if (Object.keys(rest).length === 0) delete data.lost;
	else data.lost = rest;
}

/** The record in a slot, or undefined when the slot is empty or holds something else. */
export function readRecord(value: unknown): WebhookRecord | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const record = value as Partial<WebhookRecord>;
	const idOk =
		(typeof record.webhookId === 'number' && Number.isFinite(record.webhookId)) ||
		(typeof record.webhookId === 'string' && record.webhookId !== '');
	if (!idOk || typeof record.secret !== 'string' || typeof record.apiRoot !== 'string') {
		return undefined;
	}
	return record as WebhookRecord;
}

/** Where a trigger wants its webhook now: its form, n8n's address for it, and the API root. */
export interface WantedRegistration {
	formId: string;
	url: string | undefined;
	apiRoot: string;
}

/** Whether the record was registered for exactly this form, address and API root. */
export function registrationFits(record: WebhookRecord, wanted: WantedRegistration): boolean {
	return (
		wanted.url !== undefined &&
		record.url === wanted.url &&
		record.formId === wanted.formId &&
		record.apiRoot === wanted.apiRoot
	);
}

/**
 * Which slot a hook or delivery belongs to: mode 'manual' is the test webhook, but n8n
 * removes both in mode 'internal', where only the test webhook's address tells it apart.
 */
export function slotFor(mode: string, webhookUrl: string | undefined, data: IDataObject): Slot {
	if (mode === 'manual') return 'test';
	const test = readRecord(data.test);
	if (test !== undefined && webhookUrl !== undefined && test.url === webhookUrl) return 'test';
	return 'production';
}

/** The id /webhook/create answered, or undefined when the answer has none. */
export function createdWebhookId(answer: unknown): number | string | undefined {
	if (typeof answer !== 'object' || answer === null) return undefined;
	const { id } = answer as { id?: unknown };
	if (typeof id === 'number' && Number.isFinite(id)) return id;
	if (typeof id === 'string' && id.trim() !== '') return /^\d+$/.test(id.trim()) ? Number(id) : id;
	return undefined;
}
