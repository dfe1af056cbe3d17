import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describeFailure } from '../transport/errorMessages';
import type { FormMetadata } from '../shared/interfaces';
import { filloutError } from '../shared/nodeErrors';
import { formIdForTrigger } from '../shared/parameters';
import { forgetRecord, rememberRecord } from '../shared/processMemory';
import { filloutRequest, resolveApiRoot, sendFilloutRequest } from '../transport';
import { cacheDerivedKeys, derivationOf, readDerivedKeys } from './derivedKeys';
import { restoreLostRecords } from './lostRecord';
import { isOwnRecord, warnNotOwn } from './ownership';
import { isFilloutCloud, unreachableReason } from './reachability';
import { removeWebhook } from './removal';
import { addressWithSecret, newSecret } from './secret';
import type { LifecycleContext, Slot, WebhookRecord } from './webhookRecord';
import {
	clearRecordLoss,
	createdWebhookId,
	ownerOf,
	readRecord,
	registrationFits,
	slotFor,
} from './webhookRecord';

/**
 * The webhook's lifecycle (n8n's checkExists, create, delete). Fillout cannot list
 * webhooks, so the slot's record is all the trigger knows: exactly one live webhook per
 * active trigger. lostRecord.ts decides what happens when the record is gone.
 */

/** The node's slot in static data, what it holds, and the whole node object. */
export interface SlotState {
	data: IDataObject;
	slot: Slot;
	record?: WebhookRecord;
}

/** The slot, after writing back any record this process remembers and static data lost. */
export function currentSlot(ctx: LifecycleContext): SlotState {
	const data = ctx.getWorkflowStaticData('node');
	restoreLostRecords(ctx, data);
	const slot = slotFor(ctx.getMode(), ctx.getNodeWebhookUrl('default'), data);
	return { data, slot, record: readRecord(data[slot]) };
}

/**
 * Whether the slot's webhook fits the node as it is now (form, n8n address, API root, and
 * the derived secret), asking Fillout nothing, so a restart does not depend on Fillout.
 */
export async function recordedFits(ctx: IHookFunctions, state: SlotState): Promise<boolean> {
	const { record, slot } = state;
	if (record === undefined) return false;
	const formId = formIdForTrigger(ctx);
	const wanted = {
		formId,
		url: ctx.getNodeWebhookUrl('default'),
		apiRoot: await resolveApiRoot(ctx),
	};
	if (!registrationFits(record, wanted)) return false;
	const keys = await readDerivedKeys(ctx, slot, formId);
	if (keys === undefined || derivationOf(keys, record.secret) !== undefined) return true;
	ctx.logger.info(
		`Fillout Trigger: webhook ${record.webhookId} carries a secret not derived from the current credential for this workflow and node (registered by an earlier version of this node, the API key or client secret changed, or the record was copied from another workflow); a webhook that can be verified without static data replaces it.`,
		{ webhookId: record.webhookId, formId },
	);
	return false;
}

/**
 * Removes the webhook this slot recorded (if Fillout still has it and it is this trigger's)
 * and empties the slot. A failure that may pass throws before the slot is emptied, so the
 * next activation retries.
 */
export async function removeRecordedWebhook(ctx: LifecycleContext): Promise<SlotState> {
	const state = currentSlot(ctx);
	const { record } = state;
	if (record !== undefined) {
		if (await isOwnRecord(ctx, state.slot, record)) await removeWebhook(ctx, record);
		else warnNotOwn(ctx, record);
	}
	delete state.data[state.slot];
	forgetRecord(ctx, state.slot);
	return { data: state.data, slot: state.slot };
}

/**
 * Removes the recorded webhook (when it is this trigger's) and registers a fresh one: n8n's
 * create, and a catch-up check that found Fillout stopped delivering.
 */
export async function replaceWebhook(ctx: LifecycleContext): Promise<WebhookRecord> {
	const { data, slot } = await removeRecordedWebhook(ctx);
	const record = await registerWebhook(ctx, slot);
	data[slot] = { ...record };
	clearRecordLoss(data, slot);
	rememberRecord(ctx, slot, record);
	return record;
}

/** Refuses a webhook address that Fillout's cloud could never call. */
export function assertReachable(ctx: LifecycleContext, apiRoot: string, webhookUrl: string): void {
	if (!isFilloutCloud(apiRoot)) return;
	const reason = unreachableReason(webhookUrl);
	if (reason === undefined) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`Fillout cannot reach n8n's webhook address ${webhookUrl}: it is ${reason}, not an address on the internet`,
		{
			description:
				'Fillout’s servers deliver each submission to this address, so it must be reachable from the internet. Set n8n’s public address with the WEBHOOK_URL environment variable (for example WEBHOOK_URL=https://n8n.example.com/) and restart n8n; behind a tunnel or reverse proxy, use the public address it gives you. If this n8n cannot have a public address (a laptop, a home lab, behind a firewall), use the Fillout Polling Trigger instead: it asks Fillout for new submissions on a schedule and needs no incoming connection.',
		},
	);
}

/** The form's name for bare deliveries; a failure here only costs the name. */
async function formNameOf(ctx: LifecycleContext, formId: string): Promise<string | undefined> {
	const outcome = await sendFilloutRequest<FormMetadata>(ctx, {
		method: 'GET',
		path: `/forms/${encodeURIComponent(formId)}`,
		context: { formId },
	});
	if (outcome.ok) return typeof outcome.body?.name === 'string' ? outcome.body.name : undefined;
	const described = describeFailure(outcome.failure, { formId });
	if (described.kind === 'notFound' || described.kind === 'credentials') {
		// Registering would fail the same way: say it about the form.
		throw filloutError(ctx, outcome, { formId });
	}
	ctx.logger.warn(
		`Fillout Trigger: could not read the name of form ${formId}: ${described.message}`,
		{ formId },
	);
	return undefined;
}

/** The derived secret for the slot, or a random one (kept only in static data) with a warning. */
async function secretToRegister(
	ctx: LifecycleContext,
	slot: Slot,
	formId: string,
): Promise<string> {
	const derived = await readDerivedKeys(ctx, slot, formId);
	if (derived !== undefined) {
		cacheDerivedKeys(ctx, slot, formId, derived);
		return derived.secret;
	}
	ctx.logger.warn(
		'Fillout Trigger: the credential has no stable secret (API key or OAuth2 client secret) to derive the webhook secret from; a random one is used, so deliveries can only be verified while the workflow keeps its static data.',
		{ formId },
	);
	return newSecret();
}

/** Registers the node's webhook address, with the slot's secret, for the chosen form. */
export async function registerWebhook(ctx: LifecycleContext, slot: Slot): Promise<WebhookRecord> {
	const webhookUrl = ctx.getNodeWebhookUrl('default');
	if (webhookUrl === undefined) {
		throw new NodeOperationError(ctx.getNode(), 'n8n gave the trigger no webhook address');
	}
	const formId = formIdForTrigger(ctx);
	const apiRoot = await resolveApiRoot(ctx);
	assertReachable(ctx, apiRoot, webhookUrl);
	const formName = await formNameOf(ctx, formId);
	const secret = await secretToRegister(ctx, slot, formId);
	const answer = await filloutRequest<IDataObject>(ctx, {
		method: 'POST',
		path: '/webhook/create',
		body: { formId, url: addressWithSecret(webhookUrl, secret) },
		context: { formId },
	});
	const webhookId = createdWebhookId(answer);
	if (webhookId === undefined) {
		throw new NodeApiError(
			ctx.getNode(),
			{ message: 'Fillout answered without a webhook id' },
			{
				message: 'Fillout answered the webhook registration without a webhook id',
				description:
					'The webhook may exist at Fillout without n8n knowing it. Check the form’s integrations in Fillout.',
			},
		);
	}
	return {
		webhookId,
		formId,
		...(formName === undefined ? {} : { formName }),
		url: webhookUrl,
		secret,
		apiRoot,
		createdAt: new Date().toISOString(),
		...ownerOf(ctx),
	};
}
