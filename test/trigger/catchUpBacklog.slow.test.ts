/**
 * A long downtime: 10,000 submissions the webhook never delivered, caught up completely
 * over real HTTP (sandbox at Fillout's 5 requests a second), in submission order, each
 * once, in as few executions as MAX_PER_CHECK allows, reading each page about once.
 */
import type { IDataObject } from 'n8n-workflow';

import { CATCH_UP_KEY } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { KNOCK_HEADER } from '../../nodes/Fillout/catchUp/knock';
import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import { startTrigger } from '../harness/triggers';
import { freshForm, useHarness } from '../sandbox/support';
import { filloutTrigger, forgetProcessMemory, NODE_NAME, slots } from './support';

const h = useHarness({ rateLimit: 5, quiet: true });
const MISSED = 10_000;
const HOUR = 3_600_000;

it('runs 10,000 missed submissions once each, oldest first, in 2 executions and about one read of each page', async () => {
	forgetProcessMemory();
	const formId = await freshForm(h.control);
	const trigger = filloutTrigger(h, formId, 'https://n8n.example.com');
	await trigger.activate();
	const running = await startTrigger(trigger, 'activate');
	// As if published two hours ago (record and webhook); the backlog in the last hour.
	const node = trigger.staticData[`node:${NODE_NAME}`] as IDataObject;
	(node.production as IDataObject).createdAt = new Date(Date.now() - 2 * HOUR).toISOString();
	processMemory.webhookRecords.clear();
	const record = node[CATCH_UP_KEY] as IDataObject;
	for (const key of ['windowStartMs', 'newestMs', 'startedAt']) {
		record[key] = (record[key] as number) - 2 * HOUR;
	}
	processMemory.catchUpRecords.clear();
	const generated = await h.control.post(`/forms/${formId}/generate`, {
		count: MISSED,
		startTime: new Date(Date.now() - HOUR).toISOString(),
		stepMs: 300,
	});
	const expected = (generated.body as { submissionIds: string[] }).submissionIds;
	await h.control.post('/stats/reset');

	const secret = slots(trigger).production!.secret;
	const runIds: unknown[] = [];
	let executions = 0;
	const started = performance.now();
	for (let knock = 0; knock < 5; knock++) {
		processMemory.catchUpChecks.clear();
		const answer = await trigger.receive({
			query: { secret },
			headers: { [KNOCK_HEADER]: '1' },
			body: {},
		});
		if (answer.items.length > 0) executions++;
		runIds.push(...answer.items.map((item) => item.json.submissionId));
		if ((answer.res.body as IDataObject).more !== true) break;
	}
	const wallS = (performance.now() - started) / 1000;
	const stats = (await h.control.get('/stats')).body as { requests: Record<string, number> };
	const lists = Object.entries(stats.requests)
		.filter(([route]) => route.startsWith('GET ') && route.endsWith('/submissions'))
		.reduce((sum, [, count]) => sum + count, 0);
	await running.close();

	expect(runIds).toEqual(expected);
	expect(executions).toBe(2);
	// 67 pages of 150, and each later check re-reads the late window (10 minutes: 2,000
	// of these, 14 pages) to find rows Fillout lists late: the second check and the last.
	expect(lists).toBeLessThanOrEqual(Math.ceil(MISSED / 150) + 2 * 14);
	// The backlog is older than the webhook registered after the first check: once.
	expect(stats.requests['POST /v1/api/webhook/create']).toBe(1);
	// Printed, never judged: speed is the benchmarks' to judge.
	process.stdout.write(`catch-up of ${MISSED}: ${lists} list requests, ${wallS.toFixed(1)} s\n`);
}, 180_000);
