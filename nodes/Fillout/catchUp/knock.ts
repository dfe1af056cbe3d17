import type { IDataObject, ITriggerFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { rememberedRecord } from '../shared/processMemory';
import { addressWithSecret } from '../webhookTrigger/secret';
import { readRecord } from '../webhookTrigger/webhookRecord';

/**
 * A knock: the trigger's main-process part asks its own webhook address to check for
 * missed submissions, so that every check runs where deliveries arrive (the webhook
 * process in queue mode) and reads the same record they write. docs/catch-up.md.
 */

/** The header that makes a request to the trigger's address a knock, not a delivery. */
export const KNOCK_HEADER = 'x-fillout-trigger-knock';

/** How long the main process waits for a check to answer (a check lists for a minute). */
const KNOCK_TIMEOUT_MS = 5 * 60_000;

/** What a knocked webhook answers. */
export interface KnockAnswer {
	/** False when no check ran (catch-up off, no record yet, or one ran moments ago). */
	checked: boolean;
	/** Missed submissions the check ran. */
	missed: number;
	/** Whether another check should follow at once. */
	more: boolean;
}

export function isKnock(ctx: IWebhookFunctions): boolean {
	return ctx.getHeaderData()[KNOCK_HEADER] !== undefined;
}

function readAnswer(body: unknown): KnockAnswer | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const { checked, missed, more } = body as IDataObject;
	if (typeof checked !== 'boolean' || typeof more !== 'boolean') return undefined;
	if (typeof missed !== 'number' || !Number.isInteger(missed) || missed < 0) return undefined;
	return { checked, missed, more };
}

/**
 * Knocks at the address the production webhook was registered with. Undefined when the
 * trigger has no production record in this process (nothing registered to check for).
 */
export async function knock(ctx: ITriggerFunctions): Promise<KnockAnswer | undefined> {
	const data = ctx.getWorkflowStaticData('node');
	const record = readRecord(data.production) ?? rememberedRecord(ctx, 'production');
	if (record === undefined) return undefined;
	let body: unknown;
	try {
		body = await ctx.helpers.httpRequest({
			method: 'POST',
			url: addressWithSecret(record.url, record.secret),
			headers: { [KNOCK_HEADER]: '1' },
			body: {},
			json: true,
			timeout: KNOCK_TIMEOUT_MS,
		});
	} catch (error) {
		// The request's own error names the address with its secret: only its status or code.
		const { response, httpCode, code } = error as IDataObject & { response?: IDataObject };
		const status = response?.status ?? httpCode;
		const why = status !== undefined ? `HTTP ${String(status)}` : String(code ?? 'no answer');
		// Its words never name the secret.
		throw new NodeOperationError(ctx.getNode(), `${record.url} answered ${why}`);
	}
	const answer = readAnswer(body);
	if (answer === undefined) {
		throw new NodeOperationError(ctx.getNode(), `${record.url} did not answer as the trigger`);
	}
	return answer;
}
