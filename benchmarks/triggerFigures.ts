/**
 * The trigger scenario's figures from what was observed: each measured submission, the
 * executions that carry it, and when its delivery started. Pure, so that the counting is
 * tested: a submission no execution carries is lost, one that two carry ran twice.
 */
import type { ExecutionSummary, RespondResult } from '../test/e2e/support';
import type { TriggerFigures } from './context';
import { median, percentile } from './stats';

export interface TriggerObservations {
	/** The measured respondents, each with its submission and deliveries. */
	results: readonly RespondResult[];
	/** The receiver's ended executions, each with the submission it carries (undefined: unreadable). */
	executions: ReadonlyArray<{ summary: ExecutionSummary; submissionId?: string }>;
	/** The receiver's webhook at the sandbox. */
	webhookId: number;
	/** When a submission's delivery started, and whether the sandbox recorded it (else our clock). */
	deliveryStart(submissionId: string): { at: number; bySandbox: boolean } | undefined;
}

const succeeded = (summary: ExecutionSummary) =>
	summary.status === 'success' && summary.stoppedAt !== undefined;

export function triggerFigures(observed: TriggerObservations): TriggerFigures {
	// Executions by the measured submission they carry (warm-ups and unreadable ones left out).
	const runs = new Map<string, ExecutionSummary[]>(
		observed.results.map((result) => [result.submission.submissionId, []]),
	);
	for (const { summary, submissionId } of observed.executions) {
		if (submissionId !== undefined) runs.get(submissionId)?.push(summary);
	}

	let deliveryFailures = 0;
	let missing = 0;
	let duplicated = 0;
	let timedBySandbox = 0;
	const latencies: number[] = [];
	let firstStart = Infinity;
	let lastStop = -Infinity;
	for (const result of observed.results) {
		const submissionId = result.submission.submissionId;
		const delivery = result.deliveries.find((entry) => entry.webhookId === observed.webhookId);
		if (!delivery || delivery.statusCode !== 200) deliveryFailures++;
		const carried = runs.get(submissionId) ?? [];
		if (carried.length > 1) duplicated++;
		const stops = carried.filter(succeeded).map((summary) => Date.parse(summary.stoppedAt ?? ''));
		if (stops.length === 0) {
			missing++;
			continue;
		}
		lastStop = Math.max(lastStop, ...stops);
		const start = observed.deliveryStart(submissionId);
		if (start === undefined) continue;
		firstStart = Math.min(firstStart, start.at);
		if (start.bySandbox) timedBySandbox++;
		latencies.push(Math.min(...stops) - start.at);
	}
	const all = [...runs.values()].flat();
	return {
		deliveries: observed.results.length,
		deliveryFailures,
		executions: all.length,
		succeeded: all.filter(succeeded).length,
		missing,
		duplicated,
		medianMs: median(latencies),
		p99Ms: percentile(latencies, 99),
		maxMs: latencies.length ? Math.max(...latencies) : undefined,
		timedBySandbox,
		spanMs: lastStop > firstStart ? lastStop - firstStart : undefined,
	};
}
