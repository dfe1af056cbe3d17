/**
 * Runs a workflow manually and times it by n8n's own execution record: `startedAt`
 * and `stoppedAt` of the execution (the workflow's run, from its first node's start
 * to its last node's end), as n8n stores them. Waiting polls the execution list, not
 * the execution itself, so that a large result is not read out of n8n while memory
 * is being sampled.
 */
import {
	waitFor,
	type ExecutionSummary,
	type N8nClient,
	type WorkflowDefinition,
} from '../test/e2e/support';
import { EXECUTION_PAGE_SIZE, readAllExecutions } from './executionPages';

export interface TimedRun {
	workflowId: string;
	executionId: string;
	status: string;
	startedAt: string;
	stoppedAt: string;
	/** stoppedAt - startedAt, from n8n's execution record */
	wallMs: number;
	/** From the run request to seeing the execution ended, on the benchmark's clock. */
	clientMs: number;
}

/** n8n lists the execution as ended (its stoppedAt set). */
export const hasEnded = (summary: ExecutionSummary) =>
	!['new', 'running', 'waiting'].includes(summary.status) && summary.stoppedAt !== undefined;

export async function runTimed(
	client: N8nClient,
	workflow: WorkflowDefinition,
	timeoutMs = 600_000,
): Promise<TimedRun> {
	const created = await client.createWorkflow(workflow);
	const began = Date.now();
	const executionId = await client.runWorkflow(created.id);
	const summary = await waitForEnd(client, created.id, executionId, workflow.name, timeoutMs);
	return timedOf(summary, created.id, Date.now() - began);
}

/** Waits, polling the execution list every 100 ms, until n8n lists the execution as ended. */
export async function waitForEnd(
	client: N8nClient,
	workflowId: string,
	executionId: string,
	workflowName: string,
	timeoutMs = 600_000,
): Promise<ExecutionSummary> {
	return await waitFor(
		async () =>
			(await client.listExecutions({ workflowId })).find(
				(candidate) => String(candidate.id) === String(executionId) && hasEnded(candidate),
			),
		{
			timeoutMs,
			intervalMs: 100,
			description: `execution ${executionId} of "${workflowName}"`,
		},
	);
}

/** The run's figures from n8n's record of the ended execution. */
export function timedOf(summary: ExecutionSummary, workflowId: string, clientMs: number): TimedRun {
	const startedAt = summary.startedAt ?? summary.createdAt;
	const stoppedAt = summary.stoppedAt as string;
	return {
		workflowId,
		executionId: String(summary.id),
		status: summary.status,
		startedAt,
		stoppedAt,
		wallMs: Date.parse(stoppedAt) - Date.parse(startedAt),
		clientMs,
	};
}

/** Every execution of a workflow, read in pages of 100 (executionPages.ts says why not n8n's cursor). */
export async function listAllExecutions(
	client: N8nClient,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	return await readAllExecutions(async (startedBefore) => {
		const query = new URLSearchParams({
			filter: JSON.stringify({ workflowId, ...(startedBefore ? { startedBefore } : {}) }),
			limit: String(EXECUTION_PAGE_SIZE),
		});
		const answer = await client.rest<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?${query}`,
		);
		return answer.results;
	});
}

/** Runs `task` over `inputs` with at most `concurrency` at a time; results in input order. */
export async function mapConcurrent<T, R>(
	inputs: readonly T[],
	concurrency: number,
	task: (input: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(inputs.length);
	let next = 0;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
	return results;
}
