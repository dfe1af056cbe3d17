import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { RecentIds } from './recentIds';
import type { Slot, WebhookRecord } from '../webhookTrigger/webhookRecord';
import { readRecord } from '../webhookTrigger/webhookRecord';
import { forgetDerivedKeys } from '../webhookTrigger/derivedKeys';

/**
 * What one n8n process remembers of the trigger's registrations, beside static data.
 * In queue mode a worker may save another node's static data over the whole object and
 * so erase the trigger's record; a copy kept here lets the process that still has one
 * write it back (the main on its next activation or deactivation, a webhook processor
 * on its next delivery), so the webhook id, and with it the removal at Fillout, is not
 * lost. A restarted process starts with nothing here.
 */

type TriggerContext = IHookFunctions | IWebhookFunctions;

export const SLOTS: readonly Slot[] = ['production', 'test'];

/** One trigger node's slot: workflow, node and slot. */
export function slotKey(ctx: TriggerContext, slot: Slot): string {
	return `${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id ?? ctx.getNode().name}\n${slot}`;
}

const remembered = new Map<string, WebhookRecord>();
const reportedLost = new Set<string>();

export function rememberRecord(ctx: TriggerContext, slot: Slot, record: WebhookRecord): void {
	const key = slotKey(ctx, slot);
	remembered.set(key, { ...record });
	reportedLost.delete(key);
}

export function forgetRecord(ctx: TriggerContext, slot: Slot): void {
	remembered.delete(slotKey(ctx, slot));
}

/**
 * Writes back every record this process remembers that static data lost, and says so.
 * Returns the slots it restored.
 */
export function restoreLostRecords(ctx: TriggerContext, data: IDataObject): Slot[] {
	const restored: Slot[] = [];
	for (const slot of SLOTS) {
		if (readRecord(data[slot]) !== undefined) continue;
		const copy = remembered.get(slotKey(ctx, slot));
		if (copy === undefined) continue;
		data[slot] = { ...copy };
		restored.push(slot);
		ctx.logger.warn(
			`Fillout Trigger: the record of ${slot} webhook ${copy.webhookId} (form ${copy.formId}) was missing from workflow ${ctx.getWorkflow().id ?? ''}'s static data; written back from this n8n process's copy. Another node of the workflow probably saved its own static data over it (n8n's queue-mode workers do).`,
			{ workflowId: ctx.getWorkflow().id, webhookId: copy.webhookId, formId: copy.formId, slot },
		);
	}
	return restored;
}

/**
 * Logs a lost record as an error once per slot and process (until the record is seen
 * again), so a flood of deliveries does not flood the log; repeats go to debug.
 */
export function reportLostRecord(
	ctx: TriggerContext,
	slot: Slot,
	message: string,
	meta: IDataObject = {},
): void {
	const key = slotKey(ctx, slot);
	const details = { workflowId: ctx.getWorkflow().id, node: ctx.getNode().name, slot, ...meta };
	if (reportedLost.has(key)) {
		ctx.logger.debug(message, details);
		return;
	}
	reportedLost.add(key);
	ctx.logger.error(message, details);
}

/**
 * Submissions this process started the workflow for, per trigger slot and form: up to
 * 10,000 ids, each for an hour. A second registration for the same address delivers the
 * same submission within seconds, so the window is generous. It lives in this process
 * only: with several webhook processors behind a load balancer, two deliveries of one
 * submission that reach different processors both start the workflow.
 */
export const recentSubmissions = new RecentIds({ capacity: 10_000, ttlMs: 60 * 60 * 1000 });

/** Forgets the record copies, as a process that never saw them (tests simulate one). */
export function forgetRememberedRecords(): void {
	remembered.clear();
	reportedLost.clear();
}

/** Forgets everything above, as a restart of the process does (tests simulate restarts). */
export function forgetProcessMemory(): void {
	forgetRememberedRecords();
	recentSubmissions.clear();
	forgetDerivedKeys();
}
