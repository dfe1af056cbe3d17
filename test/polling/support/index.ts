/**
 * Shared by the polling trigger's tests: the trigger on a sandbox form, and the sandbox
 * calls that make submissions arrive the ways the tests need.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RunningSandbox } from '../../../sandbox';
import { createPollHarness, type PollHarness } from '../../harness';
import { FilloutPollingTrigger } from '../../../nodes/Fillout/FilloutPollingTrigger.node';
import {
	LIST_ROUTE,
	METADATA_ROUTE,
	apiKeyCredentials,
	control,
	formById,
	requestCounts,
	resetStats,
	type Json,
} from '../../nodes/integration/support';

const triggers: PollHarness[] = [];

// A poll n8n abandoned runs on: let it end within its test.
afterEach(async () => {
	for (const trigger of triggers.splice(0)) await trigger.settle();
});

export function pollingTrigger(
	sandbox: RunningSandbox,
	formId: string,
	parameters: INodeParameters = {},
	options: { pollBudgetMs?: number; timezone?: string; staticData?: IDataObject } = {},
): PollHarness {
	const trigger = createPollHarness({
		nodeType: FilloutPollingTrigger,
		credentials: apiKeyCredentials(sandbox),
		timezone: options.timezone ?? 'UTC',
		staticData: options.staticData,
		parameters: { form: formById(formId), ...parameters },
		pollBudgetMs: options.pollBudgetMs,
	});
	triggers.push(trigger);
	return trigger;
}

/** A respondent submits now (or at `submissionTime`); `hidden` keeps it out of the list. */
export async function submit(
	sandbox: RunningSandbox,
	formId: string,
	options: { submissionTime?: string; hidden?: boolean; status?: 'finished' | 'in_progress' } = {},
): Promise<string> {
	const { submissionTime, ...rest } = options;
	const answer = await control(sandbox, 'POST', `/forms/${formId}/respond`, {
		...rest,
		submission: submissionTime === undefined ? {} : { submissionTime },
	});
	return answer.submission.submissionId as string;
}

/** `count` submissions sharing one millisecond. */
export async function burst(
	sandbox: RunningSandbox,
	formId: string,
	count: number,
	at: Date,
): Promise<string[]> {
	const answer = await control(sandbox, 'POST', `/forms/${formId}/generate`, {
		count,
		startTime: at.toISOString(),
		stepMs: 0,
	});
	return answer.submissionIds as string[];
}

export async function changeSubmission(
	sandbox: RunningSandbox,
	formId: string,
	submissionId: string,
	change: Json,
): Promise<Json> {
	return await control(sandbox, 'PATCH', `/forms/${formId}/submissions/${submissionId}`, change);
}

export const idsOf = (items: INodeExecutionData[] | null): string[] =>
	(items ?? []).map((item) => item.json.submissionId as string);

/** Runs `action` and returns the list and metadata requests it cost. */
export async function countingRequests<T>(
	sandbox: RunningSandbox,
	action: () => Promise<T>,
): Promise<{ result: T; list: number; metadata: number }> {
	await resetStats(sandbox);
	const result = await action();
	const counts = await requestCounts(sandbox);
	return { result, list: counts[LIST_ROUTE] ?? 0, metadata: counts[METADATA_ROUTE] ?? 0 };
}

export const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
