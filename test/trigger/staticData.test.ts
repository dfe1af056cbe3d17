/**
 * The trigger when another node's static data replaces its record, as n8n's queue-mode
 * workers do: a worker starts each execution with empty static data and, when any node
 * writes some (a Code node counting in `$getWorkflowStaticData('global')`), saves its
 * partial object over the workflow's whole static data. Here that is
 * `trigger.staticData = { global: { count } }`; a process restart is a new harness plus
 * `forgetProcessMemory()`. Everything against the sandbox, through n8n-core's real hook
 * and webhook contexts.
 */
import { derivedSecret } from '../../nodes/Fillout/webhookTrigger/secret';
import type { TriggerHarness } from '../harness';
import { apiClient, freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	n8nLogger,
	NODE_NAME,
	sandboxCredentials,
	secretIn,
	slots,
	webhooksOf,
	useTriggerSandbox,
	forgetProcessMemory,
	forgetRememberedRecords,
} from './support';

const OTHER_KEY = 'sk_prod_static_data_rotated_key';
const OAUTH_TOKEN = 'fillout_token_static_data_tests';
const env = useTriggerSandbox({ apiKeys: [OTHER_KEY, OAUTH_TOKEN] });
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

/** What a queue-mode worker leaves after a Code node counted in global static data. */
const workerOverwrite = (count = 1) => ({ global: { count } });

const body = (formId: string, submissionId: string) => ({
	formId,
	formName: 'Test form',
	submission: { submissionId, questions: [] },
});

/** The secret in the address Fillout (the sandbox) holds for the form's only webhook. */
async function registeredSecret(formId: string): Promise<string> {
	const live = await webhooksOf(h, formId);
	expect(live).toHaveLength(1);
	return secretIn(live[0].url as string)!;
}

async function publishedTrigger(formId: string): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	return trigger;
}

/** The record as lost: another node's static data over it, and a process that never saw it. */
function loseRecord(trigger: TriggerHarness, count = 1): void {
	trigger.staticData = workerOverwrite(count);
	forgetProcessMemory();
}

const lostMark = (trigger: TriggerHarness) =>
	(trigger.staticData[`node:${NODE_NAME}`] as { lost?: Record<string, unknown> } | undefined)?.lost;

const logged = (spy: jest.SpyInstance, text: string) =>
	spy.mock.calls.filter(([message]) => String(message).includes(text)).length;

describe('deliveries after the record is gone', () => {
	it('are accepted and verified with the derived secret; the loss is logged once as an error and marked', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const secret = await registeredSecret(formId);
		const error = jest.spyOn(n8nLogger(), 'error');
		loseRecord(trigger);

		const first = await trigger.receive({ query: { secret }, body: body(formId, 'a1') });
		const second = await trigger.receive({ query: { secret }, body: body(formId, 'a2') });

		expect(first.items.map((item) => item.json.submissionId)).toEqual(['a1']);
		expect(second.items.map((item) => item.json.submissionId)).toEqual(['a2']);
		expect(first.items[0].json.formId).toBe(formId);
		expect(logged(error, 'lost the record of its Fillout webhook')).toBe(1);
		expect(lostMark(trigger)).toEqual({
			production: { detectedAt: expect.any(String), detectedBy: 'delivery' },
		});
		// The worker's data is left as it was.
		expect(trigger.staticData.global).toEqual({ count: 1 });
	});

	it('still refuse a wrong secret, a missing one, and the secret of the same trigger on another form', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const secret = await registeredSecret(formId);
		loseRecord(trigger);
		const otherForm = derivedSecret(h.sandbox.demo.apiKey, {
			workflowId: `workflow-${formId}`,
			nodeId: 'trigger-under-test',
			slot: 'production',
			formId: 'another-form',
		});

		for (const presented of [`${secret.slice(0, -1)}x`, undefined, otherForm, 'S'.repeat(43)]) {
			const result = await trigger.receive({
				query: presented === undefined ? {} : { secret: presented },
				body: body(formId, 'f1'),
			});
			expect([result.res.statusCode, result.items.length]).toEqual([401, 0]);
		}
		// The real secret still opens it (the refusals did not take the submission id).
		const real = await trigger.receive({ query: { secret }, body: body(formId, 'f1') });
		expect(real.items).toHaveLength(1);
	});

	it('a process that saw the record writes it back on the next delivery, with a warning', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const record = slots(trigger).production!;
		forgetProcessMemory(); // a webhook processor: it only knows what deliveries showed it
		await trigger.receive({ query: { secret: record.secret }, body: body(formId, 'w1') });
		const warn = jest.spyOn(n8nLogger(), 'warn');
		trigger.staticData = workerOverwrite();

		const result = await trigger.receive({
			query: { secret: record.secret },
			body: body(formId, 'w2'),
		});

		expect(result.items).toHaveLength(1);
		expect(slots(trigger).production).toEqual(record);
		expect(logged(warn, 'written back from this n8n process')).toBe(1);
	});
});

describe('one execution per submission', () => {
	it('a second delivery of a submission (a second registration for the address) starts nothing and is answered 200', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const secret = await registeredSecret(formId);

		const first = await trigger.receive({ query: { secret }, body: body(formId, 'd1') });
		trigger.staticData = workerOverwrite(); // and the record is gone meanwhile
		const again = await trigger.receive({ query: { secret }, body: body(formId, 'd1') });
		const other = await trigger.receive({ query: { secret }, body: body(formId, 'd2') });

		expect(first.items).toHaveLength(1);
		expect(again.items).toEqual([]);
		expect(again.response).toEqual({ noWebhookResponse: true });
		expect(again.res).toMatchObject({ statusCode: 200, ended: true });
		expect(other.items).toHaveLength(1);
	});

	it('the window is this process’s memory: after a restart a repeat gets through (documented limit)', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const secret = await registeredSecret(formId);
		await trigger.receive({ query: { secret }, body: body(formId, 'p1') });
		forgetProcessMemory();
		const again = await trigger.receive({ query: { secret }, body: body(formId, 'p1') });
		expect(again.items).toHaveLength(1);
	});

	it('randomized: duplicated, interleaved and forged deliveries with static data wiped at random give each submission exactly once', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const secret = await registeredSecret(formId);
		let state = 0x5eed;
		const random = () => {
			state = (Math.imul(state, 1103515245) + 12345) >>> 0;
			return state / 2 ** 32;
		};
		const ids = Array.from({ length: 60 }, (_, i) => `r${i}`);
		// Each submission arrives once, twice (two registrations) or three times (and a retry).
		const deliveries = ids.flatMap((id) =>
			Array.from({ length: 1 + Math.floor(random() * 3) }, () => id),
		);
		for (let i = deliveries.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[deliveries[i], deliveries[j]] = [deliveries[j], deliveries[i]];
		}
		const started: string[] = [];
		let forgeries = 0;
		for (const [n, id] of deliveries.entries()) {
			// A worker's overwrite; now and then the delivery lands where no copy of the record is.
			if (random() < 0.25) trigger.staticData = workerOverwrite(n);
			if (random() < 0.2) forgetRememberedRecords();
			if (random() < 0.1) {
				const forged = await trigger.receive({
					query: { secret: `${secret.startsWith('x') ? 'y' : 'x'}${secret.slice(1)}` },
					body: body(formId, `forged${n}`),
				});
				// Each forgery is refused, whatever state static data and process memory are in.
				expect([forged.res.statusCode, forged.items]).toEqual([401, []]);
				forgeries++;
			}
			const result = await trigger.receive({ query: { secret }, body: body(formId, id) });
			expect(result.res.statusCode).toBe(200);
			started.push(...result.items.map((item) => item.json.submissionId as string));
		}
		expect(deliveries.length).toBeGreaterThan(ids.length);
		expect(started.sort()).toEqual([...ids].sort());
		expect(forgeries).toBeGreaterThan(3);
	});
});

describe('a main restart (init) with the record lost', () => {
	it('registers no second webhook, logs the loss as an error, and deliveries keep working', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const [before] = await webhooksOf(h, formId);
		loseRecord(trigger, 3);
		const error = jest.spyOn(n8nLogger(), 'error');

		const restarted = filloutTrigger(h, formId, instanceUrl, { staticData: trigger.staticData });
		expect(await restarted.activate({ activation: 'init' })).toEqual({ existed: true });

		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([before.id]);
		expect(logged(error, 'no second one is registered')).toBe(1);
		expect(lostMark(restarted)).toEqual({
			production: { detectedAt: expect.any(String), detectedBy: 'restart' },
		});
		const delivery = await restarted.receive({
			query: { secret: secretIn(before.url as string)! },
			body: body(formId, 'i1'),
		});
		expect(delivery.items).toHaveLength(1);
		// A second restart (the mark or the worker's data still there) registers none either.
		forgetProcessMemory();
		const again = filloutTrigger(h, formId, instanceUrl, { staticData: restarted.staticData });
		expect(await again.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(await webhooksOf(h, formId)).toHaveLength(1);
	});

	it('a new leader in multi-main (leadershipChange) registers no second webhook either', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const [before] = await webhooksOf(h, formId);
		loseRecord(trigger, 2);
		jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);

		const leader = filloutTrigger(h, formId, instanceUrl, { staticData: trigger.staticData });
		expect(await leader.activate({ activation: 'leadershipChange' })).toEqual({ existed: true });

		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([before.id]);
		expect(lostMark(leader)).toEqual({
			production: { detectedAt: expect.any(String), detectedBy: 'restart' },
		});
	});

	it('a workflow that starts active with no static data at all (imported as active) gets its webhook', async () => {
		const formId = await freshForm(h.control);
		const imported = filloutTrigger(h, formId, instanceUrl);

		expect(await imported.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(imported).production!.webhookId,
		]);
	});
});

describe('unpublishing with the record lost', () => {
	it('on the main that registered it: the record comes back from its copy and the webhook is removed', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		trigger.staticData = workerOverwrite(); // the main keeps its copy
		const warn = jest.spyOn(n8nLogger(), 'warn');

		await trigger.deactivate();

		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger).production).toBeUndefined();
		expect(logged(warn, 'written back from this n8n process')).toBe(1);
	});

	it('re-publishing (n8n removes, then adds) on that main also leaves exactly one webhook', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		trigger.staticData = workerOverwrite();

		await trigger.deactivate();
		await trigger.activate({ activation: 'update' });

		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([
			slots(trigger).production!.webhookId,
		]);
	});

	it('after a restart: nothing can be removed (Fillout needs the id); said as an error naming what to do', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		loseRecord(trigger);
		const restarted = filloutTrigger(h, formId, instanceUrl, { staticData: trigger.staticData });
		await restarted.activate({ activation: 'init' });
		const error = jest.spyOn(n8nLogger(), 'error');

		expect(await restarted.deactivate()).toBe(true);

		expect(logged(error, 'nothing was removed at Fillout')).toBe(1);
		expect(logged(error, 'delete it in the form’s Integrations in Fillout')).toBe(1);
		// The documented limit: the webhook stays at Fillout until deleted there.
		expect(await webhooksOf(h, formId)).toHaveLength(1);
	});
});

describe('registrations made with another secret', () => {
	it('one from an earlier version (random secret): accepted while recorded, replaced by a derived one on the next start', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		// Turn the registration into what an earlier version left: a random secret.
		const old = slots(trigger).production!;
		await trigger.deactivate();
		const oldSecret = 'R'.repeat(43);
		const api = apiClient(h.sandbox.apiRoot, h.sandbox.demo.apiKey);
		const url = `${old.url}?secret=${oldSecret}`;
		const id = (await api.post('/webhook/create', { formId, url })).body.id as number;
		const legacy = filloutTrigger(h, formId, instanceUrl, {
			staticData: {
				[`node:${NODE_NAME}`]: { production: { ...old, webhookId: id, secret: oldSecret } },
			},
		});
		const accepted = await legacy.receive({
			query: { secret: oldSecret },
			body: body(formId, 'm1'),
		});
		expect(accepted.items).toHaveLength(1);

		expect(await legacy.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});

		const live = await webhooksOf(h, formId);
		expect(live.map((w) => w.id)).toEqual([slots(legacy).production!.webhookId]);
		expect(secretIn(live[0].url as string)).toBe(old.secret); // the derived one
		expect(live[0].id).not.toBe(id);
	});

	it('after the API key changed: the old secret is accepted while recorded; the next start re-registers with the new one', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const old = slots(trigger).production!;
		const rotated = filloutTrigger(h, formId, instanceUrl, {
			staticData: trigger.staticData,
			credentials: sandboxCredentials(h, OTHER_KEY),
		});
		const accepted = await rotated.receive({
			query: { secret: old.secret },
			body: body(formId, 'k1'),
		});
		expect(accepted.items).toHaveLength(1);

		expect(await rotated.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});

		const live = await webhooksOf(h, formId);
		expect(live).toHaveLength(1);
		const fresh = slots(rotated).production!;
		expect(fresh.secret).not.toBe(old.secret);
		expect(secretIn(live[0].url as string)).toBe(fresh.secret);
		// With the record lost, only the new secret opens the door.
		rotated.staticData = workerOverwrite();
		forgetProcessMemory();
		const stale = await rotated.receive({
			query: { secret: old.secret },
			body: body(formId, 'k2'),
		});
		expect(stale.res.statusCode).toBe(401);
		const current = await rotated.receive({
			query: { secret: fresh.secret },
			body: body(formId, 'k2'),
		});
		expect(current.items).toHaveLength(1);
	});
});

describe('OAuth2', () => {
	const oauth = (clientSecret?: string) => ({
		parameters: { authentication: 'oAuth2' },
		credentials: {
			filloutFormsOAuth2Api: {
				clientId: 'client-id',
				...(clientSecret === undefined ? {} : { clientSecret }),
				oauthTokenData: { access_token: OAUTH_TOKEN, base_url: h.sandbox.origin },
			},
		},
	});

	it('the secret is derived from the client secret, so deliveries survive the lost record', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl, oauth('oauth-client-secret'));
		await trigger.activate();
		const secret = await registeredSecret(formId);
		expect(secret).toBe(
			derivedSecret('oauth-client-secret', {
				workflowId: `workflow-${formId}`,
				nodeId: 'trigger-under-test',
				slot: 'production',
				formId,
			}),
		);
		loseRecord(trigger);
		const result = await trigger.receive({ query: { secret }, body: body(formId, 'o1') });
		expect(result.items).toHaveLength(1);
	});

	it('without a client secret: an n8n start keeps the recorded webhook (random secret) instead of replacing it', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl, oauth());
		jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
		await trigger.activate();
		const [webhook] = await webhooksOf(h, formId);

		const restarted = filloutTrigger(h, formId, instanceUrl, {
			...oauth(),
			staticData: trigger.staticData,
		});
		expect(await restarted.activate({ activation: 'init' })).toEqual({ existed: true });
		expect((await webhooksOf(h, formId)).map((w) => w.id)).toEqual([webhook.id]);
	});

	it('without a client secret: a random secret with a warning, and a lost record refuses deliveries with an error', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl, oauth());
		const warn = jest.spyOn(n8nLogger(), 'warn');
		await trigger.activate();
		const secret = await registeredSecret(formId);
		expect(logged(warn, 'no stable secret')).toBe(1);
		const error = jest.spyOn(n8nLogger(), 'error');
		loseRecord(trigger);

		const result = await trigger.receive({ query: { secret }, body: body(formId, 'o2') });

		expect([result.res.statusCode, result.items.length]).toEqual([401, 0]);
		expect(logged(error, 'every delivery is refused')).toBe(1);
		// And a restart registers a new webhook rather than trusting one it cannot verify.
		const restarted = filloutTrigger(h, formId, instanceUrl, {
			...oauth(),
			staticData: trigger.staticData,
		});
		expect(await restarted.activate({ activation: 'init' })).toEqual({
			existed: false,
			created: true,
		});
	});
});
