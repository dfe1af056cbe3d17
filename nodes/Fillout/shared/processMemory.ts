import type { IPollFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import type { CatchUpRecord } from '../catchUp/catchUpRecord';
import type { PollState } from '../pollingTrigger/pollState';
import type { DerivedKeys } from '../webhookTrigger/derivedKeys';
import type { Slot, WebhookRecord } from '../webhookTrigger/webhookRecord';
import { RecentIds } from './recentIds';

/**
 * Everything the two triggers keep in this n8n process's memory, beside static data
 * (which another process may overwrite). A restarted process starts with all of it empty.
 */
export const processMemory = {
	/** Webhook records by trigger slot, to write back a record static data lost. */
	webhookRecords: new Map<string, WebhookRecord>(),
	/** Trigger slots whose lost record was logged as an error (repeats go to debug). */
	lostRecordsLogged: new Set<string>(),
	/** Submissions the webhook trigger started the workflow for, to drop a second delivery. */
	recentSubmissions: new RecentIds({ capacity: 10_000, ttlMs: 60 * 60 * 1000 }),
	/** Refused deliveries per trigger slot: when one was last logged, and how many since. */
	refusalLogs: new Map<string, { loggedAt: number; unlogged: number }>(),
	/** Keys derived from the credential, so a delivery costs no credential read. */
	derivedKeys: new Map<string, Promise<DerivedKeys | undefined>>(),
	/** The polling trigger's cursor after its last poll that ended within n8n's budget. */
	pollStates: new Map<string, PollState>(),
	/** Warnings the polling trigger gives once per trigger. */
	pollWarnings: new Set<string>(),
	/** The Fillout Trigger's catch-up record, merged with static data's at every use. */
	catchUpRecords: new Map<string, CatchUpRecord>(),
	/** When each trigger's last catch-up check started here: knocks closer together wait. */
	catchUpChecks: new Map<string, number>(),
	/** Triggers whose webhook n8n removed here: a check running late must not register one. */
	catchUpStopped: new Set<string>(),
} satisfies Record<string, { readonly size: number; clear(): void }>;

export type NodeContext = Pick<IPollFunctions, 'getWorkflow' | 'getNode'>;

/** One trigger node: its workflow and node. */
export function triggerKey(ctx: NodeContext): string {
	return `${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id ?? ctx.getNode().name}`;
}

/** One webhook trigger's production or test registration. */
export function slotKey(ctx: NodeContext, slot: Slot): string {
	return `${triggerKey(ctx)}\n${slot}`;
}

export function rememberRecord(ctx: NodeContext, slot: Slot, record: WebhookRecord): void {
	const key = slotKey(ctx, slot);
	processMemory.webhookRecords.set(key, { ...record });
	processMemory.lostRecordsLogged.delete(key);
}

export function forgetRecord(ctx: NodeContext, slot: Slot): void {
	processMemory.webhookRecords.delete(slotKey(ctx, slot));
}

export function rememberedRecord(ctx: NodeContext, slot: Slot): WebhookRecord | undefined {
	const record = processMemory.webhookRecords.get(slotKey(ctx, slot));
	return record === undefined ? undefined : { ...record };
}

/** True the first time a slot's lost record is logged, until the record is seen again. */
export function firstLostRecordLog(ctx: NodeContext, slot: Slot): boolean {
	return firstTime(processMemory.lostRecordsLogged, slotKey(ctx, slot));
}

const deliveryKey = (ctx: NodeContext, slot: Slot, formId: string, submissionId: string) =>
	`${slotKey(ctx, slot)}\n${formId}\n${submissionId}`;

/** True for the first delivery of a submission to this slot and form within the window. */
export function firstDelivery(
	ctx: NodeContext,
	slot: Slot,
	formId: string,
	submissionId: string,
): boolean {
	const key = deliveryKey(ctx, slot, formId, submissionId);
	return processMemory.recentSubmissions.firstSighting(key, performance.now());
}

/** Forgets a delivery whose execution did not start, so that a resend starts it. */
export function forgetDelivery(
	ctx: NodeContext,
	slot: Slot,
	formId: string,
	submissionId: string,
): void {
	processMemory.recentSubmissions.forget(deliveryKey(ctx, slot, formId, submissionId));
}

/**
 * Counts a refused delivery to this slot. When it is to be logged (the slot's first, then
 * at most one per `intervalMs`), returns how many went unlogged before it; else undefined.
 */
export function refusalToLog(
	ctx: NodeContext,
	slot: Slot,
	now: number,
	intervalMs: number,
): number | undefined {
	const key = slotKey(ctx, slot);
	const last = processMemory.refusalLogs.get(key);
	if (last !== undefined && now - last.loggedAt < intervalMs) {
		last.unlogged++;
		return undefined;
	}
	processMemory.refusalLogs.set(key, { loggedAt: now, unlogged: 0 });
	return last?.unlogged ?? 0;
}

export function recallPollState(ctx: NodeContext): PollState | undefined {
	const state = processMemory.pollStates.get(triggerKey(ctx));
	return state === undefined ? undefined : deepCopy(state);
}

/** Only after a poll that ended within n8n's budget: n8n 2.41 keeps nothing of one it abandoned. */
export function rememberPollState(ctx: NodeContext, state: PollState): void {
	processMemory.pollStates.set(triggerKey(ctx), deepCopy(state));
}

/** True the first time for this trigger in this process: for warnings given once. */
export function firstWarning(ctx: NodeContext, what: string): boolean {
	return firstTime(processMemory.pollWarnings, `${triggerKey(ctx)}\n${what}`);
}

function firstTime(seen: Set<string>, key: string): boolean {
	if (seen.has(key)) return false;
	seen.add(key);
	return true;
}
