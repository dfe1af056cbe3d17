import type {
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
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
import {
	downloadFilesParameters,
	FILES_KEY,
	fileSettingsOf,
	itemsWithFiles,
} from './downloadFiles';
import {
	keepCarriedRecord,
	recordToCarry,
	takeCarriedRecord,
	withCarriedRecord,
} from './trigger/carriedRecord';
import { deliveryItem, parseDelivery } from './trigger/delivery';
import { currentSlot, dropRecorded, recordedFits, registerWebhook } from './trigger/lifecycle';
import { admitDelivery, keepUnrecordedRegistration, reportUnremovable } from './trigger/lostRecord';
import { recentSubmissions, rememberRecord, slotKey } from './trigger/memory';
import { clearLostMark } from './trigger/registration';

export class FilloutTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fillout Trigger',
		name: 'filloutTrigger',
		icon: {
			light: 'file:../../icons/fillout.svg',
			dark: 'file:../../icons/fillout.dark.svg',
		},
		group: ['trigger'],
		version: 1,
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
			simplifyOption,
			...downloadFilesParameters,
		],
	};

	methods = { listSearch };

	webhookMethods = {
		default: {
			/**
			 * Fillout cannot say which webhooks exist, so the slot's record decides: one
			 * that still fits (same form, n8n address, API root and secret, as after a
			 * restart) is kept without a request. Otherwise the recorded one is removed and
			 * `create` registers a fresh one, so a changed form or address never leaves a
			 * second. Without a record (another node's static data overwrote it, queue
			 * mode), a main start keeps the registration it cannot see: see lostRecord.ts.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const state = currentSlot(this);
				if (state.record === undefined) return await keepUnrecordedRegistration(this, state);
				if (await recordedFits(this, state)) {
					rememberRecord(this, state.slot, state.record);
					return true;
				}
				await dropRecorded(this);
				return false;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				// n8n asks checkExists first; dropping again keeps the guarantee if it did not.
				const { data, slot } = await dropRecorded(this);
				const record = await registerWebhook(this, slot);
				data[slot] = { ...record };
				clearLostMark(data, slot);
				rememberRecord(this, slot, record);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const state = currentSlot(this);
				if (state.record === undefined) reportUnremovable(this, state);
				else await dropRecorded(this);
				return true;
			},
		},
	};

	/**
	 * n8n runs this first in each execution the trigger starts (a queue-mode worker
	 * included): it passes the delivery's items on and keeps the record they carry, so a
	 * worker that overwrites static data writes the record back (trigger/carriedRecord.ts).
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { items, carried } = takeCarriedRecord(this.getInputData());
		if (carried !== undefined) await keepCarriedRecord(this, carried);
		return [items];
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		const admission = await admitDelivery(this);
		if (!admission.ok) {
			res.status(401).json({ message: 'Unauthorized: missing or wrong secret' });
			return { noWebhookResponse: true };
		}

		const request = this.getRequestObject();
		const delivery = parseDelivery({
			body: this.getBodyData(),
			rawBody: (request as { rawBody?: unknown }).rawBody,
			contentType: this.getHeaderData()['content-type'],
		});
		if (!delivery.ok) {
			res.status(400).json({ message: delivery.reason });
			return { noWebhookResponse: true };
		}

		// A second registration for this address delivers the same submission again.
		const { slot, formId, record } = admission;
		const seenKey = `${slotKey(this, slot)}\n${formId}\n${delivery.submission.submissionId}`;
		if (!recentSubmissions.firstSighting(seenKey, performance.now())) {
			res
				.status(200)
				.json({ message: 'Already received: this submission started the workflow once' });
			return { noWebhookResponse: true };
		}

		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const files = fileSettingsOf((name, fallback) => this.getNodeParameter(name, fallback));
		// The form is the one the secret was issued for, whatever the body says.
		const item = deliveryItem(
			delivery.submission,
			{ formId, formName: delivery.formName ?? record?.formName ?? null },
			simplify,
			{},
			files ? [FILES_KEY] : [],
		);
		const carried = await recordToCarry(this, slot, record);
		const carrying = (items: INodeExecutionData[]) =>
			carried === undefined ? items : withCarriedRecord(items, carried);
		// Never returnJsonArray: it lifts the keys of an object holding `json` onto the item.
		if (!files) return { workflowData: [carrying([{ json: item }])] };
		// Fillout is answered before the downloads, which may take longer than it waits.
		res.status(200).json({ message: 'Workflow was started' });
		const items = await itemsWithFiles(this, [delivery.submission], [item], files, {
			onFailure: 'record',
		});
		return { noWebhookResponse: true, workflowData: [carrying(items)] };
	}
}
