import type { IPollFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import type { PollState } from './pollState';

/**
 * A copy of each trigger's last committed state in this process's memory. Polls run on
 * n8n's main process, but static data is one object per workflow that another process
 * can overwrite (in queue mode a worker saves what its execution holds over it). When the
 * stored cursor is missing and this process still remembers it, the poll goes on from
 * the copy rather than start again.
 */
const remembered = new Map<string, PollState>();

function keyOf(ctx: IPollFunctions): string {
	return `${ctx.getWorkflow().id ?? ''}\n${ctx.getNode().id ?? ctx.getNode().name}`;
}

export function recallPollState(ctx: IPollFunctions): PollState | undefined {
	const state = remembered.get(keyOf(ctx));
	return state === undefined ? undefined : deepCopy(state);
}

/**
 * Only a poll that ended within n8n's budget may update the copy: n8n 2.41's scheduler
 * abandons a poll at a timeout longer than the budget and keeps nothing of it (no items,
 * no cursor), while the poll runs on; a copy it left would skip what it never emitted.
 */
export function rememberPollState(ctx: IPollFunctions, state: PollState): void {
	remembered.set(keyOf(ctx), deepCopy(state));
}

const warned = new Set<string>();

/** True the first time for this trigger in this process: for warnings given once. */
export function firstWarning(ctx: IPollFunctions, what: string): boolean {
	const key = `${keyOf(ctx)}\n${what}`;
	if (warned.has(key)) return false;
	warned.add(key);
	return true;
}
