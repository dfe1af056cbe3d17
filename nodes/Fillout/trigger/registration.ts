import type { IDataObject } from 'n8n-workflow';

/**
 * What the trigger keeps in the workflow's static data (`getWorkflowStaticData('node')`).
 * Fillout cannot list webhooks, so this record is the only way to find, and remove, the
 * one the trigger registered. The active workflow and "Listen for test event" each get
 * their own slot, so a test registration never touches the production one:
 *
 *     { production?: WebhookRecord, test?: WebhookRecord }
 */

export type Slot = 'production' | 'test';

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
 * Which slot a hook or delivery belongs to. n8n runs the test webhook's checkExists and
 * create in mode 'manual' and delivers to it in mode 'manual', but removes it in mode
 * 'internal', as it removes production webhooks; there the address tells them apart
 * (n8n builds it from its test base URL only for the test webhook).
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
