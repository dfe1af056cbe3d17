/**
 * Starts a trigger node's `trigger()` the way n8n activates it (n8n 2.41.1:
 * packages/cli/src/workflows/triggers/trigger-execution-context.factory.ts), through
 * n8n-core's real `TriggerContext`, beside the webhook methods a `TriggerHarness` runs.
 * Crons the node registers are collected, not scheduled: `tick()` runs them now.
 */
import { TriggerContext } from 'n8n-core';
import type {
	Cron,
	INodeExecutionData,
	ITriggerResponse,
	WorkflowActivateMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { plainStaticData } from './setup';
import type { TriggerHarness } from './webhooks';

export interface StartedTrigger {
	response: ITriggerResponse | undefined;
	/** What the node registered with `helpers.registerCron`. */
	crons: Cron[];
	/** What the node emitted (n8n would start an execution for each). */
	emitted: INodeExecutionData[][][];
	/** Runs every registered cron's tick now and waits for what it returns. */
	tick(): Promise<void>;
	/** n8n's deactivation of the trigger: its close function. */
	close(): Promise<void>;
}

export async function startTrigger(
	harness: TriggerHarness,
	activation: WorkflowActivateMode = 'activate',
): Promise<StartedTrigger> {
	const setup = harness.executionSetup('trigger');
	if (setup.nodeType.trigger === undefined) throw new UnexpectedError('the node has no trigger()');
	const crons: Cron[] = [];
	const ticks: Array<() => unknown> = [];
	const emitted: INodeExecutionData[][][] = [];
	const context = new TriggerContext(
		setup.workflow,
		setup.node,
		setup.additionalData,
		'trigger',
		activation,
		(data) => emitted.push(data),
		(error) => {
			throw error;
		},
		(error) => {
			throw error;
		},
		{
			registerCron: (cron, onTick) => {
				crons.push(cron);
				ticks.push(onTick as () => unknown);
			},
		},
	);
	const response = await setup.nodeType.trigger.call(context);
	// n8n saves static data once the workflow is active.
	harness.staticData = plainStaticData(setup.workflow);
	return {
		response,
		crons,
		emitted,
		tick: async () => {
			await Promise.all(ticks.map(async (onTick) => await onTick()));
		},
		close: async () => {
			await response?.closeFunction?.();
		},
	};
}
