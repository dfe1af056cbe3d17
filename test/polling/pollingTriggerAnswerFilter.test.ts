/**
 * The Fillout Polling Trigger's answer filter in n8n-core's real PollContext against the
 * sandbox over HTTP: matching submissions emitted once, the others never, and the cursor
 * moving over both.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { control, newForm, useSandbox } from '../nodes/integration/support';
import { countingRequests, idsOf, pollingTrigger, secondsAgo } from './support';

const sandbox = useSandbox();

afterEach(async () => {
	await control(sandbox(), 'DELETE', '/faults');
});

const parameterIds = new Map<string, string>();

async function formWithEmail(): Promise<string> {
	const form = await newForm(sandbox(), {
		questions: [
			{ name: 'Email', type: 'EmailInput' },
			{ name: 'Comments', type: 'LongAnswer' },
		],
		urlParameters: ['order'],
	});
	parameterIds.set(form.id as string, (form.urlParameters as IDataObject[])[0].id as string);
	return form.id as string;
}

async function respond(
	formId: string,
	answers: IDataObject,
	options: { secondsAgo?: number; status?: 'in_progress' } = {},
): Promise<string> {
	const answer = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
		fillUnanswered: false,
		answers,
		...(options.status ? { status: options.status } : {}),
		submission: { submissionTime: secondsAgo(options.secondsAgo ?? 1).toISOString() },
	});
	return answer.submission.submissionId as string;
}

const onlyVip = (extra: INodeParameters = {}): INodeParameters => ({
	filters: { answer: { filter: { question: 'Email', condition: 'equals', value: 'VIP@x.com' } } },
	...extra,
});

/** The cursor in the trigger's static data (n8n keeps it under the node's key). */
function cursorOf(data: IDataObject | undefined): {
	newestMs: number;
	seen: Record<string, number>;
} {
	const nodes = Object.values(data ?? {}) as IDataObject[];
	const state = nodes.map((node) => node?.pollState).find((value) => value !== undefined);
	if (state === undefined) throw new Error(`No cursor in ${JSON.stringify(data)}`);
	return state as { newestMs: number; seen: Record<string, number> };
}

describe('Fillout Polling Trigger → Filters → Answer', () => {
	it('emits matching submissions once and the others never; the cursor moves over both', async () => {
		const formId = await formWithEmail();
		const trigger = pollingTrigger(sandbox(), formId, onlyVip());
		await trigger.activate();
		const a = await respond(formId, { Email: 'vip@x.com' }, { secondsAgo: 4 });
		// The value in another question (b), or inside a longer address (c): no match.
		const b = await respond(
			formId,
			{ Email: 'ann@y.com', Comments: 'vip@x.com' },
			{ secondsAgo: 3 },
		);
		const c = await respond(formId, { Email: 'not-vip@x.com' }, { secondsAgo: 2 });
		const d = await respond(formId, { Email: ' VIP@X.COM' }, { secondsAgo: 1 });

		const polled = await countingRequests(sandbox(), () => trigger.poll());
		expect(idsOf(polled.result.items)).toEqual([a, d]);
		// The form is read for the filter once the poll has something to emit.
		expect([polled.list, polled.metadata]).toEqual([1, 1]);
		const cursor = cursorOf(trigger.liveStaticData);
		expect(Object.keys(cursor.seen).sort()).toEqual([a, b, c, d].sort());

		// The newest ones do not match: the cursor still moves past them.
		const e = await respond(formId, { Email: 'other@x.com' });
		const quiet = await countingRequests(sandbox(), () => trigger.poll());
		expect(quiet.result.items).toBeNull();
		expect([quiet.list, quiet.metadata]).toEqual([1, 1]);
		const after = cursorOf(trigger.liveStaticData);
		expect(after.seen[e]).toBeDefined();
		expect(after.newestMs).toBeGreaterThanOrEqual(after.seen[e]);

		// An idle poll reads no form; nothing handled comes back.
		const idle = await countingRequests(sandbox(), () => trigger.poll());
		expect(idle.result.items).toBeNull();
		expect([idle.list, idle.metadata]).toEqual([1, 0]);
		const f = await respond(formId, { Email: 'vip@x.com' });
		expect(idsOf((await trigger.poll()).items)).toEqual([f]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('after a restart from an older saved cursor, the non-matching ones are still never emitted', async () => {
		const formId = await formWithEmail();
		const trigger = pollingTrigger(sandbox(), formId, onlyVip());
		await trigger.activate();
		const a = await respond(formId, { Email: 'vip@x.com' }, { secondsAgo: 3 });
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		await respond(formId, { Email: 'nobody@x.com' }, { secondsAgo: 2 });
		expect((await trigger.poll()).items).toBeNull();
		trigger.restart();
		const b = await respond(formId, { Email: 'vip@x.com' });
		expect(idsOf((await trigger.activate('init')).items)).toEqual([b]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a backfill emits only the matching ones; a URL parameter by name works too', async () => {
		const formId = await formWithEmail();
		const ids: string[] = [];
		for (let i = 0; i < 30; i++) {
			const value = i % 7 === 0 ? '1042' : `x${i}`;
			const answer = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
				fillUnanswered: false,
				answers: { Email: `p${i}@x.com` },
				submission: {
					submissionTime: secondsAgo(100 - i).toISOString(),
					urlParameters: [{ id: parameterIds.get(formId), name: 'order', value }],
				},
			});
			if (value === '1042') ids.push(answer.submission.submissionId as string);
		}
		const trigger = pollingTrigger(sandbox(), formId, {
			startFrom: 'beginning',
			filters: { answer: { filter: { question: 'order', condition: 'equals', value: '1042' } } },
		});
		expect(idsOf((await trigger.activate()).items)).toEqual(ids);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('in-progress submissions are filtered too', async () => {
		const formId = await formWithEmail();
		const trigger = pollingTrigger(sandbox(), formId, onlyVip({ inProgress: 'once' }));
		await trigger.activate();
		const started = await respond(formId, { Email: 'vip@x.com' }, { status: 'in_progress' });
		await respond(formId, { Email: 'someone@x.com' }, { status: 'in_progress' });
		const polled = await trigger.poll();
		expect(idsOf(polled.items)).toEqual([started]);
		expect(polled.items?.[0].json.status).toBe('in_progress');
	});

	it('Fetch Test Event gives the newest matching submission', async () => {
		const formId = await formWithEmail();
		const older = await respond(formId, { Email: 'vip@x.com' }, { secondsAgo: 5 });
		await respond(formId, { Email: 'late@x.com', Comments: 'vip@x.com' }, { secondsAgo: 1 });
		// 300 newer ones: Fillout's search narrows the read to the two that hold the value.
		await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
			count: 300,
			startTime: secondsAgo(4).toISOString(),
			stepMs: 1,
		});
		const trigger = pollingTrigger(sandbox(), formId, onlyVip());
		const sample = await countingRequests(sandbox(), () => trigger.fetchTestEvent());
		expect(idsOf(sample.result.items)).toEqual([older]);
		expect(sample.list).toBe(1);
	});

	it('an unknown question fails the poll, naming it; the cursor stays', async () => {
		const formId = await formWithEmail();
		const trigger = pollingTrigger(sandbox(), formId, {
			filters: { answer: { filter: { question: 'E-mail', condition: 'isEmpty' } } },
		});
		await trigger.activate();
		const before = JSON.stringify(cursorOf(trigger.liveStaticData));
		await respond(formId, { Email: '' });
		const failed = await trigger.poll();
		expect(failed.error?.message).toMatch(/has no question or URL parameter "E-mail"/);
		expect(JSON.stringify(cursorOf(trigger.liveStaticData))).toBe(before);
	});
});
