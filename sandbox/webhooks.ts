/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox is a dev tool: it delivers webhooks with node:http/https and times them out with timers */
/**
 * Real HTTP deliveries of submissions to webhook receivers, in the live service's wrapped shape
 * `{formId, formName, submission}` (or the bare Submission when a webhook asks for it), with a
 * time-out, and a record of each outcome.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { withFileAddresses } from './files';
import type { DeliveryRecord, FormRecord, Submission, WebhookRecord } from './types';

/** Deliveries kept per webhook, newest last; older ones are dropped to bound memory. */
const MAX_RECORDS = 100;

export function deliveryBody(
	form: FormRecord,
	submission: Submission,
	shape: WebhookRecord['shape'],
): unknown {
	return shape === 'bare' ? submission : { formId: form.id, formName: form.name, submission };
}

/** POSTs JSON to the URL; resolves (never rejects) with the status or the error. */
function post(
	url: string,
	body: string,
	timeoutMs: number,
): Promise<{ statusCode?: number; error?: string }> {
	return new Promise((resolve) => {
		let settled = false;
		const finish = (outcome: { statusCode?: number; error?: string }) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(outcome);
		};
		const send = url.startsWith('https:') ? httpsRequest : httpRequest;
		const req = send(url, {
			method: 'POST',
			// A fresh connection per delivery: pooled sockets would keep receivers' servers from closing.
			agent: false,
			headers: {
				'content-type': 'application/json',
				'content-length': String(new TextEncoder().encode(body).length),
				'user-agent': 'fillout-sandbox-webhooks/1',
				connection: 'close',
			},
		});
		const timer = setTimeout(() => {
			finish({ error: `timed out after ${timeoutMs} ms` });
			req.destroy();
		}, timeoutMs);
		req.on('response', (res) => {
			res.resume();
			finish({ statusCode: res.statusCode });
		});
		req.on('error', (error) => finish({ error: error.message || String(error) }));
		req.end(body);
	});
}

export async function deliver(
	webhook: WebhookRecord,
	form: FormRecord,
	submission: Submission,
	defaultTimeoutMs: number,
	sandboxOrigin: string,
): Promise<DeliveryRecord> {
	const started = Date.now();
	const outcome = await post(
		webhook.url,
		withFileAddresses(JSON.stringify(deliveryBody(form, submission, webhook.shape)), sandboxOrigin),
		webhook.timeoutMs ?? defaultTimeoutMs,
	);
	const record: DeliveryRecord = {
		submissionId: submission.submissionId,
		shape: webhook.shape,
		at: new Date(started).toISOString(),
		...outcome,
		durationMs: Date.now() - started,
	};
	webhook.deliveries.push(record);
	if (webhook.deliveries.length > MAX_RECORDS)
		webhook.deliveries.splice(0, webhook.deliveries.length - MAX_RECORDS);
	return record;
}
