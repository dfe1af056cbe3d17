/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: CATCH_UP_SEED from the environment replays one case; the figures go to process.stdout */
import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { CATCH_UP_KEY, startRecord, storedForm } from '../../nodes/Fillout/catchUp/catchUpRecord';
import { GRACE_MS } from '../../nodes/Fillout/catchUp/check';
import { firstRunOfDelivery } from '../../nodes/Fillout/catchUp/recordAccess';
import { prng } from '../nodes/unit/support/listModel';
import { caseCount } from '../support/caseCount';
import {
	CHECK_EVERY_MS,
	copiesIn,
	copiesSayRan,
	FilloutModel,
	FORM,
	listForCheck,
	MINUTE_MS,
	ProcessMemories,
	recordIn,
	webhookContext,
	type Row,
} from './support/catchUpModel';

/**
 * Model-based randomized test of catch-up with TWO webhook processes (two webhook
 * processors in queue mode, or two mains behind a load balancer) that share nothing but
 * the workflow's static data. Each has its own process memory; a load balancer hands each
 * delivery and each knock of the main process to either one that is up. Each request loads
 * static data when it starts and saves it whole when it ends, up to 1.5 s later (10 %: up
 * to 10 s), last writer wins; a check's request lasts its listing (up to 45 s). A queue-mode
 * worker whose execution writes static data (30 % of executions) saves the record the
 * execution carried (carriedRecord.ts; 10 %: only its window, as past 64 KB) over
 * everything, up to 30 s later. Processes restart (memory gone, saves in flight lost, a
 * check abandoned); the main process restarts (first knock 35 s after). Fillout as in
 * catchUp.model.test.ts: lost, late, repeated deliveries, listing lag, ties, future dates.
 *
 * Invariants: nothing made before the publish runs; everything made after it has run at
 * least once when n8n has been up one check interval past the last submission (never
 * lost); no decision runs a submission that a copy it read (its process's memory, the
 * static data its request loaded) held as run, so a submission runs at most once per
 * process lifetime, at most `PROCESSES` + (restarts meanwhile) times. A repeat needs a
 * decision whose copies both lacked the mark: the other process's save had not landed
 * (race), its process died before saving (unsaved), or an older copy was saved over it
 * (overwritten). The repeats are counted by cause and printed, with the worst seed.
 * Replay one with CATCH_UP_SEED=<seed> npx jest catchUp.twoProcesses.
 */

const CASES = caseCount({ fast: 300, all: 1000 });
const PROCESSES = 2;
/** Queue mode at its worst: workers saving, long listings, slow saves. */
const ADVERSE: Layout = { workerSaves: 0.3, checkMs: 45_000, saveMs: 1500 };

/** One run of a submission: where it was decided and what static data that request loaded. */
interface Run {
	proc: number;
	lifetime: number;
	/** The version of static data the deciding request loaded. */
	loaded: number;
	/** The first save that held its mark (undefined while none landed). */
	saved?: number;
	/** The process's decision counter when it was decided. */
	decision: number;
	atMs: number;
}

/** How the processes and workers behave: the layouts the test measures. */
interface Layout {
	/** Share of executions whose worker saves static data (a Code node writing some). */
	workerSaves: number;
	/** The longest a check's listing takes (its request loaded static data before it). */
	checkMs: number;
	/** The longest a request takes from its load to its save (10 %: up to 10 s). */
	saveMs: number;
}

const CAUSES = ['race', 'unsaved', 'overwritten'] as const;
type RepeatCause = (typeof CAUSES)[number];
type Copies = ReturnType<typeof copiesIn>;

interface Event {
	atMs: number;
	order: number;
	act: () => void;
}

class TwoProcesses {
	readonly fillout: FilloutModel;
	readonly memories = new ProcessMemories(PROCESSES);
	readonly runs = new Map<string, Run[]>();
	readonly counts = {
		byDelivery: 0,
		byCheck: 0,
		refused: 0,
		restarts: 0,
		workerSaves: 0,
		race: 0,
		unsaved: 0,
		overwritten: 0,
	};
	readonly lifetime: number[] = Array<number>(PROCESSES).fill(0);
	readonly up: boolean[] = Array<boolean>(PROCESSES).fill(true);
	/** Runs whose decision read a copy that held them: never, by the rule. */
	readonly blind: string[] = [];
	/** When webhook processes restarted. */
	readonly restarts: number[] = [];
	/** The node's static data as n8n last saved it, and how many saves it has seen. */
	db: IDataObject = {};
	version = 0;
	nowMs = 1_700_000_000_000;
	webhookAlive = true;
	mainUp = true;
	/** The main process's next knock: only the latest one scheduled happens. */
	private knockTimer = 0;
	private decisions = 0;
	private readonly rowsById = new Map<string, Row>();
	private order = 0;
	private readonly events: Event[] = [];

	constructor(
		readonly rand: () => number,
		readonly layout: Layout,
	) {
		this.fillout = new FilloutModel(rand);
	}

	at(atMs: number, act: () => void): void {
		this.events.push({ atMs, order: this.order++, act });
	}

	/** The main process knocks at `atMs` (in place of the knock it meant to make). */
	knockAt(atMs: number): void {
		const timer = ++this.knockTimer;
		this.at(atMs, () => {
			if (timer === this.knockTimer && this.mainUp) this.knock();
		});
	}

	/** Runs what is due until `untilMs`, in time order, then the clock stands there. */
	advance(untilMs: number): void {
		for (;;) {
			this.events.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
			if (this.events.length === 0 || this.events[0].atMs > untilMs) break;
			const event = this.events.shift()!;
			this.nowMs = Math.max(this.nowMs, event.atMs);
			event.act();
		}
		this.nowMs = Math.max(this.nowMs, untilMs);
	}

	/** A load balancer's pick among the processes that are up. */
	private pick(): number | undefined {
		const up = this.up.flatMap((isUp, index) => (isUp ? [index] : []));
		return up.length === 0 ? undefined : up[Math.floor(this.rand() * up.length)];
	}

	/** One request's decision, in its process's memory, on the static data it loaded. */
	private decide<T>(proc: number, step: () => T): T {
		// The trigger reads n8n's clock (a delivery's receipt): the model's.
		jest.setSystemTime(this.nowMs);
		this.decisions++;
		return this.memories.in(proc, step);
	}

	/** The request saves its static data whole when it ends, unless its process died first. */
	private saveLater(proc: number, data: IDataObject, maxMs: number): void {
		const { lifetime } = this;
		const life = lifetime[proc];
		const decision = this.decisions;
		const delay = this.rand() < 0.1 ? this.rand() * 10_000 : this.rand() * maxMs;
		this.at(this.nowMs + Math.floor(delay), () => {
			if (lifetime[proc] !== life) return;
			this.db = data;
			this.version++;
			for (const runs of this.runs.values()) {
				for (const run of runs) {
					const mine = run.proc === proc && run.lifetime === life;
					if (mine && run.saved === undefined && run.decision <= decision) {
						run.saved = this.version;
					}
				}
			}
		});
	}

	/** An execution starts; its worker may later save the record it carried over everything. */
	private execution(proc: number, data: IDataObject): void {
		if (this.rand() >= this.layout.workerSaves) return;
		const record = this.memories.in(proc, () => recordIn(data));
		if (record === undefined) return;
		const windowOnly = this.rand() < 0.1;
		const carried = storedForm(windowOnly ? { ...record, seen: {}, delivered: {} } : record);
		this.at(this.nowMs + 1 + Math.floor(this.rand() * 30_000), () => {
			this.db = { [CATCH_UP_KEY]: carried };
			this.version++;
			this.counts.workerSaves++;
		});
	}

	/** A run: `copies` are what its decision read; none of them may say it ran already. */
	private run(id: string, proc: number, loaded: number, copies: Copies, window: boolean): void {
		const row = this.rowsById.get(id)!;
		if (copiesSayRan(copies, row, window)) this.blind.push(`${id} ran though a copy held it`);
		const runs = this.runs.get(id) ?? [];
		const life = this.lifetime[proc];
		if (runs.length > 0) this.counts[this.causeOf(runs[0], loaded)]++;
		runs.push({ proc, lifetime: life, loaded, decision: this.decisions, atMs: this.nowMs });
		this.runs.set(id, runs);
	}

	/** Why a repeat's request did not see the first run's mark in static data. */
	private causeOf(first: Run, loaded: number): RepeatCause {
		if (first.saved === undefined)
			return this.lifetime[first.proc] === first.lifetime ? 'race' : 'unsaved';
		return first.saved > loaded ? 'race' : 'overwritten';
	}

	publish(): void {
		this.db = { [CATCH_UP_KEY]: storedForm(startRecord(FORM, null, this.nowMs, 'run1')) };
		this.version++;
		this.knockAt(this.nowMs + 35_000);
	}

	submit(count: number): void {
		this.fillout.submit(
			count,
			this.nowMs,
			() => this.webhookAlive,
			(atMs, row) => this.at(atMs, () => this.deliver(row)),
		);
		for (const row of this.fillout.rows) this.rowsById.set(row.id, row);
	}

	private deliver(row: Row): void {
		const proc = this.pick();
		if (proc === undefined) return;
		const data = deepCopy(this.db);
		const loaded = this.version;
		const copies = this.memories.in(proc, () => copiesIn(data));
		const first = this.decide(proc, () =>
			firstRunOfDelivery(webhookContext(data), 'production', FORM, row.id),
		);
		this.counts[first ? 'byDelivery' : 'refused']++;
		if (!first) return;
		this.run(row.id, proc, loaded, copies, false);
		this.saveLater(proc, data, this.layout.saveMs);
		this.execution(proc, data);
	}

	/** The main process knocks; a check lists, then decides when its listing ends. */
	private knock(): void {
		this.knockAt(this.nowMs + CHECK_EVERY_MS);
		const proc = this.pick();
		if (proc === undefined) return;
		const data = deepCopy(this.db);
		const loaded = this.version;
		const stored = deepCopy(data[CATCH_UP_KEY]) as Copies[number];
		const life = this.lifetime[proc];
		const check = this.memories.in(proc, () =>
			listForCheck(data, this.fillout.rows, this.nowMs, this.rand),
		);
		if (check === undefined) return;
		this.at(this.nowMs + Math.floor(this.rand() * this.layout.checkMs), () => {
			if (this.lifetime[proc] !== life) return;
			const [remembered] = this.memories.in(proc, () => copiesIn(data));
			const taken = this.decide(proc, check.decide);
			if (taken === undefined) return;
			for (const id of taken.missed) this.run(id, proc, loaded, [remembered, stored], true);
			this.counts.byCheck += taken.missed.length;
			this.saveLater(proc, data, this.layout.saveMs);
			if (taken.missed.length > 0) this.execution(proc, data);
			// The answer says more: the main process knocks again 5 s later.
			if (taken.more) this.knockAt(this.nowMs + 5_000);
		});
	}

	restart(proc: number): void {
		this.memories.restart(proc);
		this.lifetime[proc]++;
		this.up[proc] = false;
		this.counts.restarts++;
		this.restarts.push(this.nowMs);
		this.at(this.nowMs + Math.floor(this.rand() * 3 * MINUTE_MS), () => (this.up[proc] = true));
	}

	restartMain(): void {
		this.mainUp = false;
		this.knockTimer++;
		this.at(this.nowMs + Math.floor(this.rand() * 3 * MINUTE_MS), () => {
			this.mainUp = true;
			this.knockAt(this.nowMs + 35_000);
		});
	}
}

function simulate(
	seed: number,
	layout: Layout = ADVERSE,
): {
	model: TwoProcesses;
	startMs: number;
	lostAfterInterval: string[];
} {
	const rand = prng(seed);
	const model = new TwoProcesses(rand, layout);
	// Made before the trigger was published (no webhook yet): never run.
	model.webhookAlive = false;
	model.submit(3);
	model.webhookAlive = true;
	model.advance(model.nowMs + 1 + Math.floor(rand() * 10_000));
	const startMs = model.nowMs;
	model.publish();
	for (let step = 0; step < 250; step++) {
		model.advance(model.nowMs + Math.floor(rand() * 40_000));
		const roll = rand();
		if (roll < 0.45) model.submit(rand() < 0.2 ? 2 + Math.floor(rand() * 3) : 1);
		else if (roll < 0.5) model.webhookAlive = !model.webhookAlive;
		else if (roll < 0.56) {
			const proc = Math.floor(rand() * PROCESSES);
			if (model.up[proc]) model.restart(proc);
		} else if (roll < 0.58 && model.mainUp) model.restartMain();
	}
	// The drain: what is in flight lands; then everything is up, listed, past its date and
	// the grace, and n8n stays up one check interval.
	model.advance(Math.max(model.nowMs, model.fillout.lastMs()) + GRACE_MS + MINUTE_MS);
	model.webhookAlive = true;
	model.up.fill(true);
	model.mainUp = true;
	model.knockAt(model.nowMs);
	model.advance(model.nowMs + CHECK_EVERY_MS);
	const lostAfterInterval = neverRan(model, startMs);
	// Checks go on: a late repeat would show.
	model.advance(model.nowMs + 30 * CHECK_EVERY_MS);
	return { model, startMs, lostAfterInterval };
}

const neverRan = (model: TwoProcesses, startMs: number) =>
	model.fillout.rows
		.filter((row) => row.ms >= startMs && (model.runs.get(row.id)?.length ?? 0) === 0)
		.map((row) => `${row.id} (at ${row.ms - startMs} ms) never ran`);

function madeBefore(model: TwoProcesses, startMs: number): string[] {
	return model.fillout.rows
		.filter((row) => row.ms < startMs && model.runs.has(row.id))
		.map((row) => `${row.id}, made before the publish, ran`);
}

/** Runs that broke the rule: twice in one process lifetime, or though a copy it read held it. */
function repeatedInOneLifetime(model: TwoProcesses): string[] {
	const problems: string[] = [...model.blind];
	for (const [id, runs] of model.runs) {
		const lifetimes = runs.map((run) => `${run.proc}/${run.lifetime}`);
		if (new Set(lifetimes).size < lifetimes.length) {
			problems.push(`${id} ran twice in one process lifetime (${lifetimes.join(', ')})`);
		}
	}
	return problems;
}

/**
 * Submissions that ran more often than the bound: once per process lifetime there was
 * between its first run and its last (the processes up then, and each restart meanwhile).
 */
function overBound(model: TwoProcesses): string[] {
	const over: string[] = [];
	for (const [id, runs] of model.runs) {
		const [first, last] = [runs[0].atMs, runs[runs.length - 1].atMs];
		const restarts = model.restarts.filter((ms) => ms > first && ms <= last).length;
		if (runs.length > PROCESSES + restarts) over.push(`${id} ran ${runs.length} times`);
	}
	return over;
}

/** Submissions made after the publish that ran more than once, and the most runs of one. */
function repeatsOf(model: TwoProcesses, startMs: number) {
	const made = model.fillout.rows.filter((row) => row.ms >= startMs);
	const runs = made.map((row) => model.runs.get(row.id)?.length ?? 0);
	return {
		made: made.length,
		repeated: runs.filter((n) => n > 1).length,
		maxRuns: Math.max(0, ...runs),
	};
}

type Results = Map<number, ReturnType<typeof simulate>>;

/** The figures: the worst seed by repeats per 100 submissions, the most runs of one. */
function figures(name: string, results: Results): { perHundred: number; maxRuns: number } {
	let worst = { seed: 0, perHundred: 0, repeated: 0, made: 0 };
	let most = { seed: 0, runs: 0 };
	const total = { made: 0, repeated: 0, race: 0, unsaved: 0, overwritten: 0 };
	for (const [seed, { model, startMs }] of results) {
		const { made, repeated, maxRuns } = repeatsOf(model, startMs);
		const perHundred = made === 0 ? 0 : (100 * repeated) / made;
		if (perHundred > worst.perHundred) worst = { seed, perHundred, repeated, made };
		if (maxRuns > most.runs) most = { seed, runs: maxRuns };
		total.made += made;
		total.repeated += repeated;
		for (const cause of CAUSES) total[cause] += model.counts[cause];
	}
	const overall = (100 * total.repeated) / Math.max(1, total.made);
	process.stdout.write(
		`${[
			`catch-up, two webhook processes, ${name}, ${results.size} seeds:`,
			`  worst seed ${worst.seed}: ${worst.repeated} of ${worst.made} submissions ran more than once (${worst.perHundred.toFixed(1)} per 100)`,
			`  most runs of one submission: ${most.runs} (seed ${most.seed})`,
			`  all seeds: ${total.repeated} of ${total.made} ran more than once (${overall.toFixed(2)} per 100)`,
			`  repeats by cause: ${CAUSES.map((cause) => `${cause} ${total[cause]}`).join(', ')}`,
		].join('\n')}\n`,
	);
	return { perHundred: worst.perHundred, maxRuns: most.runs };
}

describe.each([
	['webhook processors alone', { ...ADVERSE, workerSaves: 0 }],
	['and workers saving static data (30 % of executions)', ADVERSE],
])('catch-up with two webhook processes, %s (model-based)', (name, layout) => {
	const seeds = process.env.CATCH_UP_SEED
		? [Number(process.env.CATCH_UP_SEED)]
		: Array.from({ length: CASES }, (_, i) => i + 1);
	const results: Results = new Map();

	beforeAll(() => {
		jest.useFakeTimers();
		for (const seed of seeds) results.set(seed, simulate(seed, layout));
	});
	afterAll(() => jest.useRealTimers());

	it('never loses a submission made after the publish, and runs none made before it', () => {
		const failures: string[] = [];
		for (const [seed, { model, startMs, lostAfterInterval }] of results) {
			const problems = [...lostAfterInterval, ...madeBefore(model, startMs)];
			if (problems.length > 0) failures.push(`seed ${seed}: ${problems.slice(0, 3).join('; ')}`);
		}
		expect(failures).toEqual([]);
	});

	it('runs a submission at most once per process lifetime, and measures the repeats', () => {
		const failures: string[] = [];
		for (const [seed, { model }] of results) {
			const over = [...repeatedInOneLifetime(model), ...overBound(model)];
			if (over.length > 0) failures.push(`seed ${seed}: ${over.slice(0, 3).join('; ')}`);
		}
		expect(failures).toEqual([]);
		const worst = figures(name, results);
		// Two processes that never restart: at most twice. The model does repeat some.
		expect(worst.maxRuns).toBeGreaterThan(1);
	});

	it('has histories with every kind of event (the model is not idle)', () => {
		const total = { byDelivery: 0, byCheck: 0, refused: 0, restarts: 0, race: 0 };
		let workerSaves = 0;
		for (const { model } of [...results.values()].slice(0, 50)) {
			for (const key of Object.keys(total) as Array<keyof typeof total>) {
				total[key] += model.counts[key];
			}
			workerSaves += model.counts.workerSaves;
		}
		expect(total.byDelivery).toBeGreaterThan(100);
		expect(total.byCheck).toBeGreaterThan(100);
		expect(total.refused).toBeGreaterThan(10);
		expect(total.restarts).toBeGreaterThan(10);
		expect(total.race).toBeGreaterThan(0);
		expect(workerSaves > 0).toBe(layout.workerSaves > 0);
	});
});
