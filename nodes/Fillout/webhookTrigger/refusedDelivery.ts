import type { IWebhookFunctions } from 'n8n-workflow';

import { refusalToLog } from '../shared/processMemory';
import type { PresentedSecret } from './deliveryAuth';
import type { Slot } from './webhookRecord';

/** A trigger slot's first refused delivery is logged, then at most one per this. */
export const REFUSAL_LOG_INTERVAL_MS = 60 * 60 * 1000;

const CARRIED: Record<PresentedSecret, string> = {
	none: 'no `secret` query parameter',
	wrong: 'a wrong `secret` query parameter',
	several: 'more than one `secret` query parameter',
};

/**
 * Logs a delivery refused with 401 and its likely cause, throttled per trigger slot in this
 * process's memory; never the secret, expected or received (docs/webhook-trigger.md).
 */
export function logRefusedDelivery(
	ctx: IWebhookFunctions,
	slot: Slot,
	presented: PresentedSecret,
): void {
	const unlogged = refusalToLog(ctx, slot, performance.now(), REFUSAL_LOG_INTERVAL_MS);
	if (unlogged === undefined) return;
	const workflowId = ctx.getWorkflow().id ?? '';
	const since = unlogged > 0 ? ` (and ${unlogged} more since the last such message)` : '';
	ctx.logger.warn(
		`Fillout Trigger: refused a delivery to the ${slot} webhook of workflow ${workflowId} with 401: it carried ${CARRIED[presented]}${since}. The address the trigger registers at Fillout carries the secret as its \`secret\` query parameter; the address in n8n's Webhook URLs panel lacks it, so a request sent there is refused. A proxy or load balancer in front of n8n that drops query strings makes every delivery fail this way. A webhook left in Fillout by another workflow or an earlier registration presents a wrong secret: delete it in the form's Integrations in Fillout. The next such message comes an hour later at the earliest.`,
		{ workflowId, node: ctx.getNode().name, slot, presented, unlogged },
	);
}
