/**
 * The catch-up record riding with each execution: a queue-mode worker starts with empty
 * static data and, when another node writes some, saves its copy over the workflow's. The
 * record must be in that copy, or a restart after it would begin catch-up again from the
 * restart and lose what was missed meanwhile. Real n8n-core engine (runAsWorker), sandbox.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { CARRIED_CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/carriedRecord';
import { CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { SIGNED_RECORD_KEY } from '../../nodes/Fillout/webhookTrigger/signedRecord';
import { runAsWorker } from '../harness';
import { startTrigger } from '../harness/triggers';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	NODE_NAME,
	slots,
	useTriggerSandbox,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const NODE_KEY = `node:${NODE_NAME}`;

const body = (formId: string, submissionId: string) => ({
	formId,
	formName: 'Test form',
	submission: { submissionId, questions: [] },
});

async function deliveredWithCatchUp(submissionId: string) {
	const formId = await freshForm(h.control);
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	const running = await startTrigger(trigger, 'activate');
	await running.close();
	const { secret } = slots(trigger).production!;
	const delivery = await trigger.receive({ query: { secret }, body: body(formId, submissionId) });
	expect(delivery.items).toHaveLength(1);
	return { trigger, delivery };
}

describe('the catch-up record riding with each execution', () => {
	it('is saved by a worker whose execution writes static data, with the delivery marked', async () => {
		const { trigger, delivery } = await deliveredWithCatchUp('d1');
		const stored = (trigger.staticData[NODE_KEY] as IDataObject)[CATCH_UP_KEY] as IDataObject;
		expect(stored.delivered).toHaveProperty('d1');

		const run = await runAsWorker(trigger, delivery.items, { counts: true });

		const saved = run.saved?.[NODE_KEY] as IDataObject;
		expect(saved[CATCH_UP_KEY]).toEqual(stored);
		expect(run.triggerOutput.map((item) => Object.keys(item).sort())).toEqual([
			['json', 'pairedItem'],
		]);
	});

	it('costs no save when nothing else writes static data', async () => {
		const { trigger, delivery } = await deliveredWithCatchUp('d2');
		const run = await runAsWorker(trigger, delivery.items);
		expect(run.saved).toBeUndefined();
	});

	it('is not placed when altered on the way (a later window would skip submissions)', async () => {
		const { trigger, delivery } = await deliveredWithCatchUp('d3');
		const carried = delivery.items[0][CARRIED_CATCH_UP_KEY] as { record: IDataObject };
		const altered: INodeExecutionData[] = [
			{
				...delivery.items[0],
				[CARRIED_CATCH_UP_KEY]: {
					...carried,
					record: { ...carried.record, windowStartMs: Date.now() + 86_400_000 },
				},
			},
		];
		const run = await runAsWorker(trigger, altered, { counts: true });
		expect(run.saved?.[NODE_KEY]).not.toHaveProperty(CATCH_UP_KEY);
		// The webhook record, signed apart, still rides.
		expect(delivery.items[0][SIGNED_RECORD_KEY]).toBeDefined();
		expect(run.saved?.[NODE_KEY]).toHaveProperty('production');
	});

	it('keeps what static data holds already (an execution in the main process)', async () => {
		const { trigger, delivery } = await deliveredWithCatchUp('d4');
		const held = { [NODE_KEY]: { [CATCH_UP_KEY]: { mine: true } } };
		const run = await runAsWorker(trigger, delivery.items, { counts: true, staticData: held });
		expect((run.saved?.[NODE_KEY] as IDataObject)[CATCH_UP_KEY]).toEqual({ mine: true });
	});

	it('carries only the window when the record is large: a restore may repeat, never skip', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		await (await startTrigger(trigger, 'activate')).close();
		const stored = (trigger.staticData[NODE_KEY] as IDataObject)[CATCH_UP_KEY] as IDataObject;
		stored.delivered = Object.fromEntries(
			Array.from({ length: 3000 }, (_, i) => [`earlier-delivery-${i}`, Date.now()]),
		);
		forgetProcessMemory();
		const { secret } = slots(trigger).production!;
		const delivery = await trigger.receive({ query: { secret }, body: body(formId, 'big') });
		const carried = delivery.items[0][CARRIED_CATCH_UP_KEY] as { record: IDataObject };
		expect(carried.record.delivered).toEqual({});
		expect(carried.record.seen).toEqual({});
		expect(carried.record.windowStartMs).toBe(stored.windowStartMs);
		const run = await runAsWorker(trigger, delivery.items, { counts: true });
		expect((run.saved?.[NODE_KEY] as IDataObject)[CATCH_UP_KEY]).toEqual(carried.record);
	});
});
