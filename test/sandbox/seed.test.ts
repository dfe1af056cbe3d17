/** The seed: deterministic, so every start looks the same. */
import { buildSeed } from '../../sandbox/seed';

it('builds the same world every time', () => {
	const first = buildSeed();
	const second = buildSeed();
	expect(second).toEqual(first);
	expect(first.forms.length).toBeGreaterThanOrEqual(6);
	expect([...first.submissions.values()].reduce((n, list) => n + list.length, 0)).toBeGreaterThan(
		400,
	);
});
