/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: n8n's poll timeout needs a timer */
/**
 * Drives a polling trigger node the way n8n does (n8n 2.41.1: the active-workflow
 * manager, n8n-core's poll-trigger executor), through n8n-core's real `PollContext`.
 *
 * It keeps n8n's two copies of the workflow's static data apart:
 * - `live`: the active workflow object in the main process's memory. Every poll of one
 *   activation sees the same object, so a cursor moved in a poll that emitted nothing is
 *   still there for the next poll.
 * - `saved`: what the database holds. n8n writes it after the activation (its first poll
 *   included) and after each poll that emits; never after a poll that returns nothing,
 *   and never in manual mode ("Fetch Test Event").
 * `restart()` drops the live workflow, as a restart of n8n does; the next `activate()`
 * (activation mode 'init') starts from `saved`.
 *
 * With `pollBudgetMs` a scheduled poll runs as n8n 2.41's durable scheduler runs it
 * (n8n's `PollTriggerTaskHandler`): on a copy of the node's static data, kept only when
 * the poll ends in time; one still running at n8n's poll timeout is abandoned: n8n
 * returns, emits nothing and keeps nothing of it, while the poll itself runs on
 * (`settle()` waits for it). The timeout is the one n8n derives that budget from.
 */
import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INodeExecutionData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { deepCopy, UnexpectedError } from 'n8n-workflow';

import {
	type HarnessBaseOptions,
	type SingleNodeWorkflow,
	credentialsHelperFor,
	plainStaticData,
	singleNodeWorkflow,
} from './setup';
import type { HarnessCredentialsHelper } from './credentials';

export interface PollHarnessOptions extends HarnessBaseOptions {
	/** Static data the database holds at the start. */
	staticData?: IDataObject;
	/**
	 * What `getPollBudgetMs()` answers (n8n 2.41's durable scheduler gives each poll a
	 * budget); left out, n8n-core's own default.
	 */
	pollBudgetMs?: number;
}

/**
 * n8n's poll timeout for a budget: n8n 2.41 gives a poll `ceiling - margin`, where the
 * ceiling is N8N_SCHEDULER_POLL_TIMEOUT (when below the lease) and the margin
 * `min(max(20 % of it, 5 s), half of it)`; this inverts that.
 */
export function pollTimeoutForBudget(budgetMs: number): number {
	if (budgetMs <= 5_000) return 2 * budgetMs;
	if (budgetMs <= 20_000) return budgetMs + 5_000;
	return budgetMs / 0.8;
}

export interface PollResult {
	/** The items emitted (output 0), or null when the poll returned nothing. */
	items: INodeExecutionData[] | null;
	/** The poll's error (n8n: a failed activation, or a failed trigger execution). */
	error?: Error;
	/** n8n gave up on the poll at its timeout: nothing emitted, nothing kept. */
	abandoned?: true;
}

const ABANDONED = Symbol('abandoned');

let harnesses = 0;

export class PollHarness {
	/** Static data as n8n last saved it to the database. */
	saved: IDataObject;

	readonly credentialsHelper: HarnessCredentialsHelper;

	private live?: SingleNodeWorkflow;

	/** Polls n8n abandoned that are still running. */
	private readonly runningOn: Array<Promise<unknown>> = [];

	/** A node id of its own, as each saved node has: in-process state is keyed by it. */
	private readonly nodeId = `poll-under-test-${++harnesses}`;

	constructor(private readonly options: PollHarnessOptions) {
		this.credentialsHelper = credentialsHelperFor(options);
		this.saved = deepCopy(options.staticData ?? {});
	}

	/** The live workflow's static data (what the next poll of this activation sees). */
	get liveStaticData(): IDataObject | undefined {
		return this.live === undefined ? undefined : plainStaticData(this.live.workflow);
	}

	get active(): boolean {
		return this.live !== undefined;
	}

	/**
	 * Activation: loads the saved static data, polls once (a failure fails the activation
	 * and leaves the workflow inactive), then saves static data, as n8n does.
	 */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<PollResult> {
		const live = this.build('trigger', this.saved);
		const result = await this.run(live, 'trigger', activation);
		if (result.error) return result;
		this.live = live;
		this.saved = plainStaticData(live.workflow);
		return result;
	}

	/** A scheduled poll of the active workflow (abandoned past n8n's timeout, see above). */
	async poll(activation: WorkflowActivateMode = 'activate'): Promise<PollResult> {
		if (this.live === undefined) throw new UnexpectedError('The workflow is not active');
		const budgetMs = this.options.pollBudgetMs;
		const result = await this.run(this.live, 'trigger', activation, {
			abandonAfterMs: budgetMs === undefined ? undefined : pollTimeoutForBudget(budgetMs),
		});
		if (result.items !== null) this.saved = plainStaticData(this.live.workflow);
		return result;
	}

	/** Waits until every poll n8n abandoned has ended (its late side effects are then done). */
	async settle(): Promise<void> {
		while (this.runningOn.length > 0) await this.runningOn.shift();
	}

	/**
	 * The stored cursor goes missing, in memory and in the database: what a worker saving
	 * over the static data does, or n8n 2.41 not storing a publish poll that emitted nothing.
	 */
	dropStoredStaticData(): void {
		this.saved = {};
		if (this.live !== undefined) this.live.workflow.staticData = {};
	}

	/** "Fetch Test Event" in the editor: a separate manual run; nothing is saved. */
	async fetchTestEvent(): Promise<PollResult> {
		return await this.run(this.build('manual', this.saved), 'manual', 'manual');
	}

	/** n8n stops (or deactivates): the in-memory workflow is gone, the database stays. */
	restart(): void {
		this.live = undefined;
	}

	private build(mode: WorkflowExecuteMode, staticData: IDataObject): SingleNodeWorkflow {
		return singleNodeWorkflow(this.options, {
			id: this.nodeId,
			mode,
			staticData,
			active: mode === 'trigger',
			credentialsHelper: this.credentialsHelper,
		});
	}

	private async run(
		setup: SingleNodeWorkflow,
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		{ abandonAfterMs }: { abandonAfterMs?: number } = {},
	): Promise<PollResult> {
		const poll = setup.nodeType.poll;
		if (poll === undefined) throw new UnexpectedError('The node is not a polling trigger');
		// The scheduler's poll works on a copy, stored only when the poll ends in time.
		const staged =
			abandonAfterMs === undefined
				? undefined
				: (deepCopy(setup.workflow.getStaticData('node', setup.node)) as IDataObject);
		const context = new PollContext(
			setup.workflow,
			setup.node,
			setup.additionalData,
			mode,
			activation,
			() => undefined,
			() => undefined,
			undefined,
			undefined,
			staged === undefined ? undefined : () => staged,
			this.options.pollBudgetMs === undefined ? undefined : () => this.options.pollBudgetMs!,
		);
		const running = (async (): Promise<PollResult> => {
			try {
				const output = await poll.call(context);
				return { items: output === null ? null : (output[0] ?? []) };
			} catch (error) {
				return { items: null, error: error as Error };
			}
		})();
		const outcome =
			abandonAfterMs === undefined ? await running : await raceTimeout(running, abandonAfterMs);
		if (outcome === ABANDONED) {
			this.runningOn.push(running);
			return { items: null, abandoned: true };
		}
		if (staged !== undefined && outcome.error === undefined) {
			const stored = setup.workflow.getStaticData('node', setup.node);
			for (const key of Object.keys(stored)) delete stored[key];
			Object.assign(stored, staged);
		}
		return outcome;
	}
}

async function raceTimeout<T>(running: Promise<T>, ms: number): Promise<T | typeof ABANDONED> {
	let timer: NodeJS.Timeout | undefined;
	const timedOut = new Promise<typeof ABANDONED>((resolve) => {
		timer = setTimeout(() => resolve(ABANDONED), ms);
	});
	try {
		return await Promise.race([running, timedOut]);
	} finally {
		clearTimeout(timer);
	}
}

export function createPollHarness(options: PollHarnessOptions): PollHarness {
	return new PollHarness(options);
}
