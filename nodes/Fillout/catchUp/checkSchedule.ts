import type { ITriggerFunctions, ITriggerResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { formIdForTrigger } from '../shared/parameters';
import { processMemory, triggerKey } from '../shared/processMemory';
import { getFormMetadata } from '../transport';
import { ServiceClock } from '../pollingTrigger/serviceClock';
import { newSecret } from '../webhookTrigger/secret';
import { startRecord } from './catchUpRecord';
import { knock } from './knock';
import { catchUpSettingsOf } from './parameters';
import { currentRecord, saveRecord } from './recordAccess';
import { MIN_CHECK_GAP_MS } from './answerKnock';
import { secondOf } from './scheduleSecond';

/**
 * The trigger's part in n8n's main process (the leader in queue mode): it starts the
 * record and knocks at the trigger's own address on a schedule. It decides nothing.
 */

/** The first check after n8n starts: past the grace, so what was missed meanwhile is due. */
const FIRST_CHECK_AFTER_MS = 35_000;

const WAIT_STEP_MS = 1_000;

/** A record started by a restart, not a publish: any copy of a publish's record wins over it. */
const STAND_IN_STARTED_AT = 0;

/** A publish starts a new record: nothing made before it, or while unpublished, runs. */
const FRESH_START_MODES = new Set(['activate', 'create']);

export async function startCatchUp(ctx: ITriggerFunctions): Promise<ITriggerResponse | undefined> {
	const settings = catchUpSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	if (!settings.on || ctx.getMode() === 'manual') return undefined;
	processMemory.catchUpStopped.delete(triggerKey(ctx));
	await startRecordOnce(ctx);
	const checks = new CheckRunner(ctx);
	const second = secondOf(ctx.getNode().id ?? ctx.getNode().name);
	ctx.helpers.registerCron(
		{ expression: `${second} */${settings.minutes} * * * *` },
		async () => await checks.run(),
	);
	void checks.runAfter(FIRST_CHECK_AFTER_MS);
	return { closeFunction: async () => checks.stop() };
}

/** Keeps the record of an earlier start; a publish (or a new form) starts a new one. */
async function startRecordOnce(ctx: ITriggerFunctions): Promise<void> {
	const formId = formIdForTrigger(ctx);
	const data = ctx.getWorkflowStaticData('node');
	const earlier = currentRecord(ctx, data, formId);
	const publish = FRESH_START_MODES.has(ctx.getActivationMode());
	if (earlier !== undefined && !publish) return;
	// From Fillout's present, not n8n's: n8n's clock ahead would skip the first submissions.
	const clock = new ServiceClock();
	let formName: string | null = null;
	try {
		const form = await getFormMetadata(ctx, formId, undefined, clock.observe);
		formName = typeof form.name === 'string' ? form.name : null;
	} catch (error) {
		ctx.logger.warn(
			`Fillout Trigger: could not read form ${formId} to start catching up (${(error as Error).message}); starting from n8n's clock`,
			{ workflowId: ctx.getWorkflow().id },
		);
	}
	const record = startRecord(formId, formName, clock.presentMs(Date.now()), newSecret());
	// A restart whose static data lost the record (a worker's save): a copy a webhook process
	// still holds must win over this one (mergeRecords), or what it has not run would count as run.
	saveRecord(ctx, data, publish ? record : { ...record, startedAt: STAND_IN_STARTED_AT });
}

/** Runs one check at a time, and checks again at once while the last one had more. */
class CheckRunner {
	private running?: Promise<void>;

	private stopped = false;

	/** Whether the last knock failed: a failure is logged as a warning once, until one works. */
	private failing = false;

	constructor(private readonly ctx: ITriggerFunctions) {}

	stop(): void {
		this.stopped = true;
		processMemory.catchUpStopped.add(triggerKey(this.ctx));
	}

	/** Resolves when the checks it started (or the ones running) are done. */
	async run(): Promise<void> {
		if (this.stopped) return;
		this.running ??= this.checkUntilDone().finally(() => (this.running = undefined));
		await this.running;
	}

	/** Waits in steps of a second, so that a stop ends the wait at once (no timer outlives it). */
	async runAfter(ms: number): Promise<void> {
		for (let waited = 0; waited < ms && !this.stopped; waited += WAIT_STEP_MS) {
			await sleep(WAIT_STEP_MS);
		}
		await this.run();
	}

	private async checkUntilDone(): Promise<void> {
		for (let more = true; more && !this.stopped; ) {
			try {
				more = (await knock(this.ctx))?.more === true;
				this.failing = false;
			} catch (error) {
				this.warn(error);
				return;
			}
			if (more) await sleep(MIN_CHECK_GAP_MS);
		}
	}

	private warn(error: unknown): void {
		const why = error instanceof NodeOperationError ? error.message : 'an unexpected error';
		const log = this.failing ? this.ctx.logger.debug : this.ctx.logger.warn;
		this.failing = true;
		log.call(
			this.ctx.logger,
			`Fillout Trigger: could not check for missed submissions: the trigger's own address did not answer the check (${why}). Checks run where deliveries arrive, so n8n must reach its own webhook address; missed submissions wait until a check gets through.`,
			{ workflowId: this.ctx.getWorkflow().id },
		);
	}
}
