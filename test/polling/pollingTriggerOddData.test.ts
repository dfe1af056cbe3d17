/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: waits with setTimeout, and skews n8n's clock */
/**
 * The polling trigger with data and clocks it did not expect, in n8n-core's real
 * PollContext against the sandbox: future-dated submissions, n8n's clock off from
 * Fillout's, thousands of abandoned in-progress submissions, polls cut short or abandoned
 * by n8n's budget, and the workflow's time zone.
 */
import { fileOrigin, newFileForm } from '../nodes/integration/support/files';
import { n8nLogger } from '../trigger/support';
import { sleep } from '../../sandbox/timers';
import { control, newForm, useSandbox } from '../nodes/integration/support';
import { countingRequests, idsOf, pollingTrigger, secondsAgo, submit } from './support';

const sandbox = useSandbox();

const MINUTE_MS = 60_000;
const secondsAhead = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function emptyForm(): Promise<string> {
	return (await newForm(sandbox())).id as string;
}

afterEach(async () => {
	await control(sandbox(), 'DELETE', '/faults');
	jest.restoreAllMocks();
});

describe('future-dated submissions', () => {
	it('one dated 64 s ahead does not hide those made before its date (late window 1 min); warned of once', async () => {
		const formId = await emptyForm();
		const warn = jest.spyOn(n8nLogger(), 'warn');
		const trigger = pollingTrigger(sandbox(), formId, { options: { lateWindowMinutes: 1 } });
		await trigger.activate();
		const future = await submit(sandbox(), formId, {
			submissionTime: secondsAhead(64).toISOString(),
		});
		expect((await trigger.poll()).items).toBeNull();
		const a = await submit(sandbox(), formId);
		const b = await submit(sandbox(), formId);
		const polled = idsOf((await trigger.poll()).items);
		expect(polled.sort()).toEqual([a, b].sort());
		expect((await trigger.poll()).items).toBeNull();
		const warnings = warn.mock.calls.filter(([message]) =>
			/dated later than Fillout's present/.test(String(message)),
		);
		expect(warnings).toHaveLength(1);
		expect(String(warnings[0][0])).toContain(future);
	});

	it('is emitted when its time comes, once, after those made before it', async () => {
		const formId = await emptyForm();
		const trigger = pollingTrigger(sandbox(), formId, { options: { lateWindowMinutes: 0 } });
		await trigger.activate();
		const future = await submit(sandbox(), formId, {
			submissionTime: secondsAhead(2.5).toISOString(),
		});
		expect((await trigger.poll()).items).toBeNull();
		const a = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		await sleep(3_000);
		expect(idsOf((await trigger.poll()).items)).toEqual([future]);
		expect((await trigger.poll()).items).toBeNull();
	});
});

describe("n8n's clock off from Fillout's", () => {
	/** n8n's `Date.now()` off by `skewMs`; Fillout's clock (the sandbox's `date` header) is not. */
	function skewN8nClock(skewMs: number) {
		const realNow = Date.now.bind(Date);
		jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skewMs);
	}

	it.each([
		['ahead', 15 * MINUTE_MS],
		['behind', -15 * MINUTE_MS],
	])(
		'15 min %s, with a 10 min window: a start from now emits the first submissions, at once',
		async (_, skewMs) => {
			const formId = await emptyForm();
			await submit(sandbox(), formId, {
				submissionTime: new Date(new Date().getTime() - 30_000).toISOString(),
			});
			const trigger = pollingTrigger(sandbox(), formId);
			skewN8nClock(skewMs);
			expect((await trigger.activate()).items).toBeNull();
			// Fillout stamps with its own clock (`new Date()` is not skewed). With n8n's clock
			// off, the poll knows Fillout's present to the second: these are a second old.
			const aSecondAgo = () => new Date(new Date().getTime() - 1000).toISOString();
			const first = await submit(sandbox(), formId, { submissionTime: aSecondAgo() });
			expect(idsOf((await trigger.poll()).items)).toEqual([first]);
			const second = await submit(sandbox(), formId, { submissionTime: aSecondAgo() });
			expect(idsOf((await trigger.poll()).items)).toEqual([second]);
		},
	);
});

describe('in-progress submissions', () => {
	it('3,000 abandoned ones: an idle poll costs one list request for them, the cursor stays small, a new one is emitted', async () => {
		const formId = await emptyForm();
		await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
			count: 3000,
			status: 'in_progress',
			startTime: new Date(Date.now() - 90 * 24 * 3_600_000).toISOString(),
			stepMs: 60_000,
		});
		const trigger = pollingTrigger(sandbox(), formId, { inProgress: 'once' });
		await trigger.activate();
		for (let i = 0; i < 2; i++) {
			const idle = await countingRequests(sandbox(), () => trigger.poll());
			expect(idle.result.items).toBeNull();
			expect(idle.list).toBe(2);
		}
		expect(JSON.stringify(trigger.liveStaticData).length).toBeLessThan(15_000);
		expect(JSON.stringify(trigger.saved).length).toBeLessThan(15_000);
		const started = await submit(sandbox(), formId, { status: 'in_progress' });
		expect(idsOf((await trigger.poll()).items)).toEqual([started]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('a backfill cut short by the budget, with Emit Once: 900 finished and the 2 in progress, each once', async () => {
		const formId = await emptyForm();
		await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
			count: 900,
			startTime: new Date(Date.now() - 20 * 3_600_000).toISOString(),
			stepMs: 60_000,
		});
		const partials = [
			await submit(sandbox(), formId, { status: 'in_progress' }),
			await submit(sandbox(), formId, { status: 'in_progress' }),
		];
		await control(sandbox(), 'POST', '/faults', { latencyMs: 120 });
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ startFrom: 'beginning', inProgress: 'once' },
			// Cut short (the listing takes 7 pages of 120 ms, past 0.6 × 1.2 s with the rate limit's
			// wait), and polls run back to back here, so a poll may wait up to a second for the
			// rate limit: n8n's timeout (2.4 s) allows that with room for a busy host.
			{ pollBudgetMs: 1_200 },
		);
		const finished: string[] = [];
		const inProgress: string[] = [];
		let polled = await trigger.activate();
		expect(polled.items?.length).toBeLessThan(900);
		for (let n = 0; n < 12 && polled.items !== null; n++) {
			expect(polled.error).toBeUndefined();
			expect(polled.abandoned).toBeUndefined();
			for (const item of polled.items) {
				const id = item.json.submissionId as string;
				(item.json.status === 'finished' ? finished : inProgress).push(id);
			}
			polled = await trigger.poll();
		}
		expect(polled.items).toBeNull();
		expect(new Set(finished).size).toBe(900);
		expect(finished).toHaveLength(900);
		expect(inProgress.sort()).toEqual([...partials].sort());
		// Still watched: a partial started now comes, the two do not come again.
		await control(sandbox(), 'DELETE', '/faults');
		const started = await submit(sandbox(), formId, { status: 'in_progress' });
		expect(idsOf((await trigger.poll()).items)).toEqual([started]);
	});

	it('with Download Files past the budget: in-progress submissions left for the next poll come then, each once', async () => {
		const formId = await newFileForm(sandbox());
		const files = fileOrigin(sandbox());
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ inProgress: 'once', downloadFiles: true },
			{ pollBudgetMs: 1000 },
		);
		await trigger.activate();
		const respond = async (n: number, status: 'finished' | 'in_progress') => {
			const url = `${files}/files/slow-ip${n}/cv.pdf?delayMs=700`;
			const answer = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
				status,
				fillUnanswered: false,
				answers: { Résumé: [{ url, filename: 'cv.pdf' }] },
			});
			return answer.submission.submissionId as string;
		};
		// Downloads (4 at a time) stop starting at 600 ms: the partials' wait for the next poll
		// (or, should a late file become a files[] error, come at once: each once either way).
		const finished: string[] = [];
		for (let n = 1; n <= 4; n++) finished.push(await respond(n, 'finished'));
		const partials = [await respond(5, 'in_progress'), await respond(6, 'in_progress')];
		const emitted: Record<string, string[]> = { finished: [], in_progress: [] };
		for (let n = 0; n < 5; n++) {
			const polled = await trigger.poll();
			expect(polled.abandoned).toBeUndefined();
			for (const item of polled.items ?? []) {
				emitted[item.json.status as string].push(item.json.submissionId as string);
			}
		}
		expect(emitted.finished.sort()).toEqual(finished.sort());
		expect(emitted.in_progress.sort()).toEqual(partials.sort());
	});

	it('switched from Ignore to Emit Once on a running trigger: only partials started from then on', async () => {
		const formId = await emptyForm();
		await submit(sandbox(), formId, { status: 'in_progress' });
		const ignoring = pollingTrigger(sandbox(), formId);
		await ignoring.activate();
		const a = await submit(sandbox(), formId);
		expect(idsOf((await ignoring.poll()).items)).toEqual([a]);
		// The user edits the node and publishes again: the cursor stays.
		const emitting = pollingTrigger(
			sandbox(),
			formId,
			{ inProgress: 'once' },
			{ staticData: ignoring.saved },
		);
		expect((await emitting.activate('update')).items).toBeNull();
		const started = await submit(sandbox(), formId, { status: 'in_progress' });
		expect(idsOf((await emitting.poll()).items)).toEqual([started]);
		expect((await emitting.poll()).items).toBeNull();
	});
});

describe("n8n's poll budget", () => {
	it('a poll n8n abandons leaves no cursor behind in memory: a poll going on from memory emits what it found', async () => {
		const formId = await emptyForm();
		const trigger = pollingTrigger(sandbox(), formId, {}, { pollBudgetMs: 1000 });
		await trigger.activate();
		const a = await submit(sandbox(), formId);
		// The listing takes 2.5 s: n8n gives up at 2 s, and the poll ends on its own later.
		await control(sandbox(), 'POST', '/faults', { latencyMs: 2500 });
		expect(await trigger.poll()).toEqual({ items: null, abandoned: true });
		await trigger.settle();
		await control(sandbox(), 'DELETE', '/faults');
		trigger.dropStoredStaticData();
		expect(idsOf((await trigger.poll()).items)).toEqual([a]);
		expect((await trigger.poll()).items).toBeNull();
	});

	it('stops reading in time: a page that ends past 60 % of the budget is the last, so n8n never abandons the poll', async () => {
		const formId = await emptyForm();
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ options: { lateWindowMinutes: 60 } },
			{ pollBudgetMs: 1000 },
		);
		await trigger.activate();
		await control(sandbox(), 'POST', `/forms/${formId}/generate`, {
			count: 200,
			startTime: secondsAgo(1200).toISOString(),
			stepMs: 1000,
		});
		await sleep(1100); // the pacer's second is over: the first page leaves at once
		// The first page takes 700 ms (past 600 ms, under the 1 s budget); any next one 3 s.
		await control(sandbox(), 'POST', '/faults', { latencyMs: 700 });
		const slower = setTimeout(
			() => void control(sandbox(), 'POST', '/faults', { latencyMs: 3000 }),
			350,
		);
		const polled = await trigger.poll();
		clearTimeout(slower);
		expect(polled.abandoned).toBeUndefined();
		expect(polled.items).toHaveLength(150);
		await control(sandbox(), 'DELETE', '/faults');
		expect((await trigger.poll()).items).toHaveLength(50);
	});
});

describe("Start Date is read in the workflow's time zone", () => {
	it.each([
		['Europe/Berlin', '2024-01-31T23:00:00.000Z'],
		['America/New_York', '2024-02-01T05:00:00.000Z'],
		['UTC', '2024-02-01T00:00:00.000Z'],
	])('%s: 2024-02-01T00:00:00 is %s', async (timezone, instant) => {
		const formId = await emptyForm();
		const at = Date.parse(instant);
		await submit(sandbox(), formId, { submissionTime: new Date(at - 1).toISOString() });
		const first = await submit(sandbox(), formId, { submissionTime: new Date(at).toISOString() });
		// Either side of this zone's midnight, within the hours between the three zones' ones.
		for (const hours of [-6, -1, 1, 6]) {
			const time = new Date(at + hours * 3_600_000).toISOString();
			await submit(sandbox(), formId, { submissionTime: time });
		}
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ startFrom: 'date', startDate: '2024-02-01T00:00:00' },
			{ timezone },
		);
		const items = (await trigger.activate()).items ?? [];
		const times = items.map((item) => Date.parse(item.json.submissionTime as string));
		expect(idsOf(items)[0]).toBe(first);
		expect(times.every((ms) => ms >= at)).toBe(true);
		expect(items).toHaveLength(3);
	});
});
