/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: CATCH_UP_SEED from the environment replays one case */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { CATCH_UP_KEY, startRecord } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { GRACE_MS } from '../../nodes/Fillout/catchUp/check';
import { firstRunOfDelivery, saveRecord } from '../../nodes/Fillout/catchUp/recordAccess';
import { prng } from '../nodes/unit/support/listModel';
import { caseCount } from '../support/caseCount';
import { forgetProcessMemory } from './support';
import {
	CHECK_EVERY_MS,
	FilloutModel,
	FORM,
	listForCheck,
	MINUTE_MS,
	webhookContext,
	type Row,
} from './support/catchUpModel';

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
class History {
	readonly fillout: FilloutModel;
	readonly runs = new Map<string, number>();
	/** How each run came about, and deliveries refused as already run. */
	readonly counts = { byDelivery: 0, byCheck: 0, refused: 0, restarts: 0 };
	/** The node's static data as n8n last saved it. */
	db: IDataObject = {};
	nowMs = 0;
	up = true;
	webhookAlive = true;
	private readonly pending: Array<{ atMs: number; row: Row }> = [];

	constructor(readonly rand: () => number) {
		this.fillout = new FilloutModel(rand);
	}

	get rows(): Row[] {
		return this.fillout.rows;
	}

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
		this.fillout.submit(
			count,
			this.nowMs,
			() => this.up && this.webhookAlive,
			(atMs, row) => this.pending.push({ atMs, row }),
		);
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
		const check = listForCheck(data, this.rows, this.nowMs, this.rand);
		if (check === undefined) return undefined;
		return () => {
			const taken = check.decide();
			if (taken === undefined) return;
			this.db = data;
			for (const id of taken.missed) this.run(id);
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
	history.nowMs = Math.max(history.nowMs, history.fillout.lastMs()) + GRACE_MS + MINUTE_MS;
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
