import {
	backlogFigures,
	backlogTable,
	idleFigures,
	idleTable,
	readFloor,
	type BacklogResult,
	type CatchUpRun,
} from '../../benchmarks/catchUpFigures';

const START = Date.parse('2026-01-01T10:00:00.000Z');
const EXPECTED = ['a', 'b', 'c', 'd', 'e', 'f'];

const run = (
	id: string,
	ids: string[],
	stoppedAfterMs: number,
	status = 'success',
): CatchUpRun => ({
	id,
	status,
	startedAt: new Date(START + stoppedAfterMs - 1_000).toISOString(),
	stoppedAt: new Date(START + stoppedAfterMs).toISOString(),
	submissionIds: ids,
});

describe('catch-up figures: an idle trigger', () => {
	it('one list request a check: 60 an hour measured at 1 minute, 12 derived at 5', () => {
		const idle = idleFigures({
			listRequests: 4,
			requests: 4,
			checks: 4,
			minutes: 4,
			intervalMinutes: 1,
		});
		expect(idle.perHour).toBe(60);
		expect(idle.perCheck).toBe(1);
		expect(idle.perHourAtDefault).toBe(12);
		expect(idle.withinBound).toBe(true);
	});

	it('more list requests than intervals miss the bound; the per-check cost scales the derived row', () => {
		const idle = idleFigures({
			listRequests: 8,
			requests: 9,
			checks: 4,
			minutes: 4,
			intervalMinutes: 1,
		});
		expect(idle.withinBound).toBe(false);
		expect(idle.perCheck).toBe(2);
		expect(idle.perHourAtDefault).toBe(24);
		expect(idle.perHour).toBe(120);
	});

	it('a window a little over whole minutes may hold one check more', () => {
		const at = (listRequests: number) =>
			idleFigures({
				listRequests,
				requests: listRequests,
				checks: 5,
				minutes: 4.02,
				intervalMinutes: 1,
			}).withinBound;
		expect(at(5)).toBe(true);
		expect(at(6)).toBe(false);
	});

	it('no check seen: no per-check cost to derive from', () => {
		const idle = idleFigures({
			listRequests: 0,
			requests: 0,
			checks: 0,
			minutes: 4,
			intervalMinutes: 1,
		});
		expect(idle.perCheck).toBeUndefined();
		expect(idle.perHourAtDefault).toBeUndefined();
		expect(idleTable(idle)).toContain('| 5 min    | derived');
	});
});

describe('catch-up figures: the backlog after a downtime', () => {
	it('two executions in order complete it at the second one’s stop', () => {
		// Listed newest first, as n8n does: the order is the executions' ids.
		const figures = backlogFigures(EXPECTED, [
			run('10', ['d', 'e', 'f'], 9_000),
			run('9', ['a', 'b', 'c'], 4_000),
		]);
		expect(figures).toEqual({
			executions: 2,
			failed: 0,
			emitted: 6,
			distinct: 6,
			missing: 0,
			duplicated: 0,
			unexpected: 0,
			inOrder: true,
			completedAtMs: START + 9_000,
		});
	});

	it('a submission run again later counts twice; the completion stays the first', () => {
		const figures = backlogFigures(EXPECTED, [
			run('1', ['a', 'b', 'c'], 4_000),
			run('2', ['d', 'e', 'f'], 9_000),
			run('3', ['c'], 70_000),
		]);
		expect(figures).toMatchObject({ emitted: 7, distinct: 6, duplicated: 1, inOrder: false });
		expect(figures.completedAtMs).toBe(START + 9_000);
	});

	it('one missing: never completed', () => {
		const figures = backlogFigures(EXPECTED, [
			run('1', ['a', 'b'], 4_000),
			run('2', ['d', 'e', 'f'], 9_000),
		]);
		expect(figures).toMatchObject({ missing: 1, inOrder: false, completedAtMs: undefined });
	});

	it('the newest one missing: in order so far, but not complete', () => {
		const figures = backlogFigures(EXPECTED, [run('1', EXPECTED.slice(0, -1), 4_000)]);
		expect(figures).toMatchObject({ missing: 1, inOrder: false, completedAtMs: undefined });
	});

	it('out of order within an execution: complete, but not in order', () => {
		const figures = backlogFigures(EXPECTED, [run('1', ['b', 'a', 'c', 'd', 'e', 'f'], 4_000)]);
		expect(figures).toMatchObject({ inOrder: false, missing: 0, completedAtMs: START + 4_000 });
	});

	it('a failed execution’s items do not count', () => {
		const figures = backlogFigures(EXPECTED, [
			run('1', ['a', 'b', 'c'], 4_000, 'error'),
			run('2', ['d', 'e', 'f'], 9_000),
		]);
		expect(figures).toMatchObject({ failed: 1, missing: 3, emitted: 3, completedAtMs: undefined });
	});

	it('only a successful execution counts: crashed or canceled ones neither', () => {
		for (const status of ['crashed', 'canceled']) {
			const figures = backlogFigures(EXPECTED, [run('1', EXPECTED, 4_000, status)]);
			expect(figures).toMatchObject({ failed: 1, emitted: 0, missing: 6 });
		}
	});

	it('a submission that was not missed shows, and spoils the order', () => {
		const figures = backlogFigures(EXPECTED, [run('1', [...EXPECTED, 'x'], 4_000)]);
		expect(figures).toMatchObject({
			unexpected: 1,
			distinct: 7,
			inOrder: false,
			completedAtMs: START + 4_000,
		});
	});
});

describe('catch-up figures: the floor and the table', () => {
	it('the floor is the ideal page count at 5 a second', () => {
		expect(readFloor(10_000)).toEqual({ requests: 67, ms: 13_400 });
		expect(readFloor(150)).toEqual({ requests: 1, ms: 200 });
		expect(readFloor(151)).toEqual({ requests: 2, ms: 400 });
	});

	const result = (figures: BacklogResult['figures']): BacklogResult => ({
		count: 6,
		figures,
		backAtMs: START - 40_000,
		firstRequestAtMs: START - 800,
		listRequests: 1,
		requests: {},
		rateLimited: 0,
		notes: [],
	});
	const row = (text: string, name: string) =>
		text.split('\n').find((line) => line.startsWith(`| ${name}`));

	it('wall from the first request, against the floor; from n8n back too', () => {
		const text = backlogTable(result(backlogFigures(EXPECTED, [run('1', EXPECTED, 0)])));
		expect(row(text, 'all caught up')).toContain('yes');
		expect(row(text, 'wall: first request')).toContain('0.80');
		expect(row(text, 'wall / floor')).toContain('4.00');
		expect(row(text, 'n8n back → stoppedAt')).toContain('40.00');
	});

	it('says NO when one is missing, ran twice or an execution failed', () => {
		for (const runs of [
			[run('1', EXPECTED.slice(1), 0)],
			[run('1', EXPECTED, 0), run('2', ['a'], 5)],
			[run('1', EXPECTED, 0), run('2', [], 5, 'error')],
		]) {
			expect(row(backlogTable(result(backlogFigures(EXPECTED, runs))), 'all caught up')).toContain(
				'NO',
			);
		}
	});
});
