/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: POLL_SEED from the environment replays one case */
import type { Submission } from '../../nodes/Fillout/helpers/interfaces';
import {
	MAX_SEEN,
	narrowWindow,
	readPollState,
	startState,
	takeFinished,
	takeInProgress,
	windowQueryStart,
	type PollState,
} from '../../nodes/Fillout/polling/pollState';
import { prng } from '../nodes/unit/support/listModel';

/**
 * Model-based randomized test of the polling cursor: thousands of seeded histories of a
 * form (respondents at random times, bursts sharing a millisecond, submissions listed
 * late, deletions) polled at random moments, with the state saved as JSON between polls
 * (a restart), the service's `afterDate` strict or inclusive, and some polls cut short
 * (n8n's poll budget): they read a random prefix of the listing.
 *
 * Invariants: no submission is ever emitted twice; every submission listed no later than
 * the late window after its time is emitted (exactly once, then); each poll emits in
 * (submissionTime, submissionId) order; `seen` stays within MAX_SEEN but for ids sharing
 * the window's first instant. Replay one with POLL_SEED=<seed> npx jest pollState.model.
 */

const CASES = 2000;
const FORM = 'form1';

interface Row {
	id: string;
	ms: number;
	/** When it shows up in the list. */
	visibleMs: number;
	deletedMs?: number;
}

interface Case {
	seed: number;
	overlapMs: number;
	inclusive: boolean;
	maxSeen: number;
	rows: Row[];
	polls: number[];
	restartChance: number;
}

function caseOf(seed: number): Case {
	const random = prng(seed);
	const int = (n: number) => Math.floor(random() * n);
	const overlapMs = [0, 1_000, 60_000, 600_000][int(4)];
	const startMs = Date.UTC(2025, 0, 1);
	const spanMs = 3_600_000;
	const rows: Row[] = [];
	const count = int(120);
	for (let i = 0; i < count; i++) {
		const burst = random() < 0.15 ? 2 + int(30) : 1;
		const ms = startMs + int(spanMs);
		for (let b = 0; b < burst; b++) {
			// Most are listed at once; some late, inside the window or beyond it.
			const lateBy =
				random() < 0.7 ? 0 : random() < 0.8 ? int(overlapMs + 1) : overlapMs + 1 + int(600_000);
			const row: Row = {
				id: `s${String(rows.length).padStart(4, '0')}x${int(1000)}`,
				ms,
				visibleMs: ms + lateBy,
			};
			if (random() < 0.05) row.deletedMs = row.visibleMs + int(120_000);
			rows.push(row);
		}
	}
	const polls: number[] = [];
	for (let t = startMs; t < startMs + spanMs + 1_200_000; t += 1 + int(300_000)) polls.push(t);
	return {
		seed,
		overlapMs,
		inclusive: random() < 0.5,
		maxSeen: random() < 0.2 ? 1 + int(40) : MAX_SEEN,
		rows,
		polls,
		restartChance: random() * 0.5,
	};
}

function listed(c: Case, state: PollState, atMs: number): Submission[] {
	const after = windowQueryStart(state);
	const afterMs = after === undefined ? -Infinity : Date.parse(after);
	return c.rows
		.filter((r) => r.visibleMs <= atMs && !(r.deletedMs !== undefined && r.deletedMs <= atMs))
		.filter((r) => (c.inclusive ? r.ms >= afterMs : r.ms > afterMs))
		.sort((a, b) => a.ms - b.ms || (a.id < b.id ? -1 : 1))
		.map(
			(r) =>
				({
					submissionId: r.id,
					submissionTime: new Date(r.ms).toISOString(),
					questions: [],
				}) as unknown as Submission,
		);
}

/** A poll out of n8n's budget reads only the first pages: a random prefix of the listing. */
function maybeCut(all: Submission[], random: () => number): Submission[] {
	if (random() >= 0.3 || all.length === 0) return all;
	const read = all.slice(0, 1 + Math.floor(random() * all.length));
	return read.length === all.length ? all : read;
}

function fail(c: Case, what: string): never {
	throw new Error(`seed ${c.seed}: ${what} (replay with POLL_SEED=${c.seed})`);
}

function run(c: Case): void {
	const random = prng(c.seed + 1);
	const firstPoll = c.polls[0];
	let state = startState(FORM, null, { fromMs: firstPoll, windowStartMs: firstPoll - c.overlapMs });
	const emitted = new Map<string, number>();
	// A row deleted before any full listing showed it is rightly never emitted.
	const uncut = new Set<number>();
	// The first poll only remembers what is there (Start From: now).
	state = takeFinished(state, listed(c, state, firstPoll), c.overlapMs, firstPoll).state;
	const before = new Set(listed(c, state, firstPoll).map((s) => s.submissionId));
	for (const at of c.polls.slice(1)) {
		if (random() < c.restartChance) {
			state = readPollState(JSON.parse(JSON.stringify(state)), FORM)!;
			expect(state).toBeDefined();
		}
		const all = listed(c, state, at);
		const read = maybeCut(all, random);
		if (read === all) uncut.add(at);
		const result = takeFinished(state, read, c.overlapMs, at);
		const narrowed = narrowWindow(result.state.seen, result.state.windowStartMs, c.maxSeen);
		state = { ...result.state, seen: narrowed.seen, windowStartMs: narrowed.startMs };
		const keys = result.fresh.map((s) => [Date.parse(s.submissionTime), s.submissionId] as const);
		const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
		if (JSON.stringify(keys) !== JSON.stringify(sorted))
			fail(c, `poll at ${at} emitted out of order`);
		for (const s of result.fresh) {
			if (emitted.has(s.submissionId)) fail(c, `${s.submissionId} emitted twice`);
			emitted.set(s.submissionId, at);
		}
		const cutInstant = Math.min(...Object.values(state.seen));
		const overCap = Object.values(state.seen).filter((ms) => ms > cutInstant).length;
		if (overCap >= Math.max(c.maxSeen, 1)) fail(c, `seen holds ${overCap} past its cap`);
	}
	const lastPoll = c.polls[c.polls.length - 1];
	// Polls cut short leave a backlog: uncut polls at the last moment drain it.
	for (let drained = false, n = 0; !drained; n++) {
		if (n > 50) fail(c, 'the backlog never drained');
		const result = takeFinished(state, listed(c, state, lastPoll), c.overlapMs, lastPoll);
		const narrowed = narrowWindow(result.state.seen, result.state.windowStartMs, c.maxSeen);
		state = { ...result.state, seen: narrowed.seen, windowStartMs: narrowed.startMs };
		for (const s of result.fresh) {
			if (emitted.has(s.submissionId)) fail(c, `${s.submissionId} emitted twice`);
			emitted.set(s.submissionId, lastPoll);
		}
		drained = result.fresh.length === 0;
	}
	if (c.maxSeen !== MAX_SEEN) return;
	for (const r of c.rows) {
		const caught =
			!before.has(r.id) &&
			r.visibleMs - r.ms <= c.overlapMs &&
			r.visibleMs >= firstPoll &&
			[...c.polls, lastPoll].some(
				(p) =>
					p > firstPoll &&
					(uncut.has(p) || p === lastPoll) &&
					p >= r.visibleMs &&
					p <= lastPoll &&
					(r.deletedMs === undefined || p < r.deletedMs),
			);
		if (caught && r.ms >= firstPoll - c.overlapMs) {
			if (!emitted.has(r.id)) fail(c, `${r.id} was never emitted`);
		}
	}
}

describe('polling cursor, model-based', () => {
	const only = process.env.POLL_SEED;
	const seeds = only ? [Number(only)] : Array.from({ length: CASES }, (_, i) => i + 1);
	it(`holds its invariants over ${seeds.length} seeded histories`, () => {
		for (const seed of seeds) run(caseOf(seed));
	});
});

describe('narrowWindow', () => {
	it('keeps every id at the cut instant, and drops what lies before the start', () => {
		const seen = { a: 1, b: 2, c: 2, d: 3 };
		expect(narrowWindow(seen, 2, 2)).toEqual({ startMs: 2, seen: { b: 2, c: 2, d: 3 } });
		expect(narrowWindow(seen, 0, 1)).toEqual({ startMs: 3, seen: { d: 3 } });
		expect(narrowWindow(seen, 3)).toEqual({ startMs: 3, seen: { d: 3 } });
	});
});

describe('readPollState', () => {
	it('refuses another form, another version and damaged fields', () => {
		const good = startState(FORM, 'F', { fromMs: 5, windowStartMs: 1 });
		expect(readPollState(good, FORM)).toEqual(good);
		expect(readPollState(good, 'other')).toBeUndefined();
		expect(readPollState({ ...good, version: 2 }, FORM)).toBeUndefined();
		expect(readPollState({ ...good, seen: { a: 'x' } }, FORM)).toBeUndefined();
		expect(readPollState({ ...good, windowStartMs: 'x' }, FORM)).toBeUndefined();
		expect(readPollState(undefined, FORM)).toBeUndefined();
	});
});

describe('takeInProgress', () => {
	const sub = (id: string, updated?: string) =>
		({
			submissionId: id,
			submissionTime: '2025-01-01T00:00:00.000Z',
			lastUpdatedAt: updated,
		}) as unknown as Submission;

	it('Emit Once: new ids only; forgets ids no longer in progress', () => {
		const first = takeInProgress({}, [sub('b', '1'), sub('a', '1')], 'once', 0);
		expect(first.fresh.map((s) => s.submissionId)).toEqual(['a', 'b']);
		const second = takeInProgress(first.handled, [sub('a', '2'), sub('c')], 'once', 0);
		expect(second.fresh.map((s) => s.submissionId)).toEqual(['c']);
		expect(second.handled).toEqual({ a: '2', c: '' });
	});

	it('Emit on Every Update: again when lastUpdatedAt changes', () => {
		const handled = { a: '1', b: '1' };
		const taken = takeInProgress(handled, [sub('a', '2'), sub('b', '1')], 'onUpdate', 0);
		expect(taken.fresh.map((s) => s.submissionId)).toEqual(['a']);
	});
});
