/**
 * The second of the minute a trigger's schedule checks at: a hash of its node id, so that
 * triggers do not all check at once. The end-to-end tests pick node ids with it to place
 * checks, so the trigger must use exactly this. Expected values worked out by hand.
 */
import { randomUUID } from 'node:crypto';

import { secondOf } from '../../nodes/Fillout/catchUp/scheduleSecond';
import { freshForm } from '../sandbox/support';
import { useCatchUp } from './support/catchUp';

const { h, published, start } = useCatchUp();

describe('the second of the minute a trigger checks at', () => {
	it('hashes the text: (hash × 31 + code) mod 60, character by character', () => {
		expect(secondOf('')).toBe(0);
		// 97 mod 60 = 37; (37 × 31 + 98) mod 60 = 1245 mod 60 = 45.
		expect(secondOf('a')).toBe(37);
		expect(secondOf('ab')).toBe(45);
	});

	it('spreads node ids over every second of the minute, and only those', () => {
		const seconds = new Set(Array.from({ length: 3_000 }, () => secondOf(randomUUID())));
		expect([...seconds].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
	});

	it('is the second of the cron that trigger() registers, from the node id', async () => {
		const trigger = await published(await freshForm(h.control));
		const running = await start(trigger);
		// The harness's node id is 'trigger-under-test': 36 by the formula above, worked out apart.
		expect(running.crons).toEqual([{ expression: '36 */5 * * * *' }]);
	});
});
