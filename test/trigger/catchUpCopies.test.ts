/**
 * The record's copies: process memory, static data (which another process may have
 * written) and a check whose listing outlives its record (a publish meanwhile).
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	CATCH_UP_KEY,
	keptDelivered,
	mergeRecords,
	startRecord,
	storedForm,
} from '../../nodes/Fillout/catchUp/catchUpRecord';
import { KNOCK_HEADER } from '../../nodes/Fillout/catchUp/knock';
import { currentRecord, saveRecord } from '../../nodes/Fillout/catchUp/recordAccess';
import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import { startTrigger } from '../harness/triggers';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	NODE_NAME,
	slots,
	useTriggerSandbox,
} from './support';

const FORM = 'form1';
const T0 = Date.parse('2026-03-01T12:00:00.000Z');

const context = (data: IDataObject) =>
	({
		getWorkflow: () => ({ id: 'workflow1' }),
		getNode: () => ({ id: 'node1', name: 'Fillout Trigger' }),
		getWorkflowStaticData: () => data,
	}) as unknown as IWebhookFunctions;

beforeEach(forgetProcessMemory);

describe('copies of one record', () => {
	it('reads memory merged with what another process saved in static data', () => {
		const data: IDataObject = {};
		const mine = { ...startRecord(FORM, null, T0, 'run1'), seen: { a: T0 + 1 } };
		saveRecord(context(data), data, mine);
		// Another webhook process delivered b and saved its copy.
		data[CATCH_UP_KEY] = storedForm({ ...mine, seen: {}, delivered: { b: T0 + 5 } });
		const record = currentRecord(context(data), data, FORM)!;
		expect(record.seen).toEqual({ a: T0 + 1 });
		expect(record.delivered).toEqual({ b: T0 + 5 });
	});

	it('keeps the later receipt of an id both copies hold, and a receipt at the bound', () => {
		const a = { ...startRecord(FORM, null, T0, 'run1'), delivered: { d: 5 } };
		const b = { ...startRecord(FORM, null, T0, 'run1'), delivered: { d: 9 } };
		expect(mergeRecords(a, b).delivered).toEqual({ d: 9 });
		expect(mergeRecords(b, a).delivered).toEqual({ d: 9 });
		expect(keptDelivered({ at: 5, before: 4 }, 5)).toEqual({ at: 5 });
	});
});

describe('a check whose record was replaced while it listed', () => {
	const env = useTriggerSandbox();
	let h: Harness;
	let instanceUrl: string;
	beforeAll(() => ({ h, instanceUrl } = env));
	afterEach(async () => {
		await h.control.delete('/faults');
	});

	it('runs nothing of its listing and leaves the new record as it is', async () => {
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		await (await startTrigger(trigger, 'activate')).close();
		const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
		const old = node[CATCH_UP_KEY] as IDataObject;
		for (const key of ['windowStartMs', 'newestMs', 'startedAt']) {
			old[key] = (old[key] as number) - 3_600_000;
		}
		processMemory.catchUpRecords.clear();
		const submissionTime = new Date(Date.now() - 600_000).toISOString();
		await h.control.post(`/forms/${formId}/respond`, { submission: { submissionTime } });

		// The listing takes a while; meanwhile the workflow is published again (a new start).
		await h.control.post('/faults', { latencyMs: 1500 });
		const secret = slots(trigger).production!.secret;
		const knock = trigger.receive({
			query: { secret },
			headers: { [KNOCK_HEADER]: '1' },
			body: {},
		});
		await sleep(300);
		const fresh = startRecord(formId, null, Date.now(), 'run2');
		// The trigger's key in process memory: its workflow and node (processMemory.ts).
		const key = `workflow-${formId}\ntrigger-under-test`;
		processMemory.catchUpRecords.set(key, fresh);
		const answered = await knock;

		expect(answered.items).toEqual([]);
		expect(processMemory.catchUpRecords.get(key)).toEqual(fresh);
	});
});
