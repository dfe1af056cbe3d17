import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { FILES_KEY, fileSettingsOf, itemsWithFiles } from '../downloadFiles';
import { processMemory, rememberedRecord, triggerKey } from '../shared/processMemory';
import { submissionItem } from '../shared/submissionItem';
import { submissionMs } from '../pollingTrigger/pollState';
import { removeRecordedWebhook, replaceWebhook } from '../webhookTrigger/lifecycle';
import { signRecord, withSignedRecord } from '../webhookTrigger/signedRecord';
import type { WebhookRecord } from '../webhookTrigger/webhookRecord';
import { carriedCatchUp, withCarriedCatchUp } from './carriedRecord';
import { checkForMissed, type CheckOutcome } from './check';
import type { KnockAnswer } from './knock';
import { catchUpSettingsOf } from './parameters';
import { currentRecord, saveRecord } from './recordAccess';

/** Knocks closer together than this (a hostile caller's) run no check. */
export const MIN_CHECK_GAP_MS = 5_000;

const NO_CHECK: KnockAnswer = { checked: false, missed: 0, more: false };

/** True when a check may start now; notes its start. */
function startCheck(ctx: IWebhookFunctions, nowMs: number): boolean {
	const key = triggerKey(ctx);
	const last = processMemory.catchUpChecks.get(key);
	if (last !== undefined && nowMs - last < MIN_CHECK_GAP_MS && nowMs >= last) return false;
	processMemory.catchUpChecks.set(key, nowMs);
	return true;
}

/**
 * A knock at the trigger's address: checks for missed submissions and runs them in one
 * execution, then registers the webhook again, since Fillout did not deliver them.
 */
export async function answerKnock(
	ctx: IWebhookFunctions,
	auth: { slot: string; formId: string; record?: WebhookRecord },
): Promise<IWebhookResponseData> {
	const res = ctx.getResponseObject();
	const settings = catchUpSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	const checks = auth.slot === 'production' && settings.on && ctx.getMode() !== 'manual';
	const outcome =
		checks && startCheck(ctx, Date.now()) ? await checkOrWarn(ctx, auth.formId) : undefined;
	if (outcome === undefined || outcome.missed.length === 0) {
		res
			.status(200)
			.json(outcome === undefined ? NO_CHECK : { ...NO_CHECK, checked: true, more: outcome.more });
		return { noWebhookResponse: true };
	}
	let items: INodeExecutionData[] = [];
	let built = false;
	try {
		items = await missedItems(ctx, auth, outcome);
		built = true;
	} finally {
		if (!built) undoCheck(ctx, auth.formId, outcome);
	}
	if (missedWhileRegistered(ctx, outcome, auth.record)) await registerAgain(ctx);
	const signed = await signRecord(
		ctx,
		'production',
		rememberedRecord(ctx, 'production') ?? auth.record,
	).catch(() => undefined);
	const carried = await carriedCatchUp(ctx, 'production', auth.formId);
	res.status(200).json({ checked: true, missed: outcome.missed.length, more: outcome.more });
	const withRecord = signed === undefined ? items : withSignedRecord(items, signed);
	return { noWebhookResponse: true, workflowData: [withCarriedCatchUp(withRecord, carried)] };
}

/** A check that fails (Fillout refused, or is down) is logged here, where its cause is. */
async function checkOrWarn(
	ctx: IWebhookFunctions,
	formId: string,
): Promise<CheckOutcome | undefined> {
	try {
		return await checkForMissed(ctx, formId);
	} catch (error) {
		ctx.logger.warn(
			`Fillout Trigger: a check for missed submissions of form ${formId} failed: ${(error as Error).message}. The next check reads the same again.`,
			{ workflowId: ctx.getWorkflow().id },
		);
		return undefined;
	}
}

/** The items of the missed submissions, as a delivery's (with their files when asked). */
async function missedItems(
	ctx: IWebhookFunctions,
	auth: { formId: string },
	outcome: CheckOutcome,
): Promise<INodeExecutionData[]> {
	const simplify = ctx.getNodeParameter('simplify', true) as boolean;
	const files = fileSettingsOf((name, fallback) => ctx.getNodeParameter(name, fallback));
	const form = { formId: auth.formId, formName: outcome.formName };
	const jsons: IDataObject[] = outcome.missed.map((submission) =>
		submissionItem(submission, form, simplify, {}, files ? [FILES_KEY] : []),
	);
	if (!files) return jsons.map((json) => ({ json }));
	return await itemsWithFiles(ctx, outcome.missed, jsons, files, { onFailure: 'record' });
}

/** A check whose execution cannot start leaves its submissions for the next one. */
function undoCheck(ctx: IWebhookFunctions, formId: string, outcome: CheckOutcome): void {
	const data = ctx.getWorkflowStaticData('node');
	const record = currentRecord(ctx, data, formId);
	if (record === undefined) return;
	const seen = { ...record.seen };
	for (const submission of outcome.missed) delete seen[submission.submissionId];
	const { before } = outcome;
	saveRecord(ctx, data, {
		...record,
		seen,
		windowStartMs: Math.min(record.windowStartMs, before.windowStartMs),
		newestMs: Math.min(record.newestMs, before.newestMs),
	});
}

/**
 * Whether the webhook missed one made while it was registered: only then can a new one
 * help (a backlog older than the webhook, read over several checks, replaces it once).
 */
function missedWhileRegistered(
	ctx: IWebhookFunctions,
	outcome: CheckOutcome,
	authRecord: WebhookRecord | undefined,
): boolean {
	const record = rememberedRecord(ctx, 'production') ?? authRecord;
	const registeredMs = Date.parse(record?.createdAt ?? '');
	if (!Number.isFinite(registeredMs)) return true;
	return outcome.missed.some((submission) => submissionMs(submission, Infinity) >= registeredMs);
}

/**
 * Fillout missed some: a fresh registration makes the next submission instant again.
 * A failure is logged, not thrown: the missed submissions run either way, and the next
 * check that finds some tries again.
 */
async function registerAgain(ctx: IWebhookFunctions): Promise<void> {
	const stopped = () => processMemory.catchUpStopped.has(triggerKey(ctx));
	if (stopped()) return;
	try {
		const record = await replaceWebhook(ctx);
		// n8n removed the webhook while this one was registered: it goes too.
		if (stopped()) {
			await removeRecordedWebhook(ctx);
			return;
		}
		ctx.logger.info(
			`Fillout Trigger: Fillout did not deliver some submissions of form ${record.formId}; registered webhook ${record.webhookId} in place of the old one`,
			{ workflowId: ctx.getWorkflow().id, webhookId: record.webhookId },
		);
	} catch (error) {
		ctx.logger.warn(
			`Fillout Trigger: could not register the webhook again after missed submissions: ${(error as Error).message}`,
			{ workflowId: ctx.getWorkflow().id },
		);
	}
}
