/**
 * Catch-up tests over real HTTP: the sandbox delivers (or not) to a stand-in for n8n's
 * webhook endpoint (./endpoint.ts), and the trigger's `trigger()` knocks at its own
 * address through it, as n8n's main process does. `useCatchUp()` in a test file sets it up.
 * The sandbox disables a webhook at its first delivery answered 404, as some services do.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CATCH_UP_KEY } from '../../../nodes/Fillout/catchUp/catchUpRecord';
import { KNOCK_HEADER } from '../../../nodes/Fillout/catchUp/knock';
import { processMemory } from '../../../nodes/Fillout/shared/processMemory';
import type { TriggerHarness, WebhookCallResult } from '../../harness';
import { startTrigger, type StartedTrigger } from '../../harness/triggers';
import { useHarness, type Json } from '../../sandbox/support';
import { startEndpoint, type Endpoint } from './endpoint';
import {
	filloutTrigger,
	forgetProcessMemory,
	NODE_NAME,
	slots,
	type TriggerOptions,
} from './index';

export const MINUTE = 60_000;

const idsOf = (items: INodeExecutionData[]) => items.map((item) => item.json.submissionId);

export function useCatchUp() {
	const h = useHarness({ rateLimit: 5, quiet: true, disableWebhookOn404: true });
	const box: { endpoint?: Endpoint } = {};
	const started: StartedTrigger[] = [];
	const endpoint = () => box.endpoint!;

	beforeAll(async () => {
		box.endpoint = await startEndpoint();
	});
	afterAll(async () => {
		await box.endpoint?.close();
	});
	beforeEach(() => {
		forgetProcessMemory();
		endpoint().received.length = 0;
		endpoint().trigger = undefined;
	});
	afterEach(async () => {
		await Promise.all(started.splice(0).map(async (trigger) => await trigger.close()));
	});

	return {
		h,
		endpoint,

		/** A published Fillout Trigger for the form, its address served by the endpoint. */
		async published(formId: string, options: TriggerOptions = {}): Promise<TriggerHarness> {
			const trigger = filloutTrigger(h, formId, endpoint().url, options);
			endpoint().trigger = trigger;
			await trigger.activate();
			return trigger;
		},

		/** n8n starts the trigger's `trigger()` (closed after the test). */
		async start(trigger: TriggerHarness, activation: 'activate' | 'init' = 'activate') {
			const running = await startTrigger(trigger, activation);
			started.push(running);
			return running;
		},

		/**
		 * The trigger as if published `ms` ago (checks leave the last 30 s alone): its
		 * catch-up record, and its webhook's registration `webhookMs` ago (default `ms`).
		 */
		backdate(trigger: TriggerHarness, ms: number, webhookMs = ms): void {
			const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
			const webhook = node.production as IDataObject;
			const createdMs = Date.parse(webhook.createdAt as string) - webhookMs;
			webhook.createdAt = new Date(createdMs).toISOString();
			processMemory.webhookRecords.clear();
			const record = node[CATCH_UP_KEY] as IDataObject;
			for (const key of ['windowStartMs', 'newestMs', 'startedAt']) {
				record[key] = (record[key] as number) - ms;
			}
			processMemory.catchUpRecords.clear();
		},

		/** A respondent submits `agoMs` before now; the sandbox delivers to every webhook. */
		async respond(formId: string, agoMs: number): Promise<string> {
			const submissionTime = new Date(Date.now() - agoMs).toISOString();
			const res = await h.control.post(`/forms/${formId}/respond`, {
				submission: { submissionTime },
			});
			expect(res.status).toBe(200);
			return (res.body as Json).submission.submissionId as string;
		},

		/** Every submission that ran, by every execution the endpoint started, in order. */
		async ran(): Promise<unknown[]> {
			await endpoint().settled();
			return endpoint().received.flatMap((received) => idsOf(received.items));
		},

		/** List requests since the sandbox's stats were reset (by route: one form at a time). */
		async listRequests(): Promise<number> {
			const stats = (await h.control.get('/stats')).body as { requests: Record<string, number> };
			return Object.entries(stats.requests)
				.filter(([route]) => route.startsWith('GET ') && route.endsWith('/submissions'))
				.reduce((sum, [, count]) => sum + count, 0);
		},

		/** Minutes pass between two checks (a check closer than 5 s to the last runs nothing). */
		checksApart(): void {
			processMemory.catchUpChecks.clear();
		},

		/** A knock at the production address, straight into `webhook()`. */
		async knock(trigger: TriggerHarness, secret = slots(trigger).production!.secret) {
			return await trigger.receive({
				query: { secret },
				headers: { [KNOCK_HEADER]: '1' },
				body: {},
			});
		},
	};
}

export const checkedOf = (answer: WebhookCallResult) => (answer.res.body as IDataObject).checked;
