/**
 * The derived keys a process keeps in memory (`cachedDerivedKeys`): a registration this
 * process made costs its deliveries no credential read, and the cache stays bounded however
 * many triggers, slots and forms a long-lived process serves.
 */
import { createHmac } from 'node:crypto';

import type { IWebhookFunctions } from 'n8n-workflow';

import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import { cachedDerivedKeys } from '../../nodes/Fillout/webhookTrigger/derivedKeys';
import { SIGNED_RECORD_KEY } from '../../nodes/Fillout/webhookTrigger/signedRecord';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	secretIn,
	useTriggerSandbox,
	webhooksOf,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

it('the process that registered a webhook signs its deliveries without reading the credential', async () => {
	const formId = await freshForm(h.control);
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	const [webhook] = await webhooksOf(h, formId);
	const secret = secretIn(webhook.url as string)!;

	const reads = jest.spyOn(trigger.credentialsHelper, 'getDecrypted');
	const delivery = await trigger.receive({
		query: { secret },
		body: { formId, submission: { submissionId: 'c1', questions: [] } },
	});
	expect(delivery.items).toHaveLength(1);
	// The record rides signed, with the keys the registration derived.
	expect(delivery.items[0][SIGNED_RECORD_KEY]).toBeDefined();
	expect(reads).not.toHaveBeenCalled();
});

describe('the cache in a long-lived process', () => {
	const API_KEY = 'sk_prod_cache_bound_tests';
	const NODE_ID = 'node-cache-bound';
	let credentialReads = 0;

	/** Just what deriving keys asks of a context: the node, the workflow, the credential. */
	function context(workflowId: string): IWebhookFunctions {
		return {
			getNode: () => ({ id: NODE_ID, name: 'Fillout Trigger', parameters: {} }),
			getWorkflow: () => ({ id: workflowId }),
			getCredentials: async () => {
				credentialReads++;
				return { apiKey: API_KEY };
			},
		} as unknown as IWebhookFunctions;
	}

	/** docs/trigger-static-data.md: HMAC-SHA256(key, JSON [label, workflow, node, slot, form]). */
	const documentedSecret = (workflowId: string, formId: string) =>
		createHmac('sha256', API_KEY)
			.update(
				JSON.stringify([
					'n8n-nodes-fillout-forms/trigger-secret/v1',
					workflowId,
					NODE_ID,
					'production',
					formId,
				]),
				'utf8',
			)
			.digest('base64url');

	it('never holds more than 1,000 entries, and each lookup gives that trigger’s own keys', async () => {
		const lookups = 2_500;
		for (let i = 0; i < lookups; i++) {
			const workflowId = `workflow-${i % 7}`;
			const formId = `form${i}`;
			const keys = await cachedDerivedKeys(context(workflowId), 'production', formId, '');
			expect(keys?.secret).toBe(documentedSecret(workflowId, formId));
			expect(processMemory.derivedKeys.size).toBeLessThanOrEqual(1_000);
		}
		expect(credentialReads).toBe(lookups);
	});

	it('a lookup it still holds is answered without a credential read', async () => {
		credentialReads = 0;
		for (let round = 0; round < 3; round++) {
			for (let i = 0; i < 50; i++) {
				await cachedDerivedKeys(context('workflow-again'), 'production', `form${i}`, '');
			}
		}
		expect(credentialReads).toBe(50);
	});
});
