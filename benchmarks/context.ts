/** What every scenario gets from the runner, and what it hands back. */
import type { E2eEnvironment, N8nClient, RunningN8n, SandboxControl } from '../test/e2e/support';
import type { MemorySummary } from './memory';

export interface BenchSizes {
	/** Submissions exported (issue 6: 10,000). */
	exportCount: number;
	/** Submissions imported (1,000). */
	importCount: number;
	/** Respondent submissions for the trigger (500). */
	triggerCount: number;
	/** Respondents submitting at once (20). */
	triggerConcurrency: number;
}

export interface BenchContext {
	env: E2eEnvironment;
	client: N8nClient;
	control: SandboxControl;
	sizes: BenchSizes;
	/** Latency the sandbox adds to every API request. */
	latencyMs: number;
	/** The n8n running now (it changes on restart). */
	n8n(): RunningN8n;
	/**
	 * Stops n8n and starts it again (same port, user folder and database); `whileDown` runs
	 * in between, while n8n's port answers nothing.
	 */
	restartN8n(whileDown?: () => Promise<void>): Promise<RunningN8n>;
	log(line: string): void;
}

export interface TriggerFigures {
	deliveries: number;
	deliveryFailures: number;
	executions: number;
	succeeded: number;
	/** Submissions delivered that have no successful execution. */
	missing: number;
	/** Submissions that more than one execution carries (each should start exactly one). */
	duplicated: number;
	medianMs?: number;
	p99Ms?: number;
	maxMs?: number;
	/** How many delivery start times came from the sandbox's record (the rest: our clock). */
	timedBySandbox: number;
	/**
	 * From the first measured delivery's start to the last successful execution's end:
	 * `succeeded / spanMs` is the executions per second n8n sustained.
	 */
	spanMs?: number;
}

export interface BenchRow {
	scenario: 'export' | 'import' | 'trigger' | 'poll';
	variant: string;
	/** The run succeeded and produced everything expected. */
	ok: boolean;
	status: string;
	items?: number;
	expectedItems?: number;
	requests?: number;
	/** Requests to the endpoint that moves the data (submissions list / create). */
	dataRequests?: number;
	rateLimited?: number;
	floorRequests?: number;
	floorMs?: number;
	/** Execution startedAt → stoppedAt */
	wallMs?: number;
	/** The data node's own run time (n8n's executionTime of that node). */
	nodeMs?: number;
	clientMs?: number;
	memory?: MemorySummary;
	trigger?: TriggerFigures;
	notes: string[];
}
