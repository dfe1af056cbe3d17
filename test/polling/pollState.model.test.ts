/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: POLL_SEED from the environment replays one case */
import type { Submission } from '../../nodes/Fillout/shared/interfaces';
import {
	MAX_SEEN,
	WATCHED_IN_PROGRESS,
	narrowWindow,
	readPollState,
	servicePresentMs,
	startState,
	takeInProgress,
	windowQueryStart,
	type InProgressMode,
	type PollState,
} from '../../nodes/Fillout/pollingTrigger/pollState';
import { takePoll, type Start } from '../../nodes/Fillout/pollingTrigger/pollStep';
import { prng } from '../nodes/unit/support/listModel';
import { caseCount } from '../support/caseCount';

/**
 * Model-based randomized test of the polling trigger's cursor (`takePoll`, what each poll
 * runs on what it listed): thousands of seeded histories of a form polled at random
 * moments, against a model of Fillout that does what the live service may do:
 *
 * - respondents at random times, bursts sharing a millisecond, deletions;
 * - submissions listed late (inside the late window or beyond it), and future-dated ones
 *   (an import with local times marked as UTC, a wrong clock), listed long before their date;
 * - n8n's clock off from Fillout's (by under a second, by more than the window, by hours),
 *   with Fillout's `date` header (whole seconds) or without one;
 * - hundreds of stale in-progress submissions, new ones starting, finishing, updating;
 * - `afterDate` strict or inclusive; restarts (the state through JSON); polls cut short by
 *   n8n's budget (a random prefix of the listing, a start from now's too), and by Download
 *   Files (only the first few emitted); a start from now or a backfill;
 * - the in-progress list read a little before the finished one, so a submission finished
 *   in between is in both lists.
 *
 * Invariants. Finished: none emitted twice; each poll in (submissionTime, submissionId)
 * order; a complete listing emits every listed submission inside the window and dated up
 * to the present; the window never passes a submission that will be listed within the
 * late window after its date (but where the `seen` cap closes it in, or a start from now
 * was cut short: then all dated before it count as handled), so every such submission is
 * emitted (after a final drain), none from before a start from now. A poll cut by Download
 * Files emits exactly the first of what the whole poll would (its items match by position).
 * In progress: none emitted twice (Emit Once) or twice for one `lastUpdatedAt`; each one
 * started after the trigger watches them is emitted while it is among the newest 150;
 * none from before a start from now (Emit Once); at most 150 remembered.
 * Replay one with POLL_SEED=<seed> npx jest pollState.model.
 */

const CASES = caseCount({ fast: 300, all: 2000 });
const FORM = 'form1';
const HOUR_MS = 3_600_000;

interface Row {
	id: string;
	ms: number;
	/** As the list shows it (built once). */
	submission?: Submission;
	/** When it shows up in the list. */
	visibleMs: number;
	deletedMs?: number;
}

interface Partial {
	id: string;
	ms: number;
	/** When it leaves the in-progress list (finished: it is then a finished row). */
	endMs?: number;
	/** Saves of progress: `lastUpdatedAt` moves. */
	updates: number[];
	/** As the list shows it, per `lastUpdatedAt` (built once). */
	shown?: Map<number, Submission>;
}

interface Case {
	seed: number;
	overlapMs: number;
	inclusive: boolean;
	maxSeen: number;
	rows: Row[];
	partials: Partial[];
	/** Fillout's clock at each poll. */
	polls: number[];
	restartChance: number;
	/** n8n's clock minus Fillout's. */
	skewMs: number;
	dateHeader: boolean;
	start: 'quiet' | 'backfill';
	inProgress: InProgressMode;
	/** Per poll: how long before the listing the in-progress list is read. */
	leads: number[];
}

function caseOf(seed: number): Case {
	const random = prng(seed);
	const int = (n: number) => Math.floor(random() * n);
	const overlapMs = [0, 1_000, 60_000, 600_000][int(4)];
	const startMs = Date.UTC(2025, 0, 1);
	const spanMs = HOUR_MS;
	const rows: Row[] = [];
	const count = int(120);
	for (let i = 0; i < count; i++) {
		const burst = random() < 0.15 ? 2 + int(30) : 1;
		const ms = startMs + int(spanMs);
		const future = random() < 0.05 ? 1 + int(overlapMs + 2 * HOUR_MS) : 0;
		for (let b = 0; b < burst; b++) {
			// Most are listed at once; some late, inside the window or beyond it; some early.
			const lateBy =
				random() < 0.7 ? 0 : random() < 0.8 ? int(overlapMs + 1) : overlapMs + 1 + int(600_000);
			const row: Row = {
				id: `s${String(rows.length).padStart(4, '0')}x${int(1000)}`,
				ms: ms + future,
				visibleMs: ms + (future ? 0 : lateBy),
			};
			if (random() < 0.05) row.deletedMs = row.visibleMs + int(120_000);
			rows.push(row);
		}
	}
	const partials: Partial[] = [];
	const stale = random() < 0.5 ? int(400) : int(20);
	for (let i = 0; i < stale; i++) {
		partials.push({
			id: `p${i}`,
			ms: startMs - 24 * HOUR_MS - int(30 * 24 * HOUR_MS),
			updates: [],
		});
	}
	const fresh = int(60);
	for (let i = 0; i < fresh; i++) {
		const ms = startMs + int(spanMs);
		const partial: Partial = { id: `q${i}`, ms, updates: [] };
		if (random() < 0.5) partial.endMs = ms + 1 + int(spanMs);
		for (let u = int(3); u > 0; u--) partial.updates.push(ms + 1 + int(spanMs));
		partials.push(partial);
	}
	for (const partial of partials.slice(0, stale)) {
		if (random() < 0.1) partial.updates.push(startMs + int(spanMs));
	}
	// A finished partial is a finished submission from then on, listed at once.
	for (const partial of partials) {
		if (partial.endMs !== undefined) {
			rows.push({ id: partial.id, ms: partial.endMs, visibleMs: partial.endMs });
		}
	}
	const polls: number[] = [];
	for (let t = startMs; t < startMs + spanMs + 1_200_000; t += 1 + int(300_000)) polls.push(t);
	const skews = [
		0,
		0,
		-400,
		400,
		-(overlapMs + 300_000),
		overlapMs + 300_000,
		-2 * HOUR_MS,
		2 * HOUR_MS,
	];
	const dateHeader = random() < 0.85;
	let skewMs = skews[int(skews.length)];
	// n8n's clock ahead with no `date` header from Fillout: the case the trigger cannot see.
	if (!dateHeader && skewMs > 0) skewMs = 0;
	rows.sort(byTime);
	partials.sort((a, b) => -byTime(a, b));
	// Half the forms have submissions before the trigger starts, late ones among them.
	polls.splice(0, random() < 0.5 ? int(polls.length / 2) : 0);
	const leads = polls.map(() => (random() < 0.3 ? int(120_000) : 0));
	return {
		leads,
		seed,
		overlapMs,
		inclusive: random() < 0.5,
		maxSeen: random() < 0.2 ? 1 + int(40) : MAX_SEEN,
		rows,
		partials,
		polls,
		restartChance: random() * 0.5,
		skewMs,
		dateHeader,
		start: random() < 0.7 ? 'quiet' : 'backfill',
		inProgress: (['ignore', 'once', 'onUpdate'] as const)[int(3)],
	};
}

const asSubmission = (id: string, ms: number, lastUpdatedMs?: number) =>
	({
		submissionId: id,
		submissionTime: new Date(ms).toISOString(),
		lastUpdatedAt: new Date(lastUpdatedMs ?? ms).toISOString(),
		questions: [],
	}) as unknown as Submission;

const byTime = (a: { ms: number; id: string }, b: { ms: number; id: string }) =>
	a.ms - b.ms || (a.id < b.id ? -1 : 1);

const isListed = (r: Row, atMs: number) =>
	r.visibleMs <= atMs && !(r.deletedMs !== undefined && r.deletedMs <= atMs);

function listed(c: Case, state: PollState, atMs: number): Submission[] {
	const after = windowQueryStart(state);
	const afterMs = after === undefined ? -Infinity : Date.parse(after);
	// c.rows is in (ms, id) order.
	return c.rows
		.filter((r) => isListed(r, atMs) && (c.inclusive ? r.ms >= afterMs : r.ms > afterMs))
		.map((r) => (r.submission ??= asSubmission(r.id, r.ms)));
}

const inProgressAt = (p: Partial, atMs: number) =>
	p.ms <= atMs && (p.endMs === undefined || p.endMs > atMs);

const lastUpdateOf = (p: Partial, atMs: number) =>
	Math.max(p.ms, ...p.updates.filter((u) => u <= atMs));

/** The newest in-progress submissions, as the trigger asks for them. */
function listedInProgress(c: Case, atMs: number): Submission[] {
	// c.partials is newest first.
	const page: Submission[] = [];
	for (const p of c.partials) {
		if (page.length === WATCHED_IN_PROGRESS) break;
		if (!inProgressAt(p, atMs)) continue;
		const updated = lastUpdateOf(p, atMs);
		const shown = (p.shown ??= new Map()).get(updated) ?? asSubmission(p.id, p.ms, updated);
		p.shown.set(updated, shown);
		page.push(shown);
	}
	return page;
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

/** The poll's present, from n8n's clock and Fillout's `date` header, as the trigger reads it. */
function presentAt(c: Case, atMs: number): number {
	const header = c.dateHeader ? Math.floor(atMs / 1000) * 1000 : undefined;
	return servicePresentMs(header, atMs + c.skewMs);
}

function run(c: Case): void {
	const random = prng(c.seed + 1);
	const settings = { overlapMs: c.overlapMs, inProgress: c.inProgress };
	const firstPoll = c.polls[0];
	const firstPresent = presentAt(c, firstPoll);
	let start: Start =
		c.start === 'quiet'
			? {
					kind: 'quiet',
					state: startState(FORM, null, {
						fromMs: firstPresent,
						windowStartMs: firstPresent - c.overlapMs,
					}),
				}
			: {
					kind: 'backfill',
					fromMs: 0,
					state: startState(FORM, null, { fromMs: 0, windowStartMs: 0 }),
				};
	const emitted = new Map<string, number>();
	const emittedInProgress = new Map<string, Set<string>>();
	const excused = new Set<string>();
	// Before a start from now: what was listed then, and what was in progress then.
	const before = new Set(
		c.start === 'quiet'
			? c.rows.filter((r) => isListed(r, firstPoll) && r.ms <= firstPresent).map((r) => r.id)
			: [],
	);
	const inProgressBefore = new Set(
		c.start === 'quiet'
			? c.partials.filter((p) => inProgressAt(p, firstPoll - c.leads[0])).map((p) => p.id)
			: [],
	);
	const late = (r: Row) =>
		r.visibleMs - r.ms <= c.overlapMs || (c.start === 'backfill' && r.visibleMs <= firstPoll);
	const expected = (r: Row) => !before.has(r.id) && late(r) && !excused.has(r.id);
	let horizonMs = 0;
	let inProgressReadMs = -Infinity;

	const poll = (at: number, cut: boolean, leadMs = 0) => {
		if (random() < c.restartChance) {
			const state = readPollState(JSON.parse(JSON.stringify(start.state)), FORM);
			if (!state) fail(c, 'the stored state does not read back');
			start = { ...start, state };
		}
		const present = presentAt(c, at);
		const all = listed(c, start.state, at);
		const read = cut ? maybeCut(all, random) : all;
		const complete = read === all;
		// A start from now cut short: what it did not list before its present counts as handled.
		if (start.kind === 'quiet' && !complete) {
			for (const r of c.rows) if (r.ms <= start.state.newestMs) excused.add(r.id);
		}
		inProgressReadMs = Math.max(inProgressReadMs, at - leadMs);
		const inProgress =
			c.inProgress === 'ignore' ? undefined : listedInProgress(c, inProgressReadMs);
		const whole = takePoll(start, read, inProgress, settings, present, { complete });
		let taken = whole;
		if (cut && whole.emitted.length > 1 && random() < 0.3) {
			const emitAtMost = 1 + Math.floor(random() * (whole.emitted.length - 1));
			taken = takePoll(start, read, inProgress, settings, present, { complete, emitAtMost });
			if (
				taken.emitted.length !== emitAtMost ||
				taken.statuses.length !== emitAtMost ||
				taken.emitted.some((s, i) => s !== whole.emitted[i]) ||
				taken.statuses.some((status, i) => status !== whole.statuses[i])
			)
				fail(c, `poll at ${at} cut by files to ${emitAtMost} emitted other than the first`);
		}
		const filesCut = new Set(whole.emitted.slice(taken.emitted.length).map((s) => s.submissionId));
		const next = taken.next;
		const narrowed = narrowWindow(next.seen, next.windowStartMs, c.maxSeen);
		if (narrowed.startMs > next.windowStartMs) {
			for (const r of c.rows) if (r.ms < narrowed.startMs) excused.add(r.id);
		}
		const windowBefore = start.state.windowStartMs;
		const state: PollState = { ...next, seen: narrowed.seen, windowStartMs: narrowed.startMs };
		const finished = taken.emitted.filter((_, i) => taken.statuses[i] === 'finished');
		const keys = finished.map((s) => ({ ms: Date.parse(s.submissionTime), id: s.submissionId }));
		if (JSON.stringify(keys) !== JSON.stringify([...keys].sort(byTime)))
			fail(c, `poll at ${at} emitted out of order`);
		for (const s of finished) {
			if (emitted.has(s.submissionId)) fail(c, `${s.submissionId} emitted twice`);
			if (before.has(s.submissionId)) fail(c, `${s.submissionId} from before the start emitted`);
			emitted.set(s.submissionId, at);
		}
		// A complete listing emits everything listed inside the window, up to the present
		// (but what Download Files left for the next poll).
		if (complete && start.kind !== 'quiet') {
			for (const r of c.rows) {
				const left = emitted.has(r.id) || filesCut.has(r.id) || before.has(r.id);
				if (isListed(r, at) && r.ms >= windowBefore && r.ms <= present && !left)
					fail(c, `${r.id} was listed in the window at ${at} and not emitted`);
			}
		}
		for (const r of c.rows) {
			if (emitted.has(r.id) || r.deletedMs !== undefined || !expected(r)) continue;
			if (r.ms < state.windowStartMs) fail(c, `the window passed ${r.id} before emitting it`);
		}
		// In progress.
		if (inProgress !== undefined) {
			if (inProgress.length >= WATCHED_IN_PROGRESS) {
				horizonMs = Math.max(
					horizonMs,
					Date.parse(inProgress[inProgress.length - 1].submissionTime),
				);
			}
			const emittedNow = taken.emitted.filter((_, i) => taken.statuses[i] === 'in_progress');
			for (const s of emittedNow) {
				const versions = emittedInProgress.get(s.submissionId) ?? new Set();
				if (versions.has(s.lastUpdatedAt!) || (c.inProgress === 'once' && versions.size > 0))
					fail(c, `in-progress ${s.submissionId} emitted twice`);
				if (c.inProgress === 'once' && inProgressBefore.has(s.submissionId))
					fail(c, `in-progress ${s.submissionId} from before the start emitted`);
				versions.add(s.lastUpdatedAt!);
				emittedInProgress.set(s.submissionId, versions);
			}
			const watching = start.kind !== 'quiet';
			for (const s of inProgress) {
				const ms = Date.parse(s.submissionTime);
				const due =
					watching &&
					ms >= horizonMs &&
					!inProgressBefore.has(s.submissionId) &&
					!filesCut.has(s.submissionId);
				if (due && !emittedInProgress.has(s.submissionId))
					fail(c, `in-progress ${s.submissionId} watched at ${at} and never emitted`);
			}
			if (Object.keys(state.inProgress ?? {}).length > WATCHED_IN_PROGRESS)
				fail(c, 'more in-progress ids remembered than watched');
		}
		const times = Object.values(state.seen);
		const cutInstant = Math.min(...times);
		const overCap = times.filter((ms) => ms > cutInstant).length;
		if (overCap >= Math.max(c.maxSeen, 1)) fail(c, `seen holds ${overCap} past its cap`);
		start = { kind: 'resume', state };
		return taken.emitted.length;
	};

	c.polls.forEach((at, i) => poll(at, true, c.leads[i]));
	// Uncut polls after every date and listing drain what is left.
	const endMs =
		Math.max(...c.polls, ...c.rows.flatMap((r) => [r.ms, r.visibleMs])) + Math.abs(c.skewMs) + 2000;
	for (let n = 0; poll(endMs, false) > 0; n++) if (n > 50) fail(c, 'the backlog never drained');
	for (const r of c.rows) {
		if (r.deletedMs === undefined && expected(r) && !emitted.has(r.id))
			fail(c, `${r.id} was never emitted`);
	}
}

describe('polling cursor, model-based', () => {
	const only = process.env.POLL_SEED;
	const seeds = only ? [Number(only)] : Array.from({ length: CASES }, (_, i) => i + 1);
	it(`holds its invariants over ${seeds.length} seeded histories`, () => {
		for (const seed of seeds) run(caseOf(seed));
	});
});

describe('takePoll', () => {
	const at = (id: string, ms: number) => asSubmission(id, ms);
	const settings = { overlapMs: 600_000, inProgress: 'once' as const };
	const T = Date.UTC(2025, 0, 1);

	it('a start from now cut short counts all dated up to its present as handled, and nothing after', () => {
		const quiet: Start = {
			kind: 'quiet',
			state: startState(FORM, null, { fromMs: T, windowStartMs: T - 600_000 }),
		};
		const cut = takePoll(quiet, [at('old', T - 5000)], undefined, settings, T, {
			complete: false,
		});
		expect(cut.emitted).toEqual([]);
		const listed = [at('before', T - 1), at('atStart', T), at('after', T + 1)];
		const next = takePoll({ kind: 'resume', state: cut.next }, listed, undefined, settings, T + 10);
		expect(next.emitted.map((s) => s.submissionId)).toEqual(['after']);
	});

	it('Ignore forgets the in-progress ones: turned on again, it only remembers those there then', () => {
		const resume = (state: PollState): Start => ({ kind: 'resume', state });
		const watching = { ...startState(FORM, null, { fromMs: T, windowStartMs: T }), inProgress: {} };
		const ignored = takePoll(
			resume(watching),
			[],
			undefined,
			{ ...settings, inProgress: 'ignore' },
			T,
		);
		expect(ignored.next).not.toHaveProperty('inProgress');
		const again = takePoll(resume(ignored.next), [], [at('p', T + 1)], settings, T + 2);
		expect(again.emitted).toEqual([]);
		expect(again.next.inProgress).toEqual({ p: new Date(T + 1).toISOString() });
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

	it('a full listing stops watching what is older than its oldest: one coming back is not emitted again', () => {
		const at = (id: string, ms: number) =>
			({ submissionId: id, submissionTime: new Date(ms).toISOString() }) as unknown as Submission;
		const page = (from: number) =>
			Array.from({ length: WATCHED_IN_PROGRESS }, (_, i) => at(`n${from + i}`, from + i)).reverse();
		const first = takeInProgress({}, [...page(1000), at('old', 5)].slice(0, 150), 'once', 0);
		expect(first.sinceMs).toBe(1000);
		// 'old' is older than the oldest of a full page: not watched, even when listed.
		const second = takeInProgress(
			first.handled,
			[...page(1000).slice(0, 100), at('old', 5)],
			'once',
			0,
			first.sinceMs,
		);
		expect(second.fresh).toEqual([]);
		expect(second.handled).not.toHaveProperty('old');
		expect(Object.keys(second.handled)).toHaveLength(100);
	});

	it('Emit on Every Update: again when lastUpdatedAt changes', () => {
		const handled = { a: '1', b: '1' };
		const taken = takeInProgress(handled, [sub('a', '2'), sub('b', '1')], 'onUpdate', 0);
		expect(taken.fresh.map((s) => s.submissionId)).toEqual(['a']);
	});
});
