/** Shared by the trigger tests: the trigger in the harness against a running sandbox. */
import { HookContext } from 'n8n-core';
import type { IDataObject, IHookFunctions, INodeParameters } from 'n8n-workflow';

import { FilloutTrigger } from '../../../nodes/Fillout/FilloutTrigger.node';
import { processMemory } from '../../../nodes/Fillout/shared/processMemory';
import type { WebhookRecord } from '../../../nodes/Fillout/webhookTrigger/webhookRecord';
import {
	closedPortUrl,
	createTriggerHarness,
	type TriggerHarness,
	type TriggerHarnessOptions,
} from '../../harness';
import type { SandboxOptions } from '../../../sandbox';
import { useHarness, type Harness, type Json } from '../../sandbox/support';

export const NODE_NAME = 'Fillout Trigger';

/**
 * A sandbox for the file's tests and n8n's address in them (nothing listens there, so
 * deliveries fail fast); faults and mocks are cleared after each test. The fields are
 * set once the file's tests start.
 */
export function useTriggerSandbox(options: SandboxOptions = {}): {
	h: Harness;
	instanceUrl: string;
} {
	const env = { h: useHarness({ rateLimit: 0, quiet: true, ...options }), instanceUrl: '' };
	beforeAll(async () => {
		env.instanceUrl = await closedPortUrl();
	});
	afterEach(async () => {
		await env.h.control.delete('/faults');
		jest.restoreAllMocks();
	});
	return env;
}

/** The form locator as the editor saves it ("By ID"). */
export const formParam = (formId: string) => ({ __rl: true, mode: 'id', value: formId });

/** An API-key credential pointing at the sandbox (a "Custom (Self-Hosted)" base URL). */
export const sandboxCredentials = (h: Harness, apiKey = h.sandbox.demo.apiKey) => ({
	filloutFormsApi: { apiKey, region: 'custom', baseUrl: h.sandbox.apiRoot },
});

export interface TriggerOptions extends Partial<TriggerHarnessOptions> {
	parameters?: INodeParameters;
}

/**
 * The Fillout Trigger for one form, in n8n-core's real hook and webhook contexts. Each
 * form gets its own workflow id unless one is given, as each test's workflow is another
 * workflow to the trigger's process memory and derived secrets.
 */
export function filloutTrigger(
	h: Harness,
	formId: string,
	instanceUrl: string,
	options: TriggerOptions = {},
): TriggerHarness {
	return createTriggerHarness({
		nodeType: FilloutTrigger,
		credentials: sandboxCredentials(h),
		instanceUrl,
		workflowId: `workflow-${formId}`,
		...options,
		parameters: { form: formParam(formId), ...options.parameters },
	});
}

/** The trigger's node static data: `{ production?, test? }`. */
export function slots(trigger: TriggerHarness | IDataObject): {
	production?: WebhookRecord;
	test?: WebhookRecord;
} {
	const data = 'staticData' in trigger ? (trigger as TriggerHarness).staticData : trigger;
	return (data[`node:${NODE_NAME}`] ?? {}) as { production?: WebhookRecord; test?: WebhookRecord };
}

/** Webhooks the sandbox holds for a form, with their delivery records. */
export async function webhooksOf(h: Harness, formId: string): Promise<Json[]> {
	const res = await h.control.get('/webhooks');
	return (res.body as Json[]).filter((webhook) => webhook.formId === formId);
}

/** The secret in a registered address. */
export const secretIn = (url: string) => new URL(url).searchParams.get('secret');

/**
 * n8n's process-wide logger (what `this.logger` is in every node context), so a test can
 * spy on it. n8n-core memoizes the getter per context and reads a DI singleton.
 */
export function n8nLogger(): IHookFunctions['logger'] {
	let proto: object | null = HookContext.prototype;
	while (proto !== null && Object.getOwnPropertyDescriptor(proto, 'logger') === undefined) {
		proto = Object.getPrototypeOf(proto) as object | null;
	}
	const getter = proto === null ? undefined : Object.getOwnPropertyDescriptor(proto, 'logger')?.get;
	if (getter === undefined) throw new Error('n8n-core contexts no longer have a logger getter');
	return getter.call({}) as IHookFunctions['logger'];
}

/**
 * An n8n process restart, as far as both triggers go: every cache in their one
 * process-memory module emptied (the nodes ship no reset of their own).
 */
export function forgetProcessMemory(): void {
	for (const cache of Object.values(processMemory)) cache.clear();
}

/** A process that never saw the webhook records (nor logged their loss); the rest stays. */
export function forgetRememberedRecords(): void {
	processMemory.webhookRecords.clear();
	processMemory.lostRecordsLogged.clear();
}
