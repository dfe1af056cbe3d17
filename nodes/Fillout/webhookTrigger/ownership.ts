import { derivationOf, readDerivedKeys } from './derivedKeys';
import type { LifecycleContext, Slot, WebhookRecord } from './webhookRecord';

/**
 * Whether a record in this node's static data names a webhook this trigger registered.
 * Static data copied from another workflow (an export imported, the public API) holds that
 * workflow's record; removing its webhook would stop that workflow's deliveries
 * (docs/trigger-static-data.md, "A record from another workflow").
 */
export async function isOwnRecord(
	ctx: LifecycleContext,
	slot: Slot,
	record: WebhookRecord,
): Promise<boolean> {
	const keys = await readDerivedKeys(ctx, slot, record.formId);
	if (derivationOf(keys, record.secret) !== undefined) return true;
	// The credential's key changed since: a record of this version names its owner.
	if (record.workflowId !== undefined || record.nodeId !== undefined) {
		return record.workflowId === ctx.getWorkflow().id && record.nodeId === ctx.getNode().id;
	}
	// An earlier version's record (random secret, no owner): only at this node's own address.
	return record.url === ctx.getNodeWebhookUrl('default');
}

/** A record that is not this trigger's is forgotten, its webhook left to its owner. */
export function warnNotOwn(ctx: LifecycleContext, record: WebhookRecord): void {
	ctx.logger.warn(
		`Fillout Trigger: webhook ${record.webhookId} (form ${record.formId}) in the static data of workflow ${ctx.getWorkflow().id ?? ''} was not registered by this trigger: it names another workflow or node, or another address, as static data copied from another workflow does. It is forgotten, not removed at Fillout, so that workflow keeps receiving. If it was this trigger's own webhook, delete it in the form’s Integrations in Fillout.`,
		{
			workflowId: ctx.getWorkflow().id,
			node: ctx.getNode().name,
			webhookId: record.webhookId,
			formId: record.formId,
		},
	);
}
