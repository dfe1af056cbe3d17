import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { itemsWithFiles, type FileSettings } from '../downloadFiles';
import type { Submission } from '../shared/interfaces';
import { unmarkDelivered } from '../catchUp/recordAccess';
import { forgetDelivery } from '../shared/processMemory';
import type { Slot } from './webhookRecord';

/** A delivery accepted and marked received, its item built. */
export interface AcceptedDelivery {
	slot: Slot;
	formId: string;
	submission: Submission;
	item: IDataObject;
}

/**
 * The execution of a delivery with Download Files on. Fillout is answered first: the
 * downloads may take longer than it waits. A throw forgets the delivery, as no execution
 * starts: a resend of the submission may.
 */
export async function startWithFiles(
	ctx: IWebhookFunctions,
	delivery: AcceptedDelivery,
	files: FileSettings,
	withRecord: (items: INodeExecutionData[]) => INodeExecutionData[],
): Promise<IWebhookResponseData> {
	const { slot, formId, submission, item } = delivery;
	ctx.getResponseObject().status(200).json({ message: 'Workflow was started' });
	let downloaded = false;
	try {
		const items = await itemsWithFiles(ctx, [submission], [item], files, {
			onFailure: 'record',
		});
		downloaded = true;
		return { noWebhookResponse: true, workflowData: [withRecord(items)] };
	} finally {
		if (!downloaded) {
			forgetDelivery(ctx, slot, formId, submission.submissionId);
			unmarkDelivered(ctx, ctx.getWorkflowStaticData('node'), formId, submission.submissionId);
		}
	}
}
