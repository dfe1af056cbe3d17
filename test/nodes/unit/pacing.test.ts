import { sleep } from 'n8n-workflow';

import {
	finishedWith,
	observeAnswer,
	SlidingWindowPacer,
	waitForTurn,
	type PacerSlot,
} from '../../../nodes/Fillout/transport/pacing';
import { SharedRate } from '../../../nodes/Fillout/transport/sharedRate';
import { prng } from './support/listModel';

/** A pacer with no lead: it counts each request from its answer. */
class AnswerRulePacer extends SlidingWindowPacer {
	earliestStart(now: number, spacingMs = 0): number | undefined {
		return super.earliestStart(now, spacingMs, 0);
	}
}
const answerRulePacer = (): SlidingWindowPacer => new AnswerRulePacer();

/** Starts a request at `now` if the pacer allows it then, and returns its slot. */
function startAt(pacer: SlidingWindowPacer, now: number, spacingMs = 0): PacerSlot {
	expect(pacer.earliestStart(now, spacingMs)).toBe(now);
	return pacer.start(now);
}

/** Requests one after another, each answered `tripMs` after its start: their starts. */
function sequentialStarts(pacer: SlidingWindowPacer, trips: number[]): number[] {
	let now = 0;
	return trips.map((tripMs) => {
		now = pacer.earliestStart(now) ?? NaN;
		const slot = pacer.start(now);
		pacer.finish(slot, now + tripMs, true);
		const started = now;
		now += tripMs;
		return started;
	});
}

describe('SlidingWindowPacer, once Fillout refused a request (no lead)', () => {
	it('lets the first 5 requests start at once, then waits for answers', () => {
		const pacer = answerRulePacer();
		for (let i = 0; i < 5; i++) startAt(pacer, 0);
		// In flight, a request may still be on its way: it holds its place until its answer.
		expect(pacer.earliestStart(5_000)).toBeUndefined();
	});

	it('counts each request from its answer', () => {
		const pacer = answerRulePacer();
		const starts = sequentialStarts(pacer, Array(11).fill(40));
		// The 6th waits for the 1st's answer (40) and a window: 1050, and so on.
		expect(starts).toEqual([0, 40, 80, 120, 160, 1050, 1090, 1130, 1170, 1210, 2100]);
	});

	it('counts a slower round trip from its later answer', () => {
		const pacer = answerRulePacer();
		const starts = sequentialStarts(pacer, [40, 40, 340, 40, 40, 40, 40, 40]);
		// The 3rd (start 80) was answered at 420: the 8th waits for 420 + 1010.
		expect(starts.slice(5)).toEqual([1050, 1090, 1430]);
	});

	it('waits for the fifth latest answer when several are in', () => {
		const pacer = answerRulePacer();
		const slots = Array.from({ length: 5 }, () => startAt(pacer, 0));
		[300, 100, 500, 200, 400].forEach((end, i) => pacer.finish(slots[i], end, true));
		// All five answered: the earliest answer (100) frees the 6th at 1110.
		expect(pacer.earliestStart(500)).toBe(1110);
		startAt(pacer, 1110);
		expect(pacer.earliestStart(1110)).toBe(1210);
	});

	it('counts a request that failed without an answer from when it failed', () => {
		const pacer = answerRulePacer();
		sequentialStarts(pacer, [40, 40]);
		const lost = startAt(pacer, 80);
		pacer.finish(lost, 600, false);
		for (const now of [600, 640, 1050, 1090]) pacer.finish(startAt(pacer, now), now + 40, true);
		// The lost one may have arrived just before it failed: the 8th waits for 600 + 1010
		// (from its start, 80, it would be 1090).
		expect(pacer.earliestStart(1130)).toBe(1610);
	});

	it('never counts an answer from before its start', () => {
		const pacer = answerRulePacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 100), 50, true);
		expect(pacer.earliestStart(100)).toBe(1110);
	});

	it('keeps starts at least the spacing apart', () => {
		const pacer = answerRulePacer();
		startAt(pacer, 0, 400);
		expect(pacer.earliestStart(100, 400)).toBe(400);
		startAt(pacer, 400, 400);
		expect(pacer.earliestStart(2000, 400)).toBe(2000);
	});

	it('follows a limit changed after it was made (the service announces its own)', () => {
		const pacer = answerRulePacer();
		pacer.limit = 2;
		for (const slot of [startAt(pacer, 0), startAt(pacer, 0)]) pacer.finish(slot, 100, true);
		expect(pacer.earliestStart(100)).toBe(1110);
	});

	it('does not wait when requests are already spread out', () => {
		const pacer = answerRulePacer();
		for (const now of [0, 300, 600, 900, 1200, 1500, 1800, 2100]) {
			pacer.finish(startAt(pacer, now), now + 20, true);
		}
	});

	it('forgets an answer a window after it, not before', () => {
		const pacer = answerRulePacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 0), 100, true);
		expect(pacer.earliestStart(1109)).toBe(1110);
		expect(pacer.earliestStart(1110)).toBe(1110);
	});
});

/** One round trip: its length, and the share of it before Fillout counts the request. */
interface Trip {
	tripMs: number;
	there: number;
}

/**
 * Sends requests as soon as the pacer allows, against Fillout's 5 per 1,000 ms (a
 * refused request is answered 429, which the pacer hears, and is sent again) until 80
 * are accepted. Returns the refused requests.
 */
function sendAgainstWindow(pacer: SlidingWindowPacer, nextTrip: () => Trip) {
	const accepted: number[] = [];
	const counts: Array<{ at: number; allowed?: boolean }> = [];
	const inFlight: Array<{
		slot: PacerSlot;
		count: { at: number; allowed?: boolean };
		end: number;
	}> = [];
	const refusals: PacerSlot[] = [];
	/** Fillout's verdicts in the order it counted: every request counted by `until` started by then. */
	const judgeUntil = (until: number) => {
		for (const count of counts.sort((a, b) => a.at - b.at)) {
			if (count.at > until) break;
			if (count.allowed !== undefined) continue;
			count.allowed = accepted.filter((at) => at > count.at - 1000).length < 5;
			if (count.allowed) accepted.push(count.at);
		}
	};
	let now = 0;
	while (accepted.length < 80) {
		const at = pacer.earliestStart(now);
		const due = inFlight.sort((a, b) => a.end - b.end)[0];
		if (due && (at === undefined || at > due.end)) {
			inFlight.shift();
			now = due.end;
			judgeUntil(due.count.at);
			pacer.finish(due.slot, due.end, true);
			if (!due.count.allowed) {
				pacer.refusedForWindow(due.slot);
				refusals.push(due.slot);
			}
			continue;
		}
		now = at!;
		const slot = pacer.start(now);
		const { tripMs, there } = nextTrip();
		const count = { at: now + tripMs * there };
		counts.push(count);
		inFlight.push({ slot, count, end: now + tripMs });
	}
	return refusals;
}

/**
 * Round trips in seeded spells, each with its own length and its own share of the way
 * there (a busy n8n holds requests before they leave for a while, then not).
 */
function tripsInSpells(random: () => number): () => Trip {
	let spell = { left: 0, tripMs: 0, there: 0 };
	return () => {
		if (spell.left-- <= 0) {
			const tripMs = random() < 0.2 ? random() * 1500 : random() * 150;
			spell = { left: 2 + Math.floor(random() * 12), tripMs, there: random() };
		}
		const tripMs = spell.tripMs * (0.9 + 0.2 * random());
		return { tripMs, there: Math.min(1, spell.there + 0.1 * random()) };
	};
}

const SEEDS = Array.from({ length: 40 }, (_, index) => index + 1);

describe('SlidingWindowPacer with its lead (the quickest warm round trip)', () => {
	it('counts an answered request from its answer less the quickest warm round trip', () => {
		const pacer = new SlidingWindowPacer();
		const starts = sequentialStarts(pacer, [40, 60, 40, 40, 40, 90, 40, 40]);
		// The 1st is cold (no answer before it): counted from its answer (40). From the 2nd on
		// the lead is 60, then 40: the 6th waits for the 1st's answer and a window; the 7th
		// for the 2nd (100 - 40), which the 6th's answer (1140) passed.
		expect(starts).toEqual([0, 40, 100, 140, 180, 1050, 1140, 1180]);
	});

	it('takes a request started as the first answer came as warm', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 0), 1000, true);
		// Started at 1010, the first answer's time and a window: warm, its 10 ms are the lead.
		pacer.finish(startAt(pacer, 2010), 2020, true);
		expect(pacer.earliestStart(2020)).toBe(3020);
	});

	it('counts a cold request from its answer: it came back alone, the lead from warm ones', () => {
		const pacer = new SlidingWindowPacer();
		const [first, second] = [startAt(pacer, 0), startAt(pacer, 0)];
		pacer.finish(first, 10, true);
		const warm = startAt(pacer, 10);
		pacer.finish(second, 20, true);
		pacer.finish(warm, 60, true);
		// Lead 50: the warm one counts from 10; the cold ones from their answers, 10 and 20
		// (with the lead they would count from their start, 0). Two in flight: three places.
		startAt(pacer, 60);
		startAt(pacer, 60);
		expect(pacer.earliestStart(60)).toBe(1020);
	});

	it('learns no lead from a network failure', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 1;
		pacer.finish(startAt(pacer, 0), 40, true);
		pacer.finish(startAt(pacer, 1050), 1090, true);
		// Lead 40. A failure 5 ms after its start counts from the failure, and leaves the lead.
		pacer.finish(startAt(pacer, 2060), 2065, false);
		pacer.finish(startAt(pacer, 3075), 3115, true);
		expect(pacer.earliestStart(3115)).toBe(4085);
	});

	it('learns nothing from cold requests: five at once, none answered before they left', () => {
		const pacer = new SlidingWindowPacer();
		const slots = Array.from({ length: 5 }, () => startAt(pacer, 0));
		for (const slot of slots) pacer.finish(slot, 300, true);
		expect(pacer.earliestStart(300)).toBe(1310);
	});

	it('counts a network failure from when it failed', () => {
		const pacer = new SlidingWindowPacer();
		pacer.limit = 1;
		// Cold, then warm with a lead of 40: counted at its start, 1060.
		expect(sequentialStarts(pacer, [50, 40])).toEqual([0, 1060]);
		const lost = startAt(pacer, 2070);
		pacer.finish(lost, 2400, false);
		expect(pacer.earliestStart(2400)).toBe(3410);
	});

	it('narrows the lead by 20 ms at a refusal it caused, and says whether the lead started that request early', () => {
		const pacer = new SlidingWindowPacer();
		pacer.finish(startAt(pacer, 0), 40, true);
		const warm = [0, 1, 2, 3].map(() => startAt(pacer, 40));
		warm.forEach((slot, index) => pacer.finish(slot, 80 + 10 * index, true));
		// Lead 40: the warm ones count from 40, 50, 60 and 70; the cold one from its answer, 40.
		expect(pacer.earliestStart(110)).toBe(1050);
		const sixth = startAt(pacer, 1050);
		// With the 6th in flight, four places: the 4th latest counted (40) and a window. Without
		// the lead, from the answers: not before 80 + 1010, so this one starts early.
		const early = startAt(pacer, 1060);
		pacer.finish(sixth, 1095, true);
		pacer.finish(early, 1100, true);
		expect(pacer.refusedForWindow(early)).toBe(true);
		expect(pacer.leadAt(1100)).toBe(20);
		expect(pacer.refusedForWindow(sixth)).toBe(false);
		const onTime = startAt(pacer, 2200);
		pacer.finish(onTime, 2240, true);
		expect(pacer.refusedForWindow(onTime)).toBe(false);
		// A refusal the lead did not cause leaves it alone.
		expect(pacer.leadAt(2240)).toBeCloseTo(20, 1);
		const five = [0, 1, 2, 3].map(() => startAt(pacer, 2240));
		five.forEach((slot, index) => pacer.finish(slot, 2290 + 10 * index, true));
		// Counted from 2220 (lead 20, not 40), 2270, ...: the 5th latest and a window.
		expect(pacer.earliestStart(2320)).toBeCloseTo(3230, 0);
	});

	/**
	 * While no round trip is quicker than the quickest warm one before it, and each keeps
	 * its share of the way there, the lead keeps every window within 5: no refusal.
	 */
	it.each(SEEDS)('seed %i: round trips that keep their shape draw no refusal', (seed) => {
		const random = prng(seed);
		const there = random();
		const quickestMs = 5 + random() * 1000;
		let sent = 0;
		const refusals = sendAgainstWindow(new SlidingWindowPacer(), () => ({
			// Five cold ones and the first warm one are the quickest.
			tripMs:
				sent++ < 6 ? quickestMs : quickestMs * (1 + (random() < 0.2 ? random() : 0.1 * random())),
			there,
		}));
		expect(refusals).toEqual([]);
	});

	/**
	 * When they do not (a busy n8n holds requests before they leave for a while, then not),
	 * Fillout may refuse requests the lead started early, and no other, in a few rounds (a
	 * round: the requests started before its first refusal came back). Each round at least
	 * doubles the margin from 20 ms, up to the quickest round trip, where no lead is left:
	 * after 1 + ceil(log2(quickest / 20)) rounds at most (a quickest of 1,650 ms: 8). Seeded spells
	 * of round trips, each with its own length and share of the way there, any number in flight.
	 */
	it.each(SEEDS)('seed %i: refusals only of requests started early, in a few rounds', (seed) => {
		const pacer = new SlidingWindowPacer();
		const refusals = sendAgainstWindow(pacer, tripsInSpells(prng(seed)));
		for (const slot of refusals) expect(slot.early).toBe(true);
		let roundEnd = -Infinity;
		let rounds = 0;
		for (const slot of [...refusals].sort((a, b) => a.end! - b.end!)) {
			if (slot.start < roundEnd) continue;
			rounds++;
			roundEnd = slot.end!;
		}
		expect(rounds).toBeLessThanOrEqual(8);
	});

	it('the spells do overfill windows with the lead (22 of the 40 seeds): the seeds above see refusals', () => {
		const refusing = SEEDS.filter(
			(seed) => sendAgainstWindow(new SlidingWindowPacer(), tripsInSpells(prng(seed))).length > 0,
		);
		expect(refusing.length).toBeGreaterThanOrEqual(10);
	});

	it.each(SEEDS)('seed %i: with no lead, no refusal wherever Fillout counts', (seed) => {
		const refusals = sendAgainstWindow(answerRulePacer(), tripsInSpells(prng(seed)));
		expect(refusals).toEqual([]);
	});
});

/**
 * Requests sent as soon as the pacer allows, against Fillout's 5 per 1,000 ms (any 1,000 ms,
 * stricter than its fixed window), each refusal heard by the pacer and sent again, for
 * `untilMs` or until `pages` are accepted: the refusals, and the pace against the floor (5
 * accepted a second) over the whole and after the last refusal.
 */
function sendFor(
	pacer: SlidingWindowPacer,
	nextTrip: () => Trip,
	{ untilMs = Infinity, pages = Infinity }: { untilMs?: number; pages?: number },
) {
	const accepted: number[] = [];
	const pending: Array<{ at: number; allowed?: boolean }> = [];
	const inFlight: Array<{
		slot: PacerSlot;
		count: { at: number; allowed?: boolean };
		end: number;
	}> = [];
	const refusals: PacerSlot[] = [];
	let acceptedCount = 0;
	let lastRefusal = { at: 0, acceptedCount: 0 };
	const judgeUntil = (until: number) => {
		pending.sort((a, b) => a.at - b.at);
		while (pending.length && pending[0].at <= until) {
			const count = pending.shift()!;
			while (accepted.length && accepted[0] <= count.at - 1000) accepted.shift();
			count.allowed = accepted.length < 5;
			if (count.allowed) {
				accepted.push(count.at);
				acceptedCount++;
			}
		}
	};
	let now = 0;
	while (now < untilMs && acceptedCount < pages) {
		const at = pacer.earliestStart(now);
		inFlight.sort((a, b) => a.end - b.end);
		const due = inFlight[0];
		if (due && (at === undefined || at > due.end)) {
			inFlight.shift();
			now = due.end;
			judgeUntil(due.count.at);
			pacer.finish(due.slot, due.end, true);
			if (!due.count.allowed && pacer.refusedForWindow(due.slot)) {
				refusals.push(due.slot);
				lastRefusal = { at: now, acceptedCount };
			}
			continue;
		}
		now = at!;
		const slot = pacer.start(now);
		const { tripMs, there } = nextTrip();
		const count = { at: now + tripMs * there };
		pending.push(count);
		inFlight.push({ slot, count, end: now + tripMs });
	}
	const overFloor = (from: { at: number; acceptedCount: number }) =>
		(now - from.at) / (((acceptedCount - from.acceptedCount) / 5) * 1000);
	return {
		refusals,
		overFloor: overFloor({ at: 0, acceptedCount: 0 }),
		overFloorAfterRefusals: overFloor(lastRefusal),
	};
}

const sendForAnHour = (pacer: SlidingWindowPacer, nextTrip: () => Trip) =>
	sendFor(pacer, nextTrip, { untilMs: 3_600_000 });

/**
 * The sandbox at 300 ms (counted after the latency, on the way there) with 0–40 ms of
 * jitter; on a busy machine n8n also holds a request before it leaves and an answer before
 * it is read, now and then (`busy`), and holds every request some 40 ms in its first
 * seconds (`busyStart`: the quickest round trips are slow on the way there, then not).
 */
function tripsAt300(random: () => number, jitterMs: number, busy: boolean): () => Trip {
	let sent = 0;
	return () => {
		const held = busy && random() < 0.2 ? random() * 30 : 0;
		const heldAtStart = busy && sent++ < 30 ? 40 * (0.9 + 0.2 * random()) : 0;
		const there = held + heldAtStart + 300 + random() * jitterMs;
		const back = 2 + random() * 3 + (busy && random() < 0.2 ? random() * 30 : 0);
		return { tripMs: there + back, there: there / (there + back) };
	};
}

describe('SlidingWindowPacer for an hour at 300 ms, jittery or busy: a refusal costs a while, not the hour', () => {
	it.each([
		['steady', 0, false],
		['40 ms of jitter', 40, false],
		['busy', 0, true],
		['busy, 40 ms of jitter', 40, true],
	] as const)(
		'%s: at most a handful of refused windows in the hour, within 1.1 × the floor',
		(_, jitterMs, busy) => {
			let refused = 0;
			for (const seed of [1, 2, 3]) {
				const { refusals, overFloor } = sendForAnHour(
					new SlidingWindowPacer(),
					tripsAt300(prng(seed), jitterMs, busy),
				);
				// Refused windows: refusals a second or more apart.
				const windows = refusals.filter(
					(slot, i) => i === 0 || slot.end! - refusals[i - 1].end! >= 1000,
				);
				expect(windows.length).toBeLessThanOrEqual(6);
				expect(refusals.length).toBeLessThanOrEqual(15);
				// With the lead lost for good after a refusal: 1.32 × busy, 1.34 × busy and jittery.
				expect(overFloor).toBeLessThanOrEqual(1.1);
				refused += refusals.length;
			}
			// A busy machine does overfill windows (1 to 4 refusals a seed): the recovery is exercised.
			if (busy) expect(refused).toBeGreaterThan(0);
		},
	);
});

/**
 * n8n warming up on a busy machine, as the harness showed it against a sandbox in its own
 * process with one core kept busy (issue 32, point 9): the first warm round trips take up
 * to twice the later quickest, held at both ends, and later the event loop holds a request
 * before it leaves or an answer before it is read, in spells that come and go. The sandbox
 * at 300 ms with `jitterMs` of jitter on the way there.
 */
function tripsWarmingUp(random: () => number, jitterMs: number): () => Trip {
	let sent = 0;
	let spell = { left: 0, heldMs: 0 };
	return () => {
		if (spell.left-- <= 0) {
			spell = { left: 2 + Math.floor(random() * 12), heldMs: random() < 0.3 ? random() * 150 : 0 };
		}
		const warmingMs = 400 * Math.max(0, 1 - sent++ / 20) * (0.5 + 0.5 * random());
		const share = random();
		const held = () => (random() < 0.5 ? random() * spell.heldMs : 0);
		const there = 300 + random() * jitterMs + warmingMs * share + held();
		const back = 2 + random() * 3 + warmingMs * (1 - share) + held();
		return { tripMs: there + back, there: there / (there + back) };
	};
}

describe('SlidingWindowPacer reading 10,000 submissions at 300 ms while n8n warms up on a busy machine', () => {
	it.each([0, 40])(
		'%i ms of jitter: the refusals cost a while, not the rest of the read',
		(jitterMs) => {
			const reads = SEEDS.slice(0, 20).map((seed) =>
				sendFor(new SlidingWindowPacer(), tripsWarmingUp(prng(seed), jitterMs), { pages: 68 }),
			);
			for (const { refusals, overFloor, overFloorAfterRefusals } of reads) {
				expect(refusals.length).toBeLessThanOrEqual(5);
				// With the margin widened to the spread of recent round trips (median less quickest):
				// up to 1.21 × (1.23 × jittery) after the last refusal, as over the whole read.
				expect(overFloorAfterRefusals).toBeLessThanOrEqual(1.17);
				expect(overFloor).toBeLessThanOrEqual(1.2);
			}
			// The warming up does overfill windows: the recovery is exercised.
			expect(reads.filter(({ refusals }) => refusals.length > 0).length).toBeGreaterThan(10);
		},
	);
});

describe('observeAnswer', () => {
	/** Limit 1: a cold request 0 → 300, a warm one 1310 → 1610 (lead 300), then one the lead let start early at 2320. */
	function withEarlySlot() {
		let clock = 0;
		const pacing = { pacer: new SlidingWindowPacer(1), rate: new SharedRate(5, 1000, () => clock) };
		pacing.pacer.finish(startAt(pacing.pacer, 0), 300, true);
		pacing.pacer.finish(startAt(pacing.pacer, 1310), 1610, true);
		expect(pacing.pacer.leadAt(1610)).toBe(300);
		const early = startAt(pacing.pacer, 2320);
		expect(early.early).toBe(true);
		pacing.pacer.finish(early, 2620, true);
		clock = 2620;
		return { pacing, early };
	}
	const refusal = { limit: 5, remaining: 0, rateLimited: true };

	it("a window's refusal of a request the lead let start early narrows the lead and cuts nothing", () => {
		const { pacing, early } = withEarlySlot();
		observeAnswer(pacing, early, refusal, 2620);
		expect(pacing.pacer.leadAt(2620)).toBe(280);
		expect(pacing.rate.rate).toBe(5);
	});

	it("a window's refusal of a request started on time cuts the rate and leaves the lead", () => {
		const { pacing } = withEarlySlot();
		const onTime = startAt(pacing.pacer, 4000);
		pacing.pacer.finish(onTime, 4300, true);
		observeAnswer(pacing, onTime, refusal, 4300);
		expect(pacing.pacer.leadAt(4300)).toBe(300);
		expect(pacing.rate.rate).toBeCloseTo(2, 10);
	});

	it('a 429 that leaves room in the window, or an answer, leaves both alone', () => {
		const { pacing, early } = withEarlySlot();
		observeAnswer(pacing, early, { limit: 5, remaining: 2, rateLimited: true }, 2620);
		observeAnswer(pacing, early, { limit: 5, remaining: 0, rateLimited: false }, 2620);
		expect(pacing.pacer.leadAt(2620)).toBe(300);
		expect(pacing.rate.rate).toBe(5);
	});
});

describe('finishedWith', () => {
	it('records an answer as answered, and a network failure as not, when it comes', async () => {
		const pacer = new SlidingWindowPacer();
		const answered = pacer.start(performance.now());
		const failed = pacer.start(performance.now());
		const before = performance.now();
		await expect(
			finishedWith(
				pacer,
				answered,
				sleep(20).then(() => 'body'),
			),
		).resolves.toBe('body');
		const failure = new Error('ECONNRESET');
		await expect(finishedWith(pacer, failed, Promise.reject(failure))).rejects.toBe(failure);
		expect(answered).toMatchObject({ answered: true });
		expect(answered.end).toBeGreaterThanOrEqual(before + 19);
		expect(failed).toMatchObject({ answered: false });
		expect(failed.end).toBeGreaterThanOrEqual(answered.end!);
	});
});

describe('waitForTurn', () => {
	it('starts requests in the order they asked, whenever each began to wait', async () => {
		const pacing = { pacer: new SlidingWindowPacer(1, 20), rate: new SharedRate(1, 20) };
		const order: number[] = [];
		const asked = Array.from({ length: 12 }, async (_, index) => {
			// Each begins to wait at its own moment, so each waits for its own time.
			await sleep(index * 3);
			const { slot } = await waitForTurn(pacing);
			order.push(index);
			pacing.pacer.finish(slot, performance.now(), true);
		});
		await Promise.all(asked);
		expect(order).toEqual(Array.from({ length: 12 }, (_, index) => index));
	});

	it('wakes a request waiting on the requests in flight when one is answered', async () => {
		// The pacer takes its limit from the rate (the limit the service announces): 2.
		const pacing = { pacer: new SlidingWindowPacer(5, 30), rate: new SharedRate(2) };
		const first = await waitForTurn(pacing);
		const second = await waitForTurn(pacing);
		let third: PacerSlot | undefined;
		const waiting = waitForTurn(pacing).then(({ slot }) => (third = slot));
		await sleep(50);
		expect(third).toBeUndefined();
		const answeredAt = performance.now();
		pacing.pacer.finish(first.slot, answeredAt, true);
		await waiting;
		// One window after the first answer, not before.
		expect(third!.start).toBeGreaterThanOrEqual(answeredAt + 30);
		pacing.pacer.finish(second.slot, performance.now(), true);
	});

	it('wakes a request waiting for a time when an answer announces a higher limit', async () => {
		const pacing = { pacer: new SlidingWindowPacer(5, 1000), rate: new SharedRate(2) };
		const first = await waitForTurn(pacing);
		const second = await waitForTurn(pacing);
		pacing.pacer.finish(first.slot, performance.now(), true);
		// Limit 2, one in flight, one answered: the third waits a window for the first.
		const third = waitForTurn(pacing);
		await sleep(50);
		pacing.rate.observe({ limit: 5, remaining: 3, rateLimited: false }, performance.now());
		pacing.pacer.finish(second.slot, performance.now(), true);
		const { slot } = await third;
		expect(slot.start - first.slot.start).toBeLessThan(500);
	});

	it('slows down at once when the shared rate is cut while a request waits', async () => {
		const pacing = { pacer: new SlidingWindowPacer(5, 200), rate: new SharedRate(5, 1000) };
		const firsts = await Promise.all(Array.from({ length: 5 }, () => waitForTurn(pacing)));
		for (const { slot } of firsts) pacing.pacer.finish(slot, performance.now(), true);
		const waiting = waitForTurn(pacing);
		// Cut while the 6th waits for the window (200 ms): it starts at the new spacing.
		pacing.rate.observe({ limit: 5, remaining: 0, rateLimited: true }, performance.now());
		expect(pacing.rate.spacingMs).toBeCloseTo(500, 0);
		const { slot } = await waiting;
		expect(slot.start - firsts[4].slot.start).toBeGreaterThanOrEqual(499);
	});
});
