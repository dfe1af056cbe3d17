/**
 * The record riding with each execution: a queue-mode worker starts with empty static
 * data and, when a node after the trigger writes some, saves its object over the
 * workflow's whole static data. The trigger's record must be in that object. The
 * execution runs in n8n-core's real engine as a worker runs it (runAsWorker), the
 * deliveries and hooks in n8n-core's real contexts, all against the sandbox.
 */
import { createHmac } from 'node:crypto';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import {
	SIGNED_RECORD_KEY,
	setWithoutMarkingChange,
	takeSignedRecord,
	withSignedRecord,
} from '../../nodes/Fillout/webhookTrigger/signedRecord';
import type { WebhookRecord } from '../../nodes/Fillout/webhookTrigger/webhookRecord';
import type { TriggerHarness } from '../harness';
import { HarnessNodeTypes } from '../harness/nodeTypes';
import { runAsWorker } from '../harness';
import { freshForm, type Harness } from '../sandbox/support';
import { sha256 } from '../support/hash';
import {
	filloutTrigger,
	n8nLogger,
	NODE_NAME,
	slots,
	useTriggerSandbox,
	webhooksOf,
	forgetProcessMemory,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const NODE_KEY = `node:${NODE_NAME}`;
/** The trigger node's id in the harness's workflows. */
const NODE_ID = 'trigger-under-test';

const record: WebhookRecord = {
	webhookId: 41,
	formId: 'form-a',
	formName: 'A form',
	url: 'https://n8n.example.com/webhook/abc/webhook',
	secret: 'S'.repeat(43),
	apiRoot: 'https://api.fillout.com/v1/api',
	createdAt: '2026-11-26T00:00:00.000Z',
};

const body = (formId: string, submissionId: string) => ({
	formId,
	formName: 'Test form',
	submission: { submissionId, questions: [] },
});

const hmac = (key: string, text: string) =>
	createHmac('sha256', key).update(text).digest('base64url');

/**
 * A carried record signed as docs/trigger-static-data.md states, computed here and not
 * by the code under test: an HMAC keyed by a key derived from the API key for the
 * trigger (workflow, node, production slot, `keyFormId`).
 */
function signedWithCredential(
	fields: Omit<WebhookRecord, 'secret'> & { secretFingerprint: string },
	workflowId: string,
	apiKey: string,
	keyFormId = fields.formId,
) {
	const recordKey = hmac(
		apiKey,
		JSON.stringify([
			'n8n-nodes-fillout-forms/carried-record-key/v1',
			workflowId,
			NODE_ID,
			'production',
			keyFormId,
		]),
	);
	const signature = hmac(
		recordKey,
		JSON.stringify([
			'n8n-nodes-fillout-forms/carried-record/v1',
			workflowId,
			NODE_ID,
			fields.webhookId,
			fields.formId,
			fields.formName ?? null,
			fields.url,
			fields.apiRoot,
			fields.createdAt,
			fields.secretFingerprint,
		]),
	);
	return { ...fields, signature };
}

/** The record a delivery must carry: without its secret, with the secret's SHA-256. */
function expectedCarried(production: WebhookRecord, workflowId: string, apiKey: string) {
	const rest: Partial<WebhookRecord> = { ...production };
	delete rest.secret;
	// The owner fields are not carried: the signature binds the workflow and node.
	delete rest.workflowId;
	delete rest.nodeId;
	const fields = {
		...(rest as Omit<WebhookRecord, 'secret'>),
		secretFingerprint: sha256(production.secret, 'base64url'),
	};
	return signedWithCredential(fields, workflowId, apiKey);
}

describe('the carrier, as data', () => {
	const carried = {
		webhookId: 41,
		formId: 'form-a',
		url: record.url,
		apiRoot: record.apiRoot,
		createdAt: record.createdAt,
		secretFingerprint: 'F'.repeat(43),
		signature: 'G'.repeat(43),
	};

	it('rides on the first item only, beside json', () => {
		const items: INodeExecutionData[] = [{ json: { a: 1 } }, { json: { b: 2 } }];
		const sent = withSignedRecord(items, carried);

		expect(sent[0]).toEqual({ json: { a: 1 }, [SIGNED_RECORD_KEY]: carried });
		expect(sent[1]).toBe(items[1]);
		expect(items[0]).toEqual({ json: { a: 1 } });
		expect(withSignedRecord([], carried)).toEqual([]);
	});

	it('is taken off every item, and handed over as it came', () => {
		const items = [
			{ json: { a: 1 }, [SIGNED_RECORD_KEY]: { ...carried } },
			{ json: {}, [SIGNED_RECORD_KEY]: 'stray' as unknown as IDataObject },
		];
		expect(takeSignedRecord(items)).toEqual({
			items: [{ json: { a: 1 } }, { json: {} }],
			signed: carried,
		});
		const plain = [{ json: { x: 1 } }];
		expect(takeSignedRecord(plain)).toEqual({ items: plain });
		expect(takeSignedRecord(plain).items[0]).toBe(plain[0]);
	});

	it('placed unnoticed, it is saved only with a change that something else makes', () => {
		const workflow = new Workflow({
			nodes: [],
			connections: {},
			active: true,
			nodeTypes: new HarnessNodeTypes(),
			staticData: {},
		});
		const nodeData = workflow.getStaticData('node', { name: NODE_NAME } as never);
		setWithoutMarkingChange(nodeData, 'production', { ...record } as unknown as IDataObject);
		expect(workflow.staticData.__dataChanged).toBe(false);

		workflow.getStaticData('global').count = 1;
		expect(workflow.staticData.__dataChanged).toBe(true);
		expect(JSON.parse(JSON.stringify(workflow.staticData))).toEqual({
			global: { count: 1 },
			[NODE_KEY]: { production: record },
		});
	});
});

async function publishedTrigger(formId: string): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	return trigger;
}

/** A trigger published on a fresh form, and one delivery from its registration. */
async function publishedAndDelivered(submissionId: string) {
	const formId = await freshForm(h.control);
	const trigger = await publishedTrigger(formId);
	const production = slots(trigger).production!;
	const delivery = await trigger.receive({
		query: { secret: production.secret },
		body: body(formId, submissionId),
	});
	return { trigger, production, delivery };
}

describe('a worker that saves static data saves the record with it', () => {
	it('the delivery carries the record without its secret; the trigger outputs the submission alone', async () => {
		const { trigger, production, delivery } = await publishedAndDelivered('c1');

		expect(delivery.items[0][SIGNED_RECORD_KEY]).toEqual(
			expectedCarried(production, `workflow-${production.formId}`, h.sandbox.demo.apiKey),
		);
		expect(JSON.stringify(delivery.items)).not.toContain(production.secret);
		const run = await runAsWorker(trigger, delivery.items);
		expect(run.triggerOutput.map((item) => Object.keys(item).sort())).toEqual([
			['json', 'pairedItem'],
		]);
		expect(run.triggerOutput[0].json).toEqual(delivery.items[0].json);
		// Nothing else wrote static data: the worker saves nothing, as before.
		expect(run.saved).toBeUndefined();
	});

	it('a node that counts in global static data: the saved object holds the count and the record, secret included', async () => {
		const { trigger, production, delivery } = await publishedAndDelivered('c2');

		const run = await runAsWorker(trigger, delivery.items, { counts: true });

		expect(run.saved).toEqual({ global: { count: 1 }, [NODE_KEY]: { production } });
	});

	it('with Download Files on, the record rides the same way and the worker saves it', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl, {
			parameters: { downloadFiles: true },
		});
		await trigger.activate();
		const production = slots(trigger).production!;
		const delivery = await trigger.receive({
			query: { secret: production.secret },
			body: body(formId, 'files-on'),
		});
		expect(delivery.res.body).toEqual({ message: 'Workflow was started' });
		expect(delivery.items[0][SIGNED_RECORD_KEY]).toEqual(
			expectedCarried(production, `workflow-${formId}`, h.sandbox.demo.apiKey),
		);

		const run = await runAsWorker(trigger, delivery.items, { counts: true });

		expect(run.saved).toEqual({ global: { count: 1 }, [NODE_KEY]: { production } });
	});

	it('static data that already holds the slot (an execution in the main process) keeps what it holds', async () => {
		const { trigger, production, delivery } = await publishedAndDelivered('c3');
		const held = { [NODE_KEY]: { production: { ...production, formName: 'as loaded' } } };

		const run = await runAsWorker(trigger, delivery.items, { counts: true, staticData: held });

		expect(run.saved).toEqual({ global: { count: 1 }, ...held });
	});

	it('test deliveries carry nothing; a record whose secret is not derived is not put back', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		await trigger.activate({ mode: 'manual', activation: 'manual' });
		const { test } = slots(trigger);
		const testDelivery = await trigger.receive(
			{ query: { secret: test!.secret }, body: body(formId, 't1') },
			{ mode: 'manual' },
		);
		expect(testDelivery.items).toHaveLength(1);
		expect(testDelivery.items[0][SIGNED_RECORD_KEY]).toBeUndefined();

		// A registration made before secrets were derived: its record holds a random one.
		const legacy = { ...slots(trigger).production!, secret: 'L'.repeat(43) };
		trigger.staticData = { [NODE_KEY]: { production: legacy } };
		const old = await trigger.receive({
			query: { secret: legacy.secret },
			body: body(formId, 't2'),
		});
		expect(old.items).toHaveLength(1);
		expect(old.items[0][SIGNED_RECORD_KEY]).toBeUndefined();
		const run = await runAsWorker(trigger, old.items, { counts: true });
		expect(run.saved?.global).toEqual({ count: 1 });
		expect(slots(run.saved!).production).toBeUndefined();
	});

	it('the issue’s workflow: deliveries, worker overwrites, main and webhook-processor restarts, unpublish removes the webhook at Fillout', async () => {
		const formId = await freshForm(h.control);
		const trigger = await publishedTrigger(formId);
		const { production } = slots(trigger);
		const error = jest.spyOn(n8nLogger(), 'error');
		const deliverAndRun = async (submissionId: string) => {
			const delivery = await trigger.receive({
				query: { secret: production!.secret },
				body: body(formId, submissionId),
			});
			expect(delivery.items.map((item) => item.json.submissionId)).toEqual([submissionId]);
			const run = await runAsWorker(trigger, delivery.items, { counts: true });
			// The worker's save replaces the workflow's whole static data (it counted from none).
			trigger.staticData = run.saved!;
			expect(trigger.staticData).toEqual({ global: { count: 1 }, [NODE_KEY]: { production } });
		};

		await deliverAndRun('s1');
		await deliverAndRun('s2');
		forgetProcessMemory(); // the main restarts
		expect(await trigger.activate({ activation: 'init' })).toEqual({ existed: true });
		await deliverAndRun('s3');
		forgetProcessMemory(); // the webhook processor restarts
		await deliverAndRun('s4');
		expect(await webhooksOf(h, formId)).toHaveLength(1);

		await trigger.deactivate();
		expect(await webhooksOf(h, formId)).toEqual([]);
		expect(slots(trigger).production).toBeUndefined();
		expect(error.mock.calls.filter(([message]) => String(message).includes('lost'))).toEqual([]);
	});
});

describe('only a record signed with the credential, for this node and its form, is put back', () => {
	/** A genuine delivery's items, and a way to run them with the carried record changed. */
	async function genuine(submissionId: string) {
		const { trigger, production, delivery } = await publishedAndDelivered(submissionId);
		const carried = delivery.items[0][SIGNED_RECORD_KEY] as IDataObject;
		const runWith = async (changed: unknown, on: TriggerHarness = trigger) =>
			await runAsWorker(
				on,
				[{ json: delivery.items[0].json, [SIGNED_RECORD_KEY]: changed as IDataObject }],
				{
					counts: true,
				},
			);
		return { trigger, production, carried, runWith };
	}

	it('the genuine record is put back; a change to any one field makes it refused', async () => {
		const { production, carried, runWith } = await genuine('f1');
		expect((await runWith(carried)).saved).toEqual({
			global: { count: 1 },
			[NODE_KEY]: { production },
		});
		const changes: Record<string, unknown> = {
			webhookId: 42_424,
			formId: 'another-form',
			formName: 'Another name',
			url: 'https://attacker.example/webhook',
			apiRoot: 'https://attacker.example/v1/api',
			createdAt: '2020-01-01T00:00:00.000Z',
			secretFingerprint: 'A'.repeat(43),
			signature: 'A'.repeat(43),
		};
		for (const [field, value] of Object.entries(changes)) {
			const run = await runWith({ ...carried, [field]: value });
			expect({ field, saved: run.saved }).toEqual({ field, saved: { global: { count: 1 } } });
		}
		for (const malformed of [
			null,
			'x',
			{},
			{ ...carried, webhookId: '' },
			{ ...carried, signature: 7 },
		]) {
			expect((await runWith(malformed)).saved).toEqual({ global: { count: 1 } });
		}
	});

	it('another workflow’s trigger on the same form, with the same credential: its record is refused', async () => {
		const { carried, production } = await genuine('f2');
		const other = filloutTrigger(h, production.formId, instanceUrl, {
			workflowId: 'another-workflow',
		});

		const run = await runAsWorker(other, [{ json: {}, [SIGNED_RECORD_KEY]: carried }], {
			counts: true,
		});

		expect(run.saved).toEqual({ global: { count: 1 } });
	});

	it('the same node once set to another form: a record of that form is refused', async () => {
		const { carried, trigger } = await genuine('f3');
		const otherForm = await freshForm(h.control);
		// The same workflow and node, now watching another form.
		const moved = filloutTrigger(h, otherForm, instanceUrl, {
			workflowId: `workflow-${String(carried.formId)}`,
			staticData: trigger.staticData,
		});

		const run = await runAsWorker(moved, [{ json: {}, [SIGNED_RECORD_KEY]: carried }], {
			counts: true,
		});

		expect(run.saved).toEqual({ global: { count: 1 } });
	});

	it('even signed with the credential’s key, a record naming another form or a secret that is not derived is refused', async () => {
		const { trigger, production, carried, runWith } = await genuine('f4');
		const workflowId = `workflow-${production.formId}`;
		const apiKey = h.sandbox.demo.apiKey;
		const fields = { ...(carried as unknown as Parameters<typeof signedWithCredential>[0]) };
		// The test's own signature of the genuine fields is the delivery's.
		expect(signedWithCredential(fields, workflowId, apiKey)).toEqual(carried);

		const otherForm = { ...fields, formId: 'another-form' };
		const keyedForThisForm = signedWithCredential(otherForm, workflowId, apiKey, production.formId);
		const notDerived = signedWithCredential(
			{ ...fields, secretFingerprint: sha256('L'.repeat(43), 'base64url') },
			workflowId,
			apiKey,
		);
		for (const forged of [keyedForThisForm, notDerived]) {
			expect((await runWith(forged, trigger)).saved).toEqual({ global: { count: 1 } });
		}
	});
});
