import type { ExecutionSummary, RespondResult } from '../e2e/support';
import { triggerFigures } from '../../benchmarks/triggerFigures';

const WEBHOOK = 7;
const START = Date.parse('2026-01-01T10:00:00.000Z');

const respondent = (submissionId: string, statusCode = 200): RespondResult =>
	({
		submission: { submissionId },
		deliveries: [{ webhookId: WEBHOOK, url: 'x', shape: 'wrapped', statusCode, durationMs: 5 }],
	}) as unknown as RespondResult;

const execution = (
	submissionId: string | undefined,
	stoppedAfterMs: number,
	status = 'success',
) => ({
	submissionId,
	summary: {
		id: `${submissionId}-${stoppedAfterMs}`,
		workflowId: 'w',
		mode: 'webhook',
		status,
		createdAt: new Date(START).toISOString(),
		stoppedAt: new Date(START + stoppedAfterMs).toISOString(),
	} as ExecutionSummary,
});

const figuresFor = (executions: Array<ReturnType<typeof execution>>) =>
	triggerFigures({
		results: ['a', 'b', 'c'].map((id) => respondent(id)),
		executions,
		webhookId: WEBHOOK,
		deliveryStart: () => ({ at: START, bySandbox: true }),
	});

describe('trigger figures: one execution per submission', () => {
	it('each submission once: nothing lost, nothing twice', () => {
		const figures = figuresFor([execution('a', 100), execution('b', 200), execution('c', 300)]);
		expect(figures).toMatchObject({ executions: 3, succeeded: 3, missing: 0, duplicated: 0 });
		expect(figures.medianMs).toBe(200);
		expect(figures.spanMs).toBe(300);
	});

	it('a submission run twice shows (and its latency is its first execution’s)', () => {
		const figures = figuresFor([
			execution('a', 100),
			execution('b', 200),
			execution('b', 900),
			execution('c', 300),
		]);
		expect(figures).toMatchObject({ executions: 4, succeeded: 4, missing: 0, duplicated: 1 });
		expect(figures.maxMs).toBe(300);
		// The span runs to the last execution, the one run twice included.
		expect(figures.spanMs).toBe(900);
	});

	it('a lost or failed one is missing; warm-ups and unreadable executions do not count', () => {
		const figures = figuresFor([
			execution('a', 100),
			execution('b', 200, 'error'),
			execution('warm-up', 50),
			execution(undefined, 60),
		]);
		expect(figures).toMatchObject({ executions: 2, succeeded: 1, missing: 2, duplicated: 0 });
		expect(figures.timedBySandbox).toBe(1);
		expect(figures.spanMs).toBe(100);
	});
});
