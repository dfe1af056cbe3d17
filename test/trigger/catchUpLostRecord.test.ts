/**
 * The main process restarts while static data holds no catch-up record (a queue-mode
 * worker's save of an execution that did not carry it wiped it), and a webhook process
 * still holds the record in its memory: the record it holds must win over the one the
 * restart starts, or what it has not run yet would count as run. In these tests one
 * process memory plays both: the main's (empty at its start), then the webhook process's.
 */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import {
	CATCH_UP_KEY,
	readCatchUpRecord,
	type CatchUpRecord,
} from '../../nodes/Fillout/catchUp/catchUpRecord';
import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import type { TriggerHarness } from '../harness';
import { freshForm } from '../sandbox/support';
import { MINUTE, useCatchUp } from './support/catchUp';
import { NODE_NAME } from './support';

const { h, endpoint: endpointOf, published, start, backdate, respond, ran } = useCatchUp();

/** The trigger's node static data as n8n holds it now. */
const nodeData = (trigger: TriggerHarness) =>
	trigger.staticData[`node:${NODE_NAME}`] as IDataObject;

describe('a restart that finds no catch-up record in static data', () => {
	it('lets the record a webhook process holds win, so what it missed still runs', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const first = await start(trigger, 'activate');
		backdate(trigger, 10 * MINUTE);
		const held = deepCopy(nodeData(trigger)[CATCH_UP_KEY]) as unknown as CatchUpRecord;

		// The main stops; a submission is not delivered meanwhile (its address answers 404).
		await first.close();
		endpointOf().trigger = undefined;
		const missed = await respond(formId, 3 * MINUTE);
		// Another execution's worker saved static data without the record.
		delete nodeData(trigger)[CATCH_UP_KEY];

		// The main starts again (its memory empty) and starts a record of its own.
		endpointOf().trigger = trigger;
		const again = await start(trigger, 'init');
		const [key] = [...processMemory.catchUpRecords.keys()];
		expect(readCatchUpRecord(nodeData(trigger)[CATCH_UP_KEY], formId)).toBeDefined();
		// The check runs in the webhook process, whose memory still holds the record.
		processMemory.catchUpRecords.set(key, held);
		await again.tick();
		expect(await ran()).toEqual([missed]);
		expect((nodeData(trigger)[CATCH_UP_KEY] as IDataObject).runId).toBe(held.runId);
	});

	it('starts from Fillout’s present when no process holds a record (as a publish does)', async () => {
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const first = await start(trigger, 'activate');
		await first.close();
		delete nodeData(trigger)[CATCH_UP_KEY];
		processMemory.catchUpRecords.clear();
		const beforeMs = Date.now();
		const again = await start(trigger, 'init');
		const record = readCatchUpRecord(nodeData(trigger)[CATCH_UP_KEY], formId)!;
		expect(record.windowStartMs).toBeGreaterThanOrEqual(beforeMs - 1000);
		// Nothing made before it runs; what comes after does, by its delivery.
		const next = await respond(formId, 0);
		await again.tick();
		expect(await ran()).toEqual([next]);
	});
});
