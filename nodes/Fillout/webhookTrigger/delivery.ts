import type { IWebhookFunctions } from 'n8n-workflow';

import type { Submission } from '../shared/interfaces';
import { isPlainObject } from '../shared/submissionItem';

/**
 * What Fillout POSTs to the trigger's address: `{formId, formName, submission}` from the
 * live service, the bare Submission as documented; parsed by n8n, or as text or raw bytes.
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
 * The body as JSON whatever the Content-Type says (Fillout does not document it): what n8n
 * parsed as JSON, else the raw bytes or n8n's text of them; never what n8n parsed from
 * another type (form fields, XML).
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

/** The delivery n8n received: what it parsed, the raw bytes it kept, and the Content-Type. */
export function readDelivery(ctx: IWebhookFunctions): ParsedDelivery {
	return parseDelivery({
		body: ctx.getBodyData(),
		rawBody: (ctx.getRequestObject() as { rawBody?: unknown }).rawBody,
		contentType: ctx.getHeaderData()['content-type'],
	});
}
