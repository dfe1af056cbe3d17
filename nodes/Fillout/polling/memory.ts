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

export function rememberPollState(ctx: IPollFunctions, state: PollState): void {
	remembered.set(keyOf(ctx), deepCopy(state));
}
