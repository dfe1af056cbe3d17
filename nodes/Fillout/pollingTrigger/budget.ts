import type { IPollFunctions } from 'n8n-workflow';

import type { FileFailureMode } from '../downloadFiles';
import type { PollOutcome } from './pollStep';

/**
 * Share of n8n's budget for one poll (n8n 2.41's durable scheduler abandons a poll that
 * overruns it) after which no page is read and no download starts; the rest of the
 * budget hands the items over.
 */
const POLL_BUDGET_SHARE = 0.6;

/** Share of the budget at which every download still running is stopped. */
const FILES_END_SHARE = 0.8;

/** n8n's budget for this poll; none where n8n sets none (before 2.41). */
export function pollBudgetMsOf(ctx: IPollFunctions): number | undefined {
	const budgetOf = (ctx as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	const budgetMs = typeof budgetOf === 'function' ? budgetOf.call(ctx) : undefined;
	if (budgetMs === undefined || !Number.isFinite(budgetMs) || budgetMs <= 0) return undefined;
	return budgetMs;
}

/** When to stop reading and fetching; none where n8n sets no budget (before 2.41). */
export function stopTimeOf(ctx: IPollFunctions, nowMs: number): number | undefined {
	const budgetMs = pollBudgetMsOf(ctx);
	return budgetMs === undefined ? undefined : nowMs + budgetMs * POLL_BUDGET_SHARE;
}

/**
 * Downloads start until the listing's stop time, except the first submission's, so every
 * poll moves on; at 80 % of the budget the rest are stopped and noted on their files.
 */
export function deadlineOf(
	ctx: IPollFunctions,
	taken: PollOutcome,
	nowMs: number,
): FileFailureMode['deadline'] {
	const budgetMs = pollBudgetMsOf(ctx);
	if (budgetMs === undefined) return undefined;
	const finished = taken.statuses.some((status) => status === 'finished');
	return {
		startByMs: nowMs + budgetMs * POLL_BUDGET_SHARE,
		endAtMs: nowMs + budgetMs * FILES_END_SHARE,
		exceptFirst: finished ? 1 : taken.emitted.length,
	};
}
