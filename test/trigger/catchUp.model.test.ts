/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: CATCH_UP_SEED from the environment replays one case */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { CATCH_UP_KEY, startRecord } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { GRACE_MS, takeMissed } from '../../nodes/Fillout/catchUp/check';
import {
	currentRecord,
	firstRunOfDelivery,
	saveRecord,
} from '../../nodes/Fillout/catchUp/recordAccess';
import { windowQueryStart } from '../../nodes/Fillout/pollingTrigger/pollState';
import type { Submission } from '../../nodes/Fillout/shared/interfaces';
import { prng } from '../nodes/unit/support/listModel';
import { caseCount } from '../support/caseCount';
import { forgetProcessMemory } from './support';

/**
 * Model-based randomized test of catch-up (the Fillout Trigger's record, `takeMissed` and
 * `firstRunOfDelivery`): seeded histories of one n8n process receiving deliveries and
 * running checks, against a model of Fillout and of its webhook that does what they may:
 *
 * - respondents at random times, bursts sharing a millisecond, rows listed up to 5 minutes
 *   late, rows dated up to an hour in the future (listed at once), tie order unstable;
 * - deliveries lost (the webhook dropped, n8n stopped), late (up to 90 s, past the grace,
 *   so after a check ran them), repeated, or handled while a check's listing is in flight;
 * - n8n restarting (process memory gone, static data as last saved), a check abandoned
 *   mid-way by a restart, listings cut short;
 * - static data saved whole by each request, last writer wins.
 *
 * Invariant: after a final drain, every submission made after the start ran exactly once,
 * none made before it ran. Replay one with CATCH_UP_SEED=<seed> npx jest catchUp.model.
 */

const CASES = caseCount({ fast: 300, all: 3000 });
const FORM = 'form1';
const MINUTE_MS = 60_000;
const CHECK_EVERY_MS = 5 * MINUTE_MS;

interface Row {
	id: string;
	ms: number;
	visibleMs: number;
}

function webhookContext(data: IDataObject): IWebhookFunctions {
	return {
		getWorkflow: () => ({ id: 'workflow1' }),
		getNode: () => ({ id: 'node1', name: 'Fillout Trigger' }),
		getWorkflowStaticData: () => data,
		getNodeParameter: (name: string, fallback: unknown) =>
			({ catchUp: true, catchUpMinutes: 5 })[name] ?? fallback,
	} as unknown as IWebhookFunctions;
}

/** Fillout's list: visible rows after `afterDate` (strictly), by time, ties in any order. */
function listing(rows: Row[], afterMs: number | undefined, nowMs: number, rand: () => number) {
	const shown = rows
		.filter((row) => row.visibleMs <= nowMs && (afterMs === undefined || row.ms > afterMs))
		.map((row) => ({ row, tie: rand() }))
		.sort((a, b) => a.row.ms - b.row.ms || a.tie - b.tie);
	return shown.map(
		({ row }): Submission => ({
			submissionId: row.id,
			submissionTime: new Date(row.ms).toISOString(),
			questions: [],
		}),
	);
}

class History {
	readonly rows: Row[] = [];
	readonly runs = new Map<string, number>();
	/** How each run came about, and deliveries refused as already run. */
	readonly counts = { byDelivery: 0, byCheck: 0, refused: 0, restarts: 0 };
	/** The node's static data as n8n last saved it. */
	db: IDataObject = {};
	nowMs = 0;
	up = true;
	webhookAlive = true;
	private next = 0;
	private readonly pending: Array<{ atMs: number; row: Row }> = [];

	constructor(readonly rand: () => number) {}

	run(id: string): void {
		this.runs.set(id, (this.runs.get(id) ?? 0) + 1);
	}

	/** One request to the trigger: static data loaded, changed, saved whole. */
	request<T>(handle: (data: IDataObject) => T): T {
		// The trigger reads n8n's clock (a delivery's receipt): the model's.
		jest.setSystemTime(this.nowMs);
		const data = deepCopy(this.db);
		const result = handle(data);
		this.db = data;
		return result;
	}

	start(): void {
		this.request((data) =>
			saveRecord(webhookContext(data), data, startRecord(FORM, null, this.nowMs, 'run1')),
		);
	}

	submit(count: number): void {
		const future = this.rand() < 0.08;
		const ms = future ? this.nowMs + Math.floor(this.rand() * 45 * MINUTE_MS) : this.nowMs;
		for (let i = 0; i < count; i++) {
			const lag = this.rand() < 0.3 ? Math.floor(this.rand() * 5 * MINUTE_MS) : 0;
			const row = { id: `s${this.next++}`, ms, visibleMs: this.nowMs + lag };
			this.rows.push(row);
			if (!this.up || !this.webhookAlive || this.rand() < 0.1) continue;
			const delay = this.rand() < 0.2 ? Math.floor(this.rand() * 90_000) : 0;
			this.pending.push({ atMs: this.nowMs + delay, row });
			if (this.rand() < 0.1) this.pending.push({ atMs: this.nowMs + delay + 1000, row });
		}
	}

	deliverDue(): void {
		for (const due of this.pending.filter((entry) => entry.atMs <= this.nowMs)) {
			this.pending.splice(this.pending.indexOf(due), 1);
			if (!this.up) continue;
			const first = this.request((data) =>
				firstRunOfDelivery(webhookContext(data), 'production', FORM, due.row.id),
			);
			if (first) this.run(due.row.id);
			this.counts[first ? 'byDelivery' : 'refused']++;
		}
	}

	/** A check in two halves: the listing, then (after whatever happened meanwhile) the decision. */
	beginCheck(): (() => void) | undefined {
		const data = deepCopy(this.db);
		const before = currentRecord(webhookContext(data), data, FORM);
		if (before === undefined) return undefined;
		const afterDate = windowQueryStart(before);
		const afterMs = afterDate === undefined ? undefined : Date.parse(afterDate);
		let listed = listing(this.rows, afterMs, this.nowMs, this.rand);
		const complete = this.rand() < 0.85;
		if (!complete) listed = listed.slice(0, Math.floor(this.rand() * (listed.length + 1)));
		const presentMs = this.nowMs;
		return () => {
			const record = currentRecord(webhookContext(data), data, FORM);
			if (record === undefined || record.runId !== before.runId) return;
			const taken = takeMissed(record, listed, presentMs, complete);
			saveRecord(webhookContext(data), data, taken.next);
			this.db = data;
			for (const submission of taken.missed) this.run(submission.submissionId);
			this.counts.byCheck += taken.missed.length;
		};
	}

	restart(): void {
		forgetProcessMemory();
		this.pending.length = 0;
		this.counts.restarts++;
	}
}

function simulate(seed: number): History {
	const rand = prng(seed);
	const history = new History(rand);
	// Made before the trigger started (no webhook yet): never run.
	history.nowMs = 1_700_000_000_000;
	history.webhookAlive = false;
	history.submit(3);
	history.webhookAlive = true;
	history.nowMs += 1 + Math.floor(rand() * 10_000);
	history.start();
	let nextCheckMs = history.nowMs + CHECK_EVERY_MS;
	let inFlight: (() => void) | undefined;
	for (let step = 0; step < 250; step++) {
		history.nowMs += Math.floor(rand() * 40_000);
		const roll = rand();
		if (roll < 0.45) history.submit(rand() < 0.2 ? 2 + Math.floor(rand() * 3) : 1);
		else if (roll < 0.5) history.webhookAlive = !history.webhookAlive;
		else if (roll < 0.53 && history.up) {
			// n8n stops (a check in flight is abandoned) and comes back a while later.
			history.restart();
			inFlight = undefined;
			history.up = false;
		} else if (roll < 0.58 && !history.up) {
			history.up = true;
			nextCheckMs = history.nowMs + 35_000;
		}
		history.deliverDue();
		if (inFlight && rand() < 0.7) {
			inFlight();
			inFlight = undefined;
		}
		if (history.up && history.nowMs >= nextCheckMs) {
			inFlight?.();
			inFlight = history.beginCheck();
			nextCheckMs = history.nowMs + CHECK_EVERY_MS;
		}
	}
	inFlight?.();
	// The drain: n8n up, every row listed and past its date and the grace, checks complete.
	history.up = true;
	history.webhookAlive = true;
	const lastMs = Math.max(...history.rows.map((row) => Math.max(row.ms, row.visibleMs)));
	history.nowMs = Math.max(history.nowMs, lastMs) + GRACE_MS + MINUTE_MS;
	history.deliverDue();
	// Checks go on after everything ran: a late repeat would show.
	for (let i = 0; i < 30; i++) {
		const check = history.beginCheck();
		check?.();
		history.nowMs += CHECK_EVERY_MS;
	}
	return history;
}

function problemsOf(history: History, startMs: number): string[] {
	const problems: string[] = [];
	for (const row of history.rows) {
		const runs = history.runs.get(row.id) ?? 0;
		const expected = row.ms >= startMs ? 1 : 0;
		if (runs !== expected) problems.push(`${row.id} (at ${row.ms - startMs} ms) ran ${runs} times`);
	}
	return problems;
}

describe('catch-up, model-based', () => {
	const seeds = process.env.CATCH_UP_SEED
		? [Number(process.env.CATCH_UP_SEED)]
		: Array.from({ length: CASES }, (_, i) => i + 1);

	beforeEach(() => jest.useFakeTimers());
	afterEach(() => {
		jest.useRealTimers();
		forgetProcessMemory();
	});

	it('runs every submission made after the start exactly once, whatever is lost or late', () => {
		const failures: string[] = [];
		for (const seed of seeds) {
			forgetProcessMemory();
			const history = simulate(seed);
			const startMs = (history.db[CATCH_UP_KEY] as { startedAt: number } | undefined)?.startedAt;
			const problems = startMs === undefined ? ['no record'] : problemsOf(history, startMs);
			if (problems.length > 0) failures.push(`seed ${seed}: ${problems.slice(0, 3).join('; ')}`);
		}
		expect(failures).toEqual([]);
	});

	it('has histories with every kind of event (the model is not idle)', () => {
		const total = { byDelivery: 0, byCheck: 0, refused: 0, restarts: 0 };
		for (const seed of seeds.slice(0, 50)) {
			forgetProcessMemory();
			const { counts } = simulate(seed);
			for (const key of Object.keys(total) as Array<keyof typeof total>) total[key] += counts[key];
		}
		expect(total.byDelivery).toBeGreaterThan(100);
		expect(total.byCheck).toBeGreaterThan(100);
		expect(total.refused).toBeGreaterThan(10);
		expect(total.restarts).toBeGreaterThan(10);
	});
});
