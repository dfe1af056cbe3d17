import { bursts, splitRss, timelineNotes } from '../../benchmarks/catchUpTrace';

const MIB = 1024 * 1024;
const T = Date.parse('2026-01-01T10:00:00.000Z');

describe('catch-up trace: memory split at the first request', () => {
	const samples = [
		// n8n's start: a task runner's 100 MiB, then it ends; the median is what n8n idles at.
		{ at: T - 3_000, group: 900 * MIB, main: 800 * MIB },
		{ at: T - 2_000, group: 800 * MIB, main: 800 * MIB },
		{ at: T - 1_000, group: 800 * MIB, main: 800 * MIB },
		{ at: T, group: 820 * MIB, main: 820 * MIB },
		{ at: T + 1_000, group: 1_000 * MIB, main: 950 * MIB },
		{ at: T + 2_000, group: 850 * MIB, main: 850 * MIB },
	];

	it('baseline = median before; peak = largest from the split on; growth = their difference', () => {
		const split = splitRss(samples, T);
		expect(split.group).toEqual({ baseline: 800 * MIB, peak: 1_000 * MIB, growth: 200 * MIB });
		expect(split.main).toEqual({ baseline: 800 * MIB, peak: 950 * MIB, growth: 150 * MIB });
		expect(split.samples).toBe(6);
	});

	it('no sample before the split: no baseline, no growth', () => {
		const split = splitRss(samples, T - 5_000);
		expect(split.group).toEqual({ baseline: undefined, peak: 1_000 * MIB, growth: undefined });
	});

	it('a sample at the split is the first after it', () => {
		expect(splitRss(samples, T + 1_000).group).toEqual({
			baseline: 810 * MIB,
			peak: 1_000 * MIB,
			growth: 190 * MIB,
		});
	});

	it('no sample after it: no peak', () => {
		expect(splitRss(samples, T + 5_000).main.peak).toBeUndefined();
	});
});

describe('catch-up trace: where the wall went', () => {
	it('rises within 3 s of the last are one check; a longer pause starts the next', () => {
		const rises = [
			{ at: T, requests: 2 },
			{ at: T + 2_500, requests: 3 },
			{ at: T + 5_500, requests: 1 },
			{ at: T + 9_000, requests: 4 },
		];
		expect(bursts(rises)).toEqual([
			{ fromMs: T, toMs: T + 5_500, requests: 6 },
			{ fromMs: T + 9_000, toMs: T + 9_000, requests: 4 },
		]);
		expect(bursts([])).toEqual([]);
	});

	it('the notes give each check and each execution in seconds from the first request, executions in start order', () => {
		const run = (id: string, startMs: number, stopMs: number, items: number) => ({
			id,
			status: 'success',
			startedAt: new Date(T + startMs).toISOString(),
			stoppedAt: new Date(T + stopMs).toISOString(),
			submissionIds: Array.from({ length: items }, (_, index) => `s${index}`),
		});
		const [checks, executions] = timelineNotes(
			T,
			[{ fromMs: T, toMs: T + 6_800, requests: 34 }],
			[run('10', 20_000, 31_500, 2), run('9', 7_000, 12_250, 3)],
		);
		expect(checks).toContain('0.00–6.80 s: 34');
		expect(executions).toBe(
			'executions (started → stopped): 7.00 → 12.25 s: 3 items; 20.00 → 31.50 s: 2 items',
		);
	});
});
