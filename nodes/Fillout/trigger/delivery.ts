import type { IDataObject } from 'n8n-workflow';

import type { Submission } from '../shared/interfaces';
import { questionKeyMap, RESERVED_KEYS, simplifySubmission } from '../shared/simplify';

/**
 * What Fillout POSTs to the trigger's address: the live service wraps the submission as
 * `{formId, formName, submission}`, the documented interface sends the bare Submission.
 * n8n usually hands the node an already-parsed object; other content types arrive as a
 * string or only as the raw bytes.
 */

export interface DeliveryRequest {
	/** What n8n parsed (`req.body`). */
	body: unknown;
	/** The raw bytes n8n kept (`req.rawBody`), when any. */
	rawBody?: unknown;
	/** The request's Content-Type header. */
	contentType?: unknown;
}

export type ParsedDelivery =
	| {
			ok: true;
			shape: 'wrapped' | 'bare';
			submission: Submission;
			formId?: string;
			formName?: string;
	  }
	| { ok: false; reason: string };

function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		!(value instanceof Uint8Array)
	);
}

function isJsonContentType(contentType: unknown): boolean {
	if (contentType === undefined || contentType === null || contentType === '') return true;
	const mime = String(contentType).split(';')[0].trim().toLowerCase();
	return mime === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mime);
}

function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (value instanceof Uint8Array) return new TextDecoder('utf-8').decode(value);
	return undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
	try {
		// n8n 2.x strips a byte-order mark before parsing JSON; 1.x and other types keep it.
		return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
	} catch {
		return { ok: false };
	}
}

/** A Submission needs its id and its question list; everything else is optional. */
function isSubmission(value: unknown): value is Submission {
	return (
		isPlainObject(value) &&
		typeof value.submissionId === 'string' &&
		value.submissionId !== '' &&
		Array.isArray(value.questions)
	);
}

/**
 * The body as a JSON value, whatever the Content-Type says (Fillout does not document
 * the one it sends): n8n's parsed object when n8n parsed JSON, otherwise the raw bytes,
 * or the text n8n made of them, parsed once. What n8n parsed from another type (form
 * fields, XML) is never taken for the delivery.
 */
function bodyValue(
	request: DeliveryRequest,
): { ok: true; value: unknown } | { ok: false; reason: string } {
	const { body } = request;
	const emptyObject = isPlainObject(body) && Object.keys(body).length === 0;
	const parsed = textOf(body) === undefined && body !== undefined && body !== null && !emptyObject;
	if (parsed && isJsonContentType(request.contentType)) return { ok: true, value: body };
	const text = textOf(request.rawBody) ?? textOf(body);
	if (text === undefined && parsed) {
		return {
			ok: false,
			reason: `Expected a JSON body, but n8n read it as "${String(request.contentType)}" and kept no raw bytes`,
		};
	}
	if (text === undefined || text.trim() === '') return { ok: false, reason: 'The body is empty' };
	const value = parseJson(text);
	return value.ok
		? value
		: { ok: false, reason: 'Expected a JSON body: the body is not valid JSON' };
}

/** Reads a delivery in either shape; anything else is refused with a reason. */
export function parseDelivery(request: DeliveryRequest): ParsedDelivery {
	const body = bodyValue(request);
	if (!body.ok) return body;
	const { value } = body;
	if (isPlainObject(value) && isSubmission(value.submission)) {
		return {
			ok: true,
			shape: 'wrapped',
			submission: value.submission,
			formId: typeof value.formId === 'string' && value.formId ? value.formId : undefined,
			formName: typeof value.formName === 'string' ? value.formName : undefined,
		};
	}
	if (isSubmission(value)) return { ok: true, shape: 'bare', submission: value };
	return {
		ok: false,
		reason:
			'The body carries no Fillout submission (expected {formId, formName, submission} or a submission with submissionId and questions)',
	};
}

const LISTS = ['questions', 'calculations', 'urlParameters', 'scheduling', 'payments'] as const;

/**
 * A copy the simplifier can read whatever the service sent: list entries that are not
 * objects with an id are left out, and lists or objects of the wrong type are dropped.
 */
export function readableSubmission(submission: Submission): Submission {
	const copy: Submission = { ...submission };
	for (const name of LISTS) {
		const list: unknown = submission[name];
		if (list === undefined) continue;
		if (!Array.isArray(list)) {
			delete copy[name];
			continue;
		}
		copy[name] = list.filter(
			(entry): entry is NonNullable<Submission['questions']>[number] =>
				isPlainObject(entry) && (typeof entry.id === 'string' || typeof entry.id === 'number'),
		);
	}
	if (submission.quiz !== undefined && !isPlainObject(submission.quiz)) delete copy.quiz;
	if (submission.login !== undefined && !isPlainObject(submission.login)) delete copy.login;
	return copy;
}

/** Keys the trigger adds to each item; question names never take them. */
export const FORM_KEYS = ['formId', 'formName'] as const;

export interface FormFacts {
	formId: string;
	/** Null when neither the delivery nor the activation told it. */
	formName: string | null;
}

/**
 * The item a delivery starts the workflow with: the simplified submission (unknown
 * question types left out) or the submission as sent, plus the form's id and name and
 * any `extra` fields (the polling trigger's `status`). `reserved` names further keys the
 * caller adds later (the file list); question names never take any of those keys.
 */
export function deliveryItem(
	submission: Submission,
	form: FormFacts,
	simplify: boolean,
	extra: IDataObject = {},
	reserved: readonly string[] = [],
): IDataObject {
	const added = { formId: form.formId, formName: form.formName, ...extra };
	// First for the order, last so that keys of the submission never replace them.
	if (!simplify) return { ...added, ...submission, ...added };
	const readable = readableSubmission(submission);
	const taken = [...RESERVED_KEYS, ...FORM_KEYS, ...Object.keys(extra), ...reserved];
	const keys = questionKeyMap(readable.questions ?? [], taken);
	return { ...simplifySubmission(readable, keys), ...added };
}
