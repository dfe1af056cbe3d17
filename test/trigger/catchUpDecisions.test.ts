import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	DELIVERED_MARGIN_MS,
	MAX_DELIVERED,
	keptDelivered,
	mergeRecords,
	readCatchUpRecord,
	startRecord,
	type CatchUpRecord,
} from '../../nodes/Fillout/catchUp/catchUpRecord';
import {
	GRACE_MS,
	LATE_WINDOW_MS,
	MAX_PER_CHECK,
	takeMissed,
} from '../../nodes/Fillout/catchUp/check';
import {
	currentRecord,
	firstRunOfDelivery,
	MAX_MARKED_ID_CHARS,
	saveRecord,
	unmarkDelivered,
} from '../../nodes/Fillout/catchUp/recordAccess';
import { catchUpSettingsOf } from '../../nodes/Fillout/catchUp/parameters';
import type { Submission } from '../../nodes/Fillout/shared/interfaces';
import { forgetProcessMemory } from './support';

/** The decisions of catch-up, one case each: what a check runs and what a delivery may run. */

const FORM = 'form1';
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const MINUTE = 60_000;

const row = (id: string, ms: number): Submission => ({
	submissionId: id,
	submissionTime: new Date(ms).toISOString(),
	questions: [],
});

function context(data: IDataObject, catchUp = true): IWebhookFunctions {
	return {
		getWorkflow: () => ({ id: 'workflow1' }),
		getNode: () => ({ id: 'node1', name: 'Fillout Trigger' }),
		getWorkflowStaticData: () => data,
		getNodeParameter: (name: string, fallback: unknown) =>
			({ catchUp, catchUpMinutes: 5 })[name] ?? fallback,
	} as unknown as IWebhookFunctions;
}

const ids = (submissions: Submission[]) => submissions.map((s) => s.submissionId);

beforeEach(() => forgetProcessMemory());

describe('takeMissed: what a check runs', () => {
	const start = () => startRecord(FORM, 'Signup', T0, 'run1');

	it('runs what was not delivered, oldest first, and leaves the newest 30 s to the webhook', () => {
		const record = { ...start(), delivered: { b: T0 + 2 * MINUTE } };
		const listing = [
			row('a', T0 + MINUTE),
			row('b', T0 + 2 * MINUTE),
			row('c', T0 + 3 * MINUTE),
			row('d', T0 + 10 * MINUTE - 10_000),
		];
		const taken = takeMissed(record, listing, T0 + 10 * MINUTE, true);
		expect(ids(taken.missed)).toEqual(['a', 'c']);
		expect(taken.more).toBe(false);
		// 'd' is younger than the grace: the next check decides.
		const later = takeMissed(taken.next, listing, T0 + 10 * MINUTE + GRACE_MS, true);
		expect(ids(later.missed)).toEqual(['d']);
	});

	it('never runs what was made before the start', () => {
		const taken = takeMissed(start(), [row('old', T0 - 1), row('new', T0)], T0 + MINUTE, true);
		expect(ids(taken.missed)).toEqual(['new']);
	});

	it('does not run again a delivered submission dated in the future once its time comes', () => {
		// Delivered at T0 (an import dated an hour ahead); others keep the window moving.
		let record: CatchUpRecord = { ...start(), delivered: { future: T0 } };
		const future = row('future', T0 + 60 * MINUTE);
		const others: Submission[] = [];
		for (let minute = 5; minute <= 70; minute += 5) {
			others.push(row(`s${minute}`, T0 + minute * MINUTE));
			const now = T0 + minute * MINUTE + GRACE_MS;
			const taken = takeMissed(record, [...others, future], now, true);
			expect(ids(taken.missed)).toEqual([`s${minute}`]);
			record = taken.next;
		}
		expect(record.windowStartMs).toBeGreaterThan(T0 + DELIVERED_MARGIN_MS + LATE_WINDOW_MS);
	});

	it('keeps a delivered id no longer listed only while it was received after the window (and a margin)', () => {
		const record = {
			...start(),
			windowStartMs: T0 + 30 * MINUTE,
			newestMs: T0 + 40 * MINUTE,
			delivered: { gone: T0, recent: T0 + 25 * MINUTE },
		};
		const taken = takeMissed(record, [], T0 + 41 * MINUTE, true);
		expect(Object.keys(taken.next.delivered)).toEqual(['recent']);
		// A listing cut short says nothing about what is no longer listed.
		expect(
			Object.keys(takeMissed(record, [], T0 + 41 * MINUTE, false).next.delivered).sort(),
		).toEqual(['gone', 'recent']);
	});

	it('runs at most MAX_PER_CHECK at once and says more are waiting', () => {
		const listing = Array.from({ length: MAX_PER_CHECK + 5 }, (_, i) =>
			row(`s${String(i).padStart(5, '0')}`, T0 + i),
		);
		const taken = takeMissed(start(), listing, T0 + 10 * MINUTE, true);
		expect(taken.missed).toHaveLength(MAX_PER_CHECK);
		expect(taken.more).toBe(true);
		const rest = takeMissed(taken.next, listing, T0 + 10 * MINUTE, true);
		expect(ids(rest.missed)).toEqual(ids(listing.slice(MAX_PER_CHECK)));
		expect(rest.more).toBe(false);
	});

	it('says more are waiting when the listing was cut short', () => {
		expect(takeMissed(start(), [row('a', T0 + 1)], T0 + MINUTE, false).more).toBe(true);
	});
});

describe('the check interval', () => {
	const settingsWith = (minutes: unknown) =>
		catchUpSettingsOf((name, fallback) =>
			name === 'catchUpMinutes' ? minutes : name === 'catchUp' ? true : fallback,
		);

	it('is whole minutes from 1 to 60, whatever an expression gives', () => {
		expect([2.5, 0, -3, 100, 'x', 7].map((m) => settingsWith(m).minutes)).toEqual([
			3, 1, 1, 60, 5, 7,
		]);
	});
});

describe('the record: deliveries, copies and hostile input', () => {
	it('refuses a delivery a check ran, and a repeat of a delivery', () => {
		const data: IDataObject = {};
		saveRecord(context(data), data, startRecord(FORM, null, T0, 'run1'));
		const ran = takeMissed(
			currentRecord(context(data), data, FORM)!,
			[row('a', T0 + 1)],
			T0 + MINUTE,
			true,
		);
		saveRecord(context(data), data, ran.next);
		expect(firstRunOfDelivery(context(data), 'production', FORM, 'a')).toBe(false);
		expect(firstRunOfDelivery(context(data), 'production', FORM, 'b')).toBe(true);
		forgetProcessMemory();
		// After a restart, static data alone still knows both.
		expect(firstRunOfDelivery(context(data), 'production', FORM, 'b')).toBe(false);
		expect(firstRunOfDelivery(context(data), 'production', FORM, 'a')).toBe(false);
	});

	it('marks nothing with catch-up off or for a test delivery', () => {
		const data: IDataObject = {};
		saveRecord(context(data), data, startRecord(FORM, null, T0, 'run1'));
		expect(firstRunOfDelivery(context(data, false), 'production', FORM, 'x')).toBe(true);
		expect(firstRunOfDelivery(context(data), 'test', FORM, 'y')).toBe(true);
		expect(currentRecord(context(data), data, FORM)!.delivered).toEqual({});
	});

	it('records a delivery at its receipt, never at the time its body claims', () => {
		const data: IDataObject = {};
		saveRecord(context(data), data, startRecord(FORM, null, T0, 'run1'));
		const before = Date.now();
		expect(firstRunOfDelivery(context(data), 'production', FORM, 'x')).toBe(true);
		const record = currentRecord(context(data), data, FORM)!;
		expect(record.delivered.x).toBeGreaterThanOrEqual(before);
		expect(record.windowStartMs).toBe(T0);
		expect(record.newestMs).toBe(T0);
	});

	it('keeps a hostile delivery id out of the record (too long to be Fillout’s), and runs it', () => {
		const data: IDataObject = {};
		saveRecord(context(data), data, startRecord(FORM, null, T0, 'run1'));
		const long = 'x'.repeat(MAX_MARKED_ID_CHARS + 1);
		expect(firstRunOfDelivery(context(data), 'production', FORM, long)).toBe(true);
		expect(currentRecord(context(data), data, FORM)!.delivered).toEqual({});
		const longest = 'y'.repeat(MAX_MARKED_ID_CHARS);
		expect(firstRunOfDelivery(context(data), 'production', FORM, longest)).toBe(true);
		expect(Object.keys(currentRecord(context(data), data, FORM)!.delivered)).toEqual([longest]);
	});

	it('takes a delivery back from both copies', () => {
		const data: IDataObject = {};
		saveRecord(context(data), data, startRecord(FORM, null, T0, 'run1'));
		firstRunOfDelivery(context(data), 'production', FORM, 'x');
		unmarkDelivered(context(data), data, FORM, 'x');
		expect(currentRecord(context(data), data, FORM)!.delivered).toEqual({});
		expect((data.catchUp as CatchUpRecord).delivered).toEqual({});
	});

	it('merges two copies of one start by union, and lets a newer start win', () => {
		const a = {
			...startRecord(FORM, null, T0, 'run1'),
			windowStartMs: T0 + 5,
			newestMs: T0 + 9,
			seen: { x: T0 + 6 },
			delivered: { d1: 1 },
		};
		const b = {
			...startRecord(FORM, null, T0, 'run1'),
			windowStartMs: T0 + 2,
			newestMs: T0 + 20,
			seen: { y: T0 + 7, old: T0 + 3 },
			delivered: { d2: 2 },
		};
		const merged = mergeRecords(a, b);
		expect(merged.windowStartMs).toBe(T0 + 5);
		expect(merged.newestMs).toBe(T0 + 20);
		expect(merged.seen).toEqual({ x: T0 + 6, y: T0 + 7 });
		expect(merged.delivered).toEqual({ d1: 1, d2: 2 });
		expect(mergeRecords(b, a)).toEqual({
			...merged,
			seen: merged.seen,
			delivered: merged.delivered,
		});
		const newer = { ...startRecord(FORM, null, T0 + 100, 'run2') };
		expect(mergeRecords(a, newer)).toBe(newer);
		expect(mergeRecords(newer, a)).toBe(newer);
	});

	it('keeps at most MAX_DELIVERED delivered ids, the latest received', () => {
		const many = Object.fromEntries(
			Array.from({ length: MAX_DELIVERED + 3 }, (_, i) => [`d${i}`, i]),
		);
		const kept = keptDelivered(many, -Infinity);
		expect(Object.keys(kept)).toHaveLength(MAX_DELIVERED);
		expect(kept.d0).toBeUndefined();
		expect(kept[`d${MAX_DELIVERED + 2}`]).toBe(MAX_DELIVERED + 2);
	});

	it('reads only a whole record of this form', () => {
		const record = startRecord(FORM, null, T0, 'run1') as unknown as IDataObject;
		expect(readCatchUpRecord(record, FORM)).toBeDefined();
		expect(readCatchUpRecord(record, 'other')).toBeUndefined();
		expect(readCatchUpRecord({ ...record, runId: 3 }, FORM)).toBeUndefined();
		expect(readCatchUpRecord({ ...record, startedAt: 'x' }, FORM)).toBeUndefined();
		expect(readCatchUpRecord({ ...record, delivered: { a: 'x' } }, FORM)).toBeUndefined();
		expect(readCatchUpRecord({ ...record, delivered: [] }, FORM)).toBeUndefined();
	});
});
