/**
 * The Fillout Polling Trigger in n8n-core's real PollContext against the sandbox over
 * HTTP: which submissions each poll emits (exact ids) and what it costs (exact requests).
 */
import { n8nLogger } from '../trigger/support';
import { control, newForm, useSandbox } from '../nodes/integration/support';
import {
	burst,
	changeSubmission,
	countingRequests,
	idsOf,
	pollingTrigger,
	secondsAgo,
	submit,
} from './support';

const sandbox = useSandbox();

async function formWith(existing = 0): Promise<string> {
	const form = await newForm(sandbox());
	if (existing > 0) {
		await control(sandbox(), 'POST', `/forms/${form.id}/generate`, {
			count: existing,
			startTime: secondsAgo(3600).toISOString(),
			stepMs: 1000,
		});
	}
	return form.id as string;
}

/** `count` more, a second apart, starting 10 minutes ago. */
async function formWithMore(formId: string, count: number): Promise<void> {
	await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
		count,
		startTime: secondsAgo(600).toISOString(),
		stepMs: 1000,
	});
}

afterEach(async () => {
	await control(sandbox(), 'DELETE', '/faults');
	jest.restoreAllMocks();
});

describe('first activation (Start From: now)', () => {
	it('emits nothing that was there, costs one list and one form request, then one list per idle poll', async () => {
		const formId = await formWith(20);
		await submit(sandbox(), formId, { submissionTime: secondsAgo(5).toISOString() });
		const trigger = pollingTrigger(sandbox(), formId);

		const first = await countingRequests(sandbox(), () => trigger.activate());
		expect(first.result).toEqual({ items: null });
		expect([first.list, first.metadata]).toEqual([1, 1]);

		for (let i = 0; i < 3; i++) {
			const idle = await countingRequests(sandbox(), () => trigger.poll());
			expect(idle.result).toEqual({ items: null });
			expect([idle.list, idle.metadata]).toEqual([1, 0]);
		}
	});

	it('then emits each new submission once, in submission order, with its status', async () => {
		const formId = await formWith(3);
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const b = await submit(sandbox(), formId, { submissionTime: secondsAgo(1).toISOString() });
		const a = await submit(sandbox(), formId, { submissionTime: secondsAgo(2).toISOString() });
		const polled = await trigger.poll();
		expect(idsOf(polled.items)).toEqual([a, b]);
		expect(polled.items?.map((item) => item.json.status)).toEqual(['finished', 'finished']);
		expect(polled.items?.[0].json.formId).toBe(formId);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe('submissions sharing a time, arriving late or in bursts', () => {
	it('a burst of 50 at one instant, and 200 more across page boundaries at another, each once', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const fifty = await burst(sandbox(), formId, 50, secondsAgo(2));
		const first = await trigger.poll();
		expect(new Set(idsOf(first.items))).toEqual(new Set(fifty));
		expect(idsOf(first.items)).toHaveLength(50);

		// 200 at one instant: more than a page (150), so the list pages inside one millisecond.
		const tied = await burst(sandbox(), formId, 200, secondsAgo(1));
		const second = await countingRequests(sandbox(), () => trigger.poll());
		expect(idsOf(second.result.items).sort()).toEqual([...tied].sort());
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a submission listed late inside the window is emitted once; one behind the window is not', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId, { options: { lateWindowMinutes: 10 } });
		await trigger.activate();
		const now = await submit(sandbox(), formId);
		const late = await submit(sandbox(), formId, {
			submissionTime: secondsAgo(120).toISOString(),
			hidden: true,
		});
		const tooLate = await submit(sandbox(), formId, {
			submissionTime: secondsAgo(3600).toISOString(),
			hidden: true,
		});
		expect(idsOf((await trigger.poll()).items)).toEqual([now]);
		await changeSubmission(sandbox(), formId, late, { hidden: false });
		await changeSubmission(sandbox(), formId, tooLate, { hidden: false });
		expect(idsOf((await trigger.poll()).items)).toEqual([late]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a submission made in the same millisecond as one already emitted is still emitted', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const at = secondsAgo(1).toISOString();
		const first = await submit(sandbox(), formId, { submissionTime: at });
		expect(idsOf((await trigger.poll()).items)).toEqual([first]);
		const second = await submit(sandbox(), formId, { submissionTime: at });
		expect(idsOf((await trigger.poll()).items)).toEqual([second]);
	});
});

describe('Start From', () => {
	it('The Beginning: a backfill of 1,234 in order at 9 to ceil(1234 / 150) + 2 list requests, then nothing again', async () => {
		const form = await newForm(sandbox());
		const formId = form.id as string;
		await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
			count: 1234,
			startTime: secondsAgo(3600).toISOString(),
			stepMs: 1000,
		});
		const trigger = pollingTrigger(sandbox(), formId, { startFrom: 'beginning' });
		const backfill = await countingRequests(sandbox(), () => trigger.activate());
		const ids = idsOf(backfill.result.items);
		expect(ids).toHaveLength(1234);
		expect(new Set(ids).size).toBe(1234);
		const times = backfill.result.items!.map((item) =>
			Date.parse(item.json.submissionTime as string),
		);
		expect(times).toEqual([...times].sort((a, b) => a - b));
		// Ranges side by side: the newest reads once more if its last page is answered first.
		expect(backfill.list).toBeGreaterThanOrEqual(9);
		expect(backfill.list).toBeLessThanOrEqual(Math.ceil(1234 / 150) + 2);
		// The form's name, read alongside the listing, is on every item.
		expect(new Set(backfill.result.items!.map((item) => item.json.formName))).toEqual(
			new Set([form.name]),
		);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('The Beginning at 300 ms per request: the backfill of 3,000 keeps several pages in flight, each once, in order', async () => {
		const formId = await formWith(3_000);
		await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
		const trigger = pollingTrigger(sandbox(), formId, { startFrom: 'beginning' });
		await control(sandbox(), 'POST', '/stats/reset');
		const backfill = await trigger.activate();
		const stats = await control(sandbox(), 'GET', '/stats');
		await control(sandbox(), 'DELETE', '/faults');
		const ids = idsOf(backfill.items);
		expect(new Set(ids).size).toBe(3_000);
		const times = backfill.items!.map((item) => Date.parse(item.json.submissionTime as string));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		expect(stats.mostAtOnce).toBeGreaterThanOrEqual(2);
	});

	it("a backfill longer than n8n's poll budget comes over several polls: each once, in order, none lost", async () => {
		const formId = await formWith(900);
		// 300 at one instant, across page boundaries, where a poll may stop.
		const tied = await burst(sandbox(), formId, 300, secondsAgo(1800));
		await formWithMore(formId, 300);
		await control(sandbox(), 'POST', '/faults', { latencyMs: 120 });
		// Pages stop 0.6 × 1 s into a poll: a poll reads four or five of the 10 pages, and n8n
		// abandons one still running at 2 s. Each poll first re-reads the late window (one
		// minute: 60 here, or the 300 at one instant), and polls in a row share 5 requests/s.
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ startFrom: 'beginning', options: { lateWindowMinutes: 1 } },
			{ pollBudgetMs: 1000 },
		);
		const perPoll: number[] = [];
		const emitted: Array<{ id: string; ms: number }> = [];
		let polled = await trigger.activate();
		while (emitted.length < 1500 && perPoll.length < 30) {
			expect(polled.error).toBeUndefined();
			expect(polled.abandoned).toBeUndefined();
			for (const item of polled.items ?? []) {
				emitted.push({
					id: item.json.submissionId as string,
					ms: Date.parse(item.json.submissionTime as string),
				});
			}
			perPoll.push(polled.items?.length ?? 0);
			polled = await trigger.poll();
		}
		expect(polled.items).toBeNull();
		expect(perPoll.filter((count) => count > 0).length).toBeGreaterThan(2);
		expect(new Set(emitted.map((e) => e.id)).size).toBe(1500);
		expect(emitted.map((e) => e.ms)).toEqual(emitted.map((e) => e.ms).sort((a, b) => a - b));
		expect(tied.every((id) => emitted.some((e) => e.id === id))).toBe(true);
	});

	it("Now, with more in the late window than fits in n8n's poll budget: nothing from before the publish is emitted", async () => {
		const formId = (await newForm(sandbox())).id as string;
		await formWithMore(formId, 400);
		// The form and three pages take 1.2 s, past 0.6 × 1 s.
		await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
		const trigger = pollingTrigger(sandbox(), formId, {}, { pollBudgetMs: 1000 });
		expect((await trigger.activate()).items).toBeNull();
		// The next poll re-reads those 400 (three pages): at this latency n8n would abandon it.
		await control(sandbox(), 'DELETE', '/faults');
		const made = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([made]);
	});

	it("Now, with no cursor and more in the late window than n8n's poll budget can read: a scheduled poll stops in time, and the trigger starts", async () => {
		const formId = (await newForm(sandbox())).id as string;
		await formWithMore(formId, 400);
		// The form alone takes 1.5 s, past 0.6 × 1 s: no listing fits, and all three pages
		// would end past 2 s, where n8n abandons a scheduled poll.
		await control(sandbox(), 'POST', '/faults', { latencyMs: 1500 });
		const trigger = pollingTrigger(sandbox(), formId, {}, { pollBudgetMs: 1000 });
		expect((await trigger.activate()).items).toBeNull();
		// The publish poll is not stored, and no copy is in memory (it ran past its budget).
		trigger.dropStoredStaticData();
		const scheduled = await trigger.poll('update');
		expect(scheduled).toEqual({ items: null });
		await control(sandbox(), 'DELETE', '/faults');
		const made = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll('update')).items)).toEqual([made]);
		expect((await trigger.poll('update')).items).toBeNull();
	});

	it('A Date: only submissions from that moment on', async () => {
		const formId = await formWith();
		await submit(sandbox(), formId, { submissionTime: '2024-01-01T00:00:00.000Z' });
		const kept = await submit(sandbox(), formId, { submissionTime: '2024-03-01T00:00:00.000Z' });
		const trigger = pollingTrigger(sandbox(), formId, {
			startFrom: 'date',
			startDate: '2024-02-01T00:00:00',
		});
		expect(idsOf((await trigger.activate()).items)).toEqual([kept]);
	});
});

describe('in-progress submissions', () => {
	it('Emit Once: each once, marked in_progress, and again as finished when it is submitted', async () => {
		const formId = await formWith();
		const before = await submit(sandbox(), formId, { status: 'in_progress' });
		const trigger = pollingTrigger(sandbox(), formId, { inProgress: 'once' });
		expect((await trigger.activate()).items).toBeNull();
		const started = await submit(sandbox(), formId, { status: 'in_progress' });
		const polled = await trigger.poll();
		expect(idsOf(polled.items)).toEqual([started]);
		expect(polled.items?.[0].json.status).toBe('in_progress');
		await changeSubmission(sandbox(), formId, started, { lastUpdatedAt: 'now' });
		expect((await trigger.poll()).items).toBeNull();
		await changeSubmission(sandbox(), formId, started, { status: 'finished' });
		const done = await trigger.poll();
		expect(idsOf(done.items)).toEqual([started]);
		expect(done.items?.[0].json.status).toBe('finished');
		// The one in progress before the publish never comes as such, and comes once finished.
		await changeSubmission(sandbox(), formId, before, { lastUpdatedAt: 'now' });
		expect((await trigger.poll()).items).toBeNull();
		await changeSubmission(sandbox(), formId, before, { status: 'finished' });
		const finished = await trigger.poll();
		expect(idsOf(finished.items)).toEqual([before]);
		expect(finished.items?.[0].json.status).toBe('finished');
	});

	it('A Date: one in progress dated exactly at Start Date is emitted, one a millisecond before is not', async () => {
		const formId = await formWith();
		const at = Date.parse('2024-02-01T00:00:00.000Z');
		const inProgressAt = (ms: number) =>
			submit(sandbox(), formId, {
				status: 'in_progress',
				submissionTime: new Date(ms).toISOString(),
			});
		await inProgressAt(at - 1);
		const exact = await inProgressAt(at);
		const later = await inProgressAt(at + 1);
		const trigger = pollingTrigger(sandbox(), formId, {
			startFrom: 'date',
			startDate: '2024-02-01T00:00:00',
			inProgress: 'once',
		});
		const items = (await trigger.activate()).items;
		expect(idsOf(items)).toEqual([exact, later]);
		expect(items?.map((item) => item.json.status)).toEqual(['in_progress', 'in_progress']);
	});

	it('Emit on Every Update: again whenever lastUpdatedAt changes', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId, { inProgress: 'onUpdate' });
		await trigger.activate();
		const started = await submit(sandbox(), formId, { status: 'in_progress' });
		expect(idsOf((await trigger.poll()).items)).toEqual([started]);
		expect((await trigger.poll()).items).toBeNull();
		await changeSubmission(sandbox(), formId, started, {
			lastUpdatedAt: new Date(Date.now() + 1000).toISOString(),
		});
		expect(idsOf((await trigger.poll()).items)).toEqual([started]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a plan without in-progress listing gives a clear error, not an empty result', async () => {
		const account = await control(sandbox(), 'POST', '/accounts', { plan: 'free' });
		const form = await control(sandbox(), 'POST', '/forms', {
			accountId: account.id,
			name: 'Free',
		});
		const trigger = pollingTrigger(sandbox(), form.id, { inProgress: 'once' });
		trigger.credentialsHelper.setCredentialData('filloutFormsApi', {
			apiKey: account.apiKey,
			region: 'custom',
			baseUrl: sandbox().origin,
		});
		const { error } = await trigger.activate();
		expect(error?.message).toMatch(/in-progress submissions: this needs a paid Fillout plan/);
		expect((error as unknown as { description: string }).description).toMatch(/Ignore/);
	});
});

describe('the cursor', () => {
	it('an idle poll keeps its cursor in memory; a restart goes on from what was saved, nothing twice', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const a = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		expect((await trigger.poll()).items).toBeNull();
		trigger.restart();
		const b = await submit(sandbox(), formId);
		expect(idsOf((await trigger.activate('init')).items)).toEqual([b]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a lost cursor (static data wiped) goes on from memory, and after a restart starts from now: no history again', async () => {
		const formId = await formWith(5);
		const trigger = pollingTrigger(sandbox(), formId, { startFrom: 'beginning' });
		expect(idsOf((await trigger.activate()).items)).toHaveLength(5);
		const warn = jest.spyOn(n8nLogger(), 'warn');
		// Another process saved over the static data: the live object loses the cursor too.
		trigger.dropStoredStaticData();
		const a = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		expect(warn).toHaveBeenCalledWith(expect.stringMatching(/copy in memory/), expect.anything());

		trigger.saved = {};
		trigger.restart();
		const fresh = pollingTrigger(sandbox(), formId, { startFrom: 'beginning' });
		fresh.saved = {};
		expect((await fresh.activate('init')).items).toBeNull();
		expect(warn).toHaveBeenCalledWith(
			expect.stringMatching(/no cursor was stored/),
			expect.anything(),
		);
		const b = await submit(sandbox(), formId);
		expect(idsOf((await fresh.poll()).items)).toEqual([b]);
	});

	it('a failing poll leaves the cursor, and the next poll emits everything it missed', async () => {
		const formId = await formWith();
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const before = trigger.liveStaticData;
		const a = await submit(sandbox(), formId);
		await control(sandbox(), 'POST', '/faults', {
			failNext: [
				{
					status: 400,
					count: 1,
					method: 'GET',
					body: { statusCode: 400, error: 'Bad Request', message: 'API Key invalid' },
				},
			],
		});
		const failed = await trigger.poll();
		expect(failed.error?.message).toBe('Fillout refused the credentials');
		expect(failed.error?.message).not.toMatch(/sk_/);
		expect(trigger.liveStaticData).toEqual(before);
		const b = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([a, b]);
	});

	it('a deleted form gives a clear error naming it', async () => {
		const trigger = pollingTrigger(sandbox(), 'doesNotExist1');
		const { error } = await trigger.activate();
		expect(error?.message).toMatch(/not found|doesNotExist1/i);
		expect(trigger.active).toBe(false);
	});
});

describe('Fetch Test Event (manual mode)', () => {
	it('returns the newest submission at once and leaves the cursor alone, stored and in memory', async () => {
		const formId = await formWith(3);
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		const a = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		const saved = structuredClone(trigger.saved);
		const live = trigger.liveStaticData;
		const sample = await trigger.fetchTestEvent();
		expect(idsOf(sample.items)).toEqual([a]);
		expect(trigger.saved).toEqual(saved);
		expect(trigger.liveStaticData).toEqual(live);
		// The manual run has a copy of the static data, as in n8n; what it shares with the
		// active trigger is this process's memory, which the trigger uses when the stored
		// cursor is gone: it must still be the trigger's own.
		trigger.dropStoredStaticData();
		const b = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([b]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('says so when the form has no submission yet', async () => {
		const trigger = pollingTrigger(sandbox(), await formWith());
		const { error } = await trigger.fetchTestEvent();
		expect(error?.message).toMatch(/has no submissions yet/);
	});
});
