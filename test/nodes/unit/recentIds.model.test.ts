import { RecentIds } from '../../../nodes/Fillout/shared/recentIds';
import { prng } from './support/listModel';

/**
 * Model-based randomized test of the window that drops repeated submissions: seeded
 * random sequences of sightings (ids drawn from a small pool, so repeats are common;
 * the clock jumps by random steps, now and then past the time-to-live), checked against
 * a plain list model after every step. Invariants: an id is refused exactly when the
 * model still holds it (seen within the time-to-live and among the last `capacity`
 * remembered), so it is never accepted twice within the window; the memory never holds
 * more than `capacity` ids.
 */

interface Entry {
	id: string;
	at: number;
}

/** The obvious model: a list of remembered sightings, oldest first. */
function modelSighting(
	entries: Entry[],
	limits: { capacity: number; ttlMs: number },
	id: string,
	now: number,
) {
	const live = entries.filter((entry) => entry.at > now - limits.ttlMs);
	if (live.some((entry) => entry.id === id)) return { first: false, entries: live };
	const next = [...live, { id, at: now }];
	return { first: true, entries: next.slice(Math.max(0, next.length - limits.capacity)) };
}

const CASES = 400;

it(`agrees with the model over ${CASES} seeded random sequences`, () => {
	for (let seed = 1; seed <= CASES; seed++) {
		const random = prng(seed);
		const limits = {
			capacity: 1 + Math.floor(random() * 12),
			ttlMs: 1 + Math.floor(random() * 50),
		};
		const pool = 2 + Math.floor(random() * 20);
		const window = new RecentIds(limits);
		let entries: Entry[] = [];
		let now = 1000;
		for (let step = 0; step < 300; step++) {
			now += random() < 0.1 ? Math.floor(random() * limits.ttlMs * 2) : Math.floor(random() * 3);
			const id = `s${Math.floor(random() * pool)}`;
			const modelled = modelSighting(entries, limits, id, now);
			const first = window.firstSighting(id, now);
			if (first !== modelled.first) {
				throw new Error(
					`seed ${seed}, step ${step}: ${id} at ${now} → ${first}, model ${modelled.first} (${JSON.stringify(limits)})`,
				);
			}
			entries = modelled.entries;
			// A plain check, not expect(): 120,000 expect() calls take most of the test's time.
			if (window.size > limits.capacity) {
				throw new Error(
					`seed ${seed}, step ${step}: holds ${window.size} ids, over ${limits.capacity}`,
				);
			}
		}
	}
});

it('two sightings at the same instant: only the first is new', () => {
	const window = new RecentIds({ capacity: 10, ttlMs: 1000 });
	expect([window.firstSighting('a', 5), window.firstSighting('a', 5)]).toEqual([true, false]);
});

it('forgets an id once its time is up, and the oldest once full', () => {
	const window = new RecentIds({ capacity: 2, ttlMs: 100 });
	expect(window.firstSighting('a', 0)).toBe(true);
	expect(window.firstSighting('a', 99)).toBe(false);
	expect(window.firstSighting('a', 100)).toBe(true);
	expect(window.firstSighting('b', 101)).toBe(true);
	expect(window.firstSighting('c', 102)).toBe(true);
	// 'a' was the oldest of three: forgotten to keep two.
	expect(window.firstSighting('a', 103)).toBe(true);
	expect(window.size).toBe(2);
});
