import { PACED_READ_CASES, pacedReadRow, pacedReadTable } from '../../benchmarks/pacedReadModel';
import { prng } from '../nodes/unit/support/listModel';
import { runPacedRead } from '../nodes/unit/support/pacedReadModel';

describe('the paced-read model figures (bench --only read-model)', () => {
	it('names each case by its round trip, jitter and late answers', () => {
		expect(PACED_READ_CASES.map(({ label }) => label)).toContain(
			'300 ms + 0–40, 10 % of answers read up to 100 ms late',
		);
		expect(PACED_READ_CASES.map(({ label }) => label)).toContain('1000 ms');
	});

	it('at a steady 300 ms: the end over the floor of 67 pages, no window wasted', async () => {
		const row = await pacedReadRow({ ...PACED_READ_CASES[1], label: '300 ms' }, 2);
		expect(PACED_READ_CASES[1].roundTripMs).toBe(300);
		// 300 ms to the count, 13 pacer windows of 1,010 ms, 300 ms for the last answer.
		expect(row.overFloor[0]).toBeCloseTo(13_730 / 13_400, 9);
		expect(row.requests).toEqual([68, 68]);
		expect(row.windowsWasted).toBe(0);
		expect(row.refused).toBe(0);
	});

	it('at a steady second: the first page, which the ranges wait for, has a window to itself', async () => {
		const spec = PACED_READ_CASES.find(({ label }) => label === '1000 ms')!;
		const row = await pacedReadRow(spec, 2);
		expect(row.windowsWasted).toBe(2);
		expect(await pacedReadTable([spec], 2)).toMatch(/\| 1000 ms +\| 68–68 +\| 1\.13 +\|/);
	});

	it('counts each run as the model ran it: its end over 13.4 s, wasted windows and 429s', async () => {
		const wide = { rows: 10_000, roundTripMs: 300, jitterMs: 300, lateShare: 0, lateMs: 0 };
		const row = await pacedReadRow({ ...wide, label: '300 ms + 0–300' }, 12);
		const reads = [];
		for (let seed = 1; seed <= 12; seed++) reads.push(await runPacedRead(wide, prng(seed)));
		expect(row.overFloor).toEqual(reads.map((read) => read.endMs / 13_400));
		expect(row.requests).toEqual(reads.map((read) => read.requests));
		const wasting = reads.filter((read) => read.windows > Math.ceil(read.requests / 5));
		expect(row.windowsWasted).toBe(wasting.length);
		const refused = reads.filter((read) => read.refused > 0).length;
		expect(row.refused).toBe(refused);
		expect(refused).toBeGreaterThan(0);
	});
});
