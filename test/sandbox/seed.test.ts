/** The seed: deterministic and fast, so every start looks the same and tests start quickly. */
import { buildSeed } from '../../sandbox/seed';

it('builds the same world every time, in well under 200 ms', () => {
	const started = Date.now();
	const first = buildSeed();
	expect(Date.now() - started).toBeLessThan(200);
	const second = buildSeed();
	expect(second).toEqual(first);
	expect(first.forms.length).toBeGreaterThanOrEqual(6);
	expect([...first.submissions.values()].reduce((n, list) => n + list.length, 0)).toBeGreaterThan(
		400,
	);
});
