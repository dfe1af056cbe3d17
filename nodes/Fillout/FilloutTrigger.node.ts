import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	authenticationParameter,
	filloutCredentials,
	formLocator,
	simplifyOption,
} from './shared/descriptions';
import { listSearch } from './methods';
import { answerKnock } from './catchUp/answerKnock';
import {
	CARRIED_CATCH_UP_KEY,
	carriedCatchUp,
	restoreCarriedCatchUp,
	withCarriedCatchUp,
} from './catchUp/carriedRecord';
import { startCatchUp } from './catchUp/checkSchedule';
import { isKnock } from './catchUp/knock';
import { catchUpParameters } from './catchUp/parameters';
import { firstRunOfDelivery } from './catchUp/recordAccess';
import { downloadFilesParameters, FILES_KEY, fileSettingsOf } from './downloadFiles';
import { processMemory, rememberRecord, triggerKey } from './shared/processMemory';
import { submissionItem } from './shared/submissionItem';
import { readDelivery } from './webhookTrigger/delivery';
import { authenticateDelivery } from './webhookTrigger/deliveryAuth';
import { startWithFiles } from './webhookTrigger/filesDelivery';
import {
	currentSlot,
	recordedFits,
	removeRecordedWebhook,
	replaceWebhook,
} from './webhookTrigger/lifecycle';
import { keepUnrecordedRegistration, reportUnremovable } from './webhookTrigger/lostRecord';
import { logRefusedDelivery } from './webhookTrigger/refusedDelivery';
import {
	restoreSignedRecord,
	signRecord,
	takeItemKey,
	takeSignedRecord,
	withSignedRecord,
} from './webhookTrigger/signedRecord';

export class FilloutTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fillout Trigger',
		name: 'filloutTrigger',
		icon: {
			light: 'file:../../icons/fillout.svg',
			dark: 'file:../../icons/fillout.dark.svg',
		},
		group: ['trigger'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{"New submission: " + ($parameter["form"].cachedResultName || $parameter["form"].value)}}',
		description: 'Starts the workflow when a Fillout form receives a submission',
		defaults: { name: 'Fillout Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: filloutCredentials,
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			authenticationParameter,
			{
				...formLocator,
				description: 'The form whose new submissions start the workflow',
			},
			...catchUpParameters,
			simplifyOption,
			...downloadFilesParameters,
		],
	};

	methods = { listSearch };

	webhookMethods = {
		default: {
			/**
			 * Keeps a recorded webhook that still fits, without a request; otherwise removes it
			 * so `create` registers a fresh one (Fillout cannot list webhooks, see lifecycle.ts).
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = currentSlot(this);
				if (state.record === undefined) return await keepUnrecordedRegistration(this, state);
				if (await recordedFits(this, state)) {
					rememberRecord(this, state.slot, state.record);
					return true;
				}
				await removeRecordedWebhook(this);
				return false;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				// n8n asks checkExists first; dropping again keeps the guarantee if it did not.
				await replaceWebhook(this);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				// A catch-up check still running here must not register a webhook after this.
				if (this.getMode() !== 'manual') processMemory.catchUpStopped.add(triggerKey(this));
				const state = currentSlot(this);
				if (state.record === undefined) reportUnremovable(this, state);
				else await removeRecordedWebhook(this);
				return true;
			},
		},
	};

	/** Catch-up: checks for submissions the webhook missed, on a schedule (catchUp/). */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse | undefined> {
		return await startCatchUp(this);
	}

	/** Runs first in each execution the trigger starts (on a queue-mode worker too). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { items: unsigned, signed } = takeSignedRecord(this.getInputData());
		const { items, value: carried } = takeItemKey(unsigned, CARRIED_CATCH_UP_KEY);
		if (signed !== undefined) await restoreSignedRecord(this, signed);
		if (carried !== undefined) await restoreCarriedCatchUp(this, carried);
		return [items];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		const auth = await authenticateDelivery(this);
		if (!auth.ok) {
			logRefusedDelivery(this, auth.slot, auth.presented);
			res.status(401).json({ message: 'Unauthorized: missing or wrong secret' });
			return { noWebhookResponse: true };
		}

		if (isKnock(this)) return await answerKnock(this, auth);
		const delivery = readDelivery(this);
		if (!delivery.ok) {
			res.status(400).json({ message: delivery.reason });
			return { noWebhookResponse: true };
		}

		const { slot, formId, record } = auth;
		const { submission } = delivery;
		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const files = fileSettingsOf((name, fallback) => this.getNodeParameter(name, fallback));
		// The form is the one the secret was issued for, whatever the body says.
		const item = submissionItem(
			submission,
			{ formId, formName: delivery.formName ?? record?.formName ?? null },
			simplify,
			{},
			files ? [FILES_KEY] : [],
		);
		// The signed record rides along so that a queue-mode worker writes it back.
		const signed = await signRecord(this, slot, record);

		// Marked only now that nothing before the execution can fail: a 500 is resent.
		// A second registration for this address delivers the same submission again.
		if (!firstRunOfDelivery(this, slot, formId, submission.submissionId)) {
			res
				.status(200)
				.json({ message: 'Already received: this submission started the workflow once' });
			return { noWebhookResponse: true };
		}
		// The catch-up record rides too, with this delivery's mark.
		const carried = await carriedCatchUp(this, slot, formId);
		const withRecord = (items: INodeExecutionData[]) =>
			withCarriedCatchUp(signed === undefined ? items : withSignedRecord(items, signed), carried);
		if (!files) {
			// Answered here: n8n 2.x saves the delivery's mark only when answered before the run.
			res.status(200).json({ message: 'Workflow was started' });
			// Never returnJsonArray: it lifts the keys of an object holding `json` onto the item.
			return { noWebhookResponse: true, workflowData: [withRecord([{ json: item }])] };
		}
		return await startWithFiles(this, { slot, formId, submission, item }, files, withRecord);
	}
}
