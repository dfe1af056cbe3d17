/**
 * The Fillout Trigger's catch-up in a real n8n, as steps that the regular and the
 * queue-mode files share. Each scenario has a form in an account of its own (so that the
 * sandbox counts exactly its trigger's list requests), and the scenarios run side by side
 * in one n8n, so that one restart or one wait for a check serves several of them. A
 * workflow's node id can be picked so that its scheduled check falls at a planned second.
 */
import { randomUUID } from 'node:crypto';

import { secondOf } from '../../../nodes/Fillout/catchUp/scheduleSecond';
import type { N8nClient } from './n8nClient';
import { createApiKeyCredential } from './credentials';
import { sleep, waitFor } from './processes';
import {
	settledWebhooks,
	type SandboxControl,
	type SandboxWebhook,
	type Submission,
} from './sandbox';
import { NODE_NAMES, triggerWorkflow, type CredentialRef } from './workflows';

export const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';

/** The newest seconds a check leaves to the webhook (docs/catch-up.md), plus a margin. */
export const PAST_GRACE_MS = 31_000;

/** The header that makes a request to the trigger's address a knock (knock.ts). */
const KNOCK_HEADER = 'x-fillout-trigger-knock';

export interface CatchUpFixture {
	label: string;
	apiKey: string;
	credential: CredentialRef;
	formId: string;
	webhookId: string;
	/** Empty until the workflow is created (just before its first publish). */
	workflowId: string;
	/** The second of the minute at which the trigger's schedule checks. */
	checkSecond?: number;
}

/** A node id whose schedule checks at `second` of each minute (scheduleSecond.ts). */
export function nodeIdCheckingAt(second: number): string {
	for (;;) {
		const id = randomUUID();
		if (secondOf(id) === second) return id;
	}
}

/** The second of the minute of the instant `atMs`. */
export function secondOfMinute(atMs: number): number {
	return Math.floor(atMs / 1000) % 60;
}

/** A new sandbox account, its key as a credential, and a form; no workflow yet. */
export async function createCatchUpForm(
	n8n: N8nClient,
	sandbox: SandboxControl,
	label: string,
): Promise<CatchUpFixture> {
	const unique = `${label} ${Date.now().toString(36)}`;
	const account = await sandbox.createAccount({ name: unique });
	const credential = await createApiKeyCredential(n8n, unique, account.apiKey, sandbox.origin);
	const questions = [{ id: 'qName', name: 'Name', type: 'ShortAnswer' }];
	const form = await sandbox.createForm({ name: unique, accountId: account.id, questions });
	const webhookId = randomUUID();
	return { label, apiKey: account.apiKey, credential, formId: form.id, webhookId, workflowId: '' };
}

/**
 * The fixture's workflow (1-minute checks). With `checkAt`, the schedule checks at the
 * second of the minute of that instant (ms): its node id is picked for it.
 */
export async function createCatchUpWorkflow(
	n8n: N8nClient,
	fixture: CatchUpFixture,
	checkAt?: number,
): Promise<void> {
	const workflow = triggerWorkflow({
		name: `${fixture.label} ${Date.now().toString(36)}`,
		credential: fixture.credential,
		formId: fixture.formId,
		webhookId: fixture.webhookId,
		parameters: { catchUp: true, catchUpMinutes: 1 },
	});
	const trigger = workflow.nodes[0];
	if (checkAt !== undefined) trigger.id = nodeIdCheckingAt(secondOfMinute(checkAt));
	fixture.workflowId = (await n8n.createWorkflow(workflow)).id;
	fixture.checkSecond = secondOf(String(trigger.id));
}

/** The list requests the sandbox counted for a key so far. */
export async function listRequests(sandbox: SandboxControl, apiKey: string): Promise<number> {
	return (await sandbox.stats()).byKey[apiKey]?.requests[LIST_ROUTE] ?? 0;
}

export interface ListRise {
	at: number;
	requests: number;
}

/** When each tracked key's list request count went up, and by how much (sampled every 250 ms). */
export class ListSampler {
	private readonly keys = new Map<string, { last: number; rises: ListRise[] }>();

	private running = false;

	private loop?: Promise<void>;

	constructor(private readonly sandbox: SandboxControl) {}

	/** Starts counting the key's list requests from now. */
	async track(apiKey: string): Promise<ListRequests> {
		this.keys.set(apiKey, { last: await listRequests(this.sandbox, apiKey), rises: [] });
		if (!this.running) {
			this.running = true;
			this.loop = this.sample();
		}
		return new ListRequests(this, apiKey);
	}

	async stop(): Promise<void> {
		this.running = false;
		await this.loop;
	}

	risesOf(apiKey: string): ListRise[] {
		return this.keys.get(apiKey)?.rises ?? [];
	}

	private async sample(): Promise<void> {
		while (this.running) {
			await sleep(250);
			const byKey = await this.sandbox
				.stats()
				.then((stats) => stats.byKey)
				.catch(() => undefined);
			if (byKey === undefined) continue;
			const at = Date.now();
			for (const [apiKey, key] of this.keys) {
				const now = byKey[apiKey]?.requests[LIST_ROUTE] ?? key.last;
				if (now > key.last) key.rises.push({ at, requests: now - key.last });
				key.last = now;
			}
		}
	}
}

/** One key's list requests, as the sampler saw them. */
export class ListRequests {
	constructor(
		private readonly sampler: ListSampler,
		private readonly apiKey: string,
	) {}

	/** The rises at or after `sinceMs`. */
	since(sinceMs: number): ListRise[] {
		return this.sampler.risesOf(this.apiKey).filter((rise) => rise.at >= sinceMs);
	}

	/** Waits for the first rise at or after `sinceMs` (a check listed). */
	async nextRise(sinceMs: number, timeoutMs: number): Promise<ListRise> {
		return await waitFor(async () => this.since(sinceMs)[0], {
			timeoutMs,
			intervalMs: 250,
			description: 'a list request of the trigger',
		});
	}
}

export interface RunOfWorkflow {
	id: string;
	mode: string;
	status: string;
	startedAt?: string;
	/** The trigger's items' submission ids, in item order. */
	submissionIds: string[];
}

/** Every ended execution of the workflow, oldest first, with its trigger items' ids. */
export async function runsOf(n8n: N8nClient, workflowId: string): Promise<RunOfWorkflow[]> {
	const summaries = await n8n.listExecutions({ workflowId });
	const runs: RunOfWorkflow[] = [];
	for (const summary of summaries) {
		if (['new', 'running', 'waiting'].includes(summary.status)) continue;
		const execution = await n8n.waitForExecution(summary.id);
		runs.push({
			id: summary.id,
			mode: execution.mode,
			status: execution.status,
			submissionIds: execution.items(NODE_NAMES.trigger).map((item) => String(item.submissionId)),
		});
	}
	return runs.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Waits for an ended execution whose trigger items include `submissionId`. */
export async function waitForRunOf(
	n8n: N8nClient,
	workflowId: string,
	submissionIds: string[],
	timeoutMs: number,
): Promise<{ run: RunOfWorkflow; seenAt: number }> {
	const run = await waitFor(
		async () =>
			(await runsOf(n8n, workflowId)).find((candidate) =>
				submissionIds.every((id) => candidate.submissionIds.includes(id)),
			),
		{ timeoutMs, intervalMs: 500, description: `a run of ${submissionIds.join(', ')}` },
	);
	return { run, seenAt: Date.now() };
}

/** How many times each submission ran the workflow, over all its executions. */
export function runCounts(runs: RunOfWorkflow[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const run of runs) {
		for (const id of run.submissionIds) counts[id] = (counts[id] ?? 0) + 1;
	}
	return counts;
}

export type Made = Array<{ submission: Submission; statusCodes: Array<number | undefined> }>;

/** Submissions at the given times (ms ago), in the given order; what the sandbox answered. */
export async function submitAt(
	sandbox: SandboxControl,
	formId: string,
	agesMs: number[],
	name: string,
): Promise<Made> {
	const made = [];
	const now = Date.now();
	for (const [index, ageMs] of agesMs.entries()) {
		const submissionTime = new Date(now - ageMs).toISOString();
		const { submission, deliveries } = await sandbox.respond(formId, {
			answers: { qName: `${name} ${index}` },
			submission: { submissionTime },
		});
		made.push({ submission, statusCodes: deliveries.map((delivery) => delivery.statusCode) });
	}
	return made;
}

export const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Connects, once more if the first request fails: on a loaded machine n8n may close the
 * idle connection the global setup left just as the first request of the file reuses it
 * ("other side closed").
 */
export async function connectedOnce<T>(connect: () => Promise<T>): Promise<T> {
	try {
		return await connect();
	} catch {
		await sleep(1_000);
		return await connect();
	}
}

/**
 * A promise that a later test awaits: marked handled now, so that a scenario failing
 * before its test runs fails that test, not the process.
 */
export function started<T>(run: () => Promise<T>): Promise<T> {
	const promise = run();
	promise.catch(() => undefined);
	return promise;
}

export interface ScenarioContext {
	n8n: () => N8nClient;
	sandbox: SandboxControl;
	sampler: ListSampler;
	/** More checks of a run (queue mode: it ran on one worker). */
	onRun?: (run: RunOfWorkflow) => void;
	/** Submission id → what it was, over all scenarios (for traces). */
	labels: Record<string, string>;
}

/** One workflow's catch-up story: what it published, what must run once, what never. */
export class CatchUpScenario {
	/** Every submission made while published: each must run exactly once. */
	readonly published: string[] = [];

	/** Made before the first publish or while unpublished: none may run. */
	readonly never: string[] = [];

	webhook?: SandboxWebhook;

	/** When the last delivery ran (a later check must be past the grace to see it). */
	lastDeliveredAt = 0;

	/** When Fillout registered the webhook of the last publish (the sandbox's clock). */
	registeredAt = 0;

	private checkAfterMs?: number;

	/** What happened when, for the printed timeline. */
	private readonly events: Array<{ at: number; what: string }> = [];

	private constructor(
		private readonly context: ScenarioContext,
		readonly fixture: CatchUpFixture,
		readonly lists: ListRequests,
	) {}

	/**
	 * With `checkAfterMs`, the workflow (created at the first publish) checks on its schedule
	 * at the second of the minute that many ms after that publish.
	 */
	static async create(
		context: ScenarioContext,
		label: string,
		options: { checkAfterMs?: number } = {},
	): Promise<CatchUpScenario> {
		const fixture = await createCatchUpForm(context.n8n(), context.sandbox, label);
		const lists = await context.sampler.track(fixture.apiKey);
		const scenario = new CatchUpScenario(context, fixture, lists);
		scenario.checkAfterMs = options.checkAfterMs;
		return scenario;
	}

	note(what: string): void {
		this.events.push({ at: Date.now(), what });
	}

	/** Its steps and its checks (list requests), in seconds after `originMs`, for the figures. */
	timeline(originMs: number): string {
		const checks = this.lists.since(0).map(({ at }) => ({ at, what: 'check' }));
		const steps = [...this.events, ...checks].sort((a, b) => a.at - b.at);
		const text = steps.map(({ at, what }) => `${seconds(at - originMs)} ${what}`).join(', ');
		return `${this.fixture.label} (schedule at :${this.fixture.checkSecond}): ${text}`;
	}

	get n8n(): N8nClient {
		return this.context.n8n();
	}

	async webhooks(atLeast = 0): Promise<SandboxWebhook[]> {
		return await settledWebhooks(this.context.sandbox, this.fixture.formId, atLeast);
	}

	async runs(): Promise<RunOfWorkflow[]> {
		return await runsOf(this.n8n, this.fixture.workflowId);
	}

	async submit(agesMs: number[], name: string): Promise<Made> {
		const made = await submitAt(this.context.sandbox, this.fixture.formId, agesMs, name);
		made.forEach(({ submission }, index) => {
			this.context.labels[submission.submissionId] = `${this.fixture.label}: ${name} ${index}`;
		});
		return made;
	}

	/** Publishes (creating the workflow the first time): exactly one webhook. Returns when. */
	async publish(): Promise<number> {
		if (this.fixture.workflowId === '') {
			const checkAt = this.checkAfterMs === undefined ? undefined : Date.now() + this.checkAfterMs;
			await createCatchUpWorkflow(this.n8n, this.fixture, checkAt);
		}
		const at = Date.now();
		expect((await this.n8n.activateWorkflow(this.fixture.workflowId)).active).toBe(true);
		const [webhook, ...more] = await this.webhooks(1);
		expect(more).toEqual([]);
		this.webhook = webhook;
		this.registeredAt = Date.parse(webhook.createdAt);
		this.note('published');
		return at;
	}

	/**
	 * Unpublishes: no webhook left at Fillout. n8n 2.x tears down a published version after
	 * answering (its publication outbox), so this waits for the removal. Returns when done.
	 */
	async unpublish(): Promise<number> {
		expect((await this.n8n.deactivateWorkflow(this.fixture.workflowId)).active).toBe(false);
		await waitFor(async () => (await this.webhooks()).length === 0 || undefined, {
			timeoutMs: 30_000,
			intervalMs: 500,
			description: `no webhook of ${this.fixture.label} at Fillout`,
		});
		this.note('unpublished');
		return Date.now();
	}

	/** A submission now: delivered at once (200) and run in an execution of its own. */
	async expectInstant(name: string, timeoutMs = 20_000): Promise<void> {
		const [made] = await this.submit([0], name);
		const id = made.submission.submissionId;
		this.published.push(id);
		expect(made.statusCodes).toEqual([200]);
		const { run } = await waitForRunOf(this.n8n, this.fixture.workflowId, [id], timeoutMs);
		expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
		expect(run.submissionIds).toEqual([id]);
		this.context.onRun?.(run);
		this.lastDeliveredAt = Date.now();
		this.note(`${name} ran`);
	}

	/** The first check after publishing, 35 s after trigger() starts (a scheduled one before is passed over). */
	async firstCheck(publishedAt: number): Promise<ListRise> {
		return await this.lists.nextRise(publishedAt + 30_000, 60_000);
	}

	/** The missed ones run in one execution, in this order, within `boundMs` of `fromMs`. */
	async expectCaughtUp(ids: string[], fromMs: number, boundMs: number): Promise<number> {
		const { run, seenAt } = await waitForRunOf(
			this.n8n,
			this.fixture.workflowId,
			ids,
			boundMs + 30_000,
		);
		this.note(`${ids.length} missed ran`);
		expect(seenAt - fromMs).toBeLessThan(boundMs);
		expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
		expect(run.submissionIds).toEqual(ids);
		this.context.onRun?.(run);
		return seenAt - fromMs;
	}

	/** Fillout missed some: the trigger registered its webhook again, exactly one, same address. */
	async expectRegisteredAgain(): Promise<void> {
		const [again, ...more] = await this.webhooks(1);
		expect(more).toEqual([]);
		expect(again.id).not.toBe(this.webhook?.id);
		// The same address and secret (derived from the credential): only Fillout's id is new.
		expect(again.url).toBe(this.webhook?.url);
		this.webhook = again;
	}

	/**
	 * A webhook dropped at Fillout: two submissions run within the interval and grace (60 s
	 * + 30 s + 15 s), one new webhook delivers the next at once. Returns drop to run (ms).
	 */
	async expectDropCaughtUp(): Promise<number> {
		await this.context.sandbox.dropWebhook(this.webhook!.id);
		const droppedAt = Date.now();
		this.note('dropped');
		const made = await this.submit([1_000, 0], 'Lost');
		for (const { statusCodes } of made) expect(statusCodes).toEqual([]);
		const ids = made.map(({ submission }) => submission.submissionId);
		this.published.push(...ids);
		const dropToRun = await this.expectCaughtUp(ids, droppedAt, 60_000 + 30_000 + 15_000);
		await this.expectRegisteredAgain();
		await this.expectInstant('After Lost');
		return dropToRun;
	}

	/**
	 * One more check, past the grace after the last delivery, runs nothing: a knock at the
	 * trigger's address, the request the main process makes on schedule (knock.ts).
	 */
	async expectOneMoreCheckRunsNothing(): Promise<void> {
		await sleep(Math.max(0, this.lastDeliveredAt + PAST_GRACE_MS - Date.now()));
		const answer = await waitFor(
			async () => {
				const response = await fetch(this.webhook!.url, {
					method: 'POST',
					headers: { [KNOCK_HEADER]: '1', 'content-type': 'application/json' },
					body: '{}',
				});
				expect(response.status).toBe(200);
				const body = (await response.json()) as { checked: boolean; missed: number };
				// A scheduled check moments before makes the knock check nothing: knock again.
				return body.checked ? body : undefined;
			},
			{ timeoutMs: 20_000, intervalMs: 5_500, description: 'a check answering a knock' },
		);
		expect(answer).toMatchObject({ checked: true, missed: 0 });
	}

	/** Each submission made while published ran once; none of the others ran. */
	async expectEachRanOnce(): Promise<void> {
		const runs = await this.runs();
		const counts = runCounts(runs);
		expect(counts).toEqual(Object.fromEntries(this.published.map((id) => [id, 1])));
		for (const id of this.never) expect(counts[id]).toBeUndefined();
		for (const run of runs) {
			expect(run).toMatchObject({ mode: 'webhook', status: 'success' });
			this.context.onRun?.(run);
		}
	}
}
