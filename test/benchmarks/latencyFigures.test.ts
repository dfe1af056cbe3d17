import type { BenchRow } from '../../benchmarks/context';
import {
	caseLabel,
	chosenCases,
	floorMs,
	LATENCY_CASES,
	judgeLatencyRow,
	safeBoundMs,
	latencyTable,
	requestTarget,
	wallTarget,
	type LatencyRow,
	type LatencyRun,
} from '../../benchmarks/latencyFigures';

const MIB = 1024 * 1024;

function row(
	run: LatencyRun,
	latencyMs: number,
	figures: Partial<BenchRow> & { expectedItems: number },
): LatencyRow {
	return {
		latencyMs,
		run,
		result: {
			scenario: run === 'backfill' ? 'poll' : run === 'import' ? 'import' : 'export',
			variant: run,
			ok: true,
			status: 'success',
			rateLimited: 0,
			notes: [],
			...figures,
		},
	};
}

describe('latency section: floor and targets of issue 24', () => {
	it('the floor is the ideal request count at 5 per second, whatever the latency', () => {
		// 10,000 read 150 a page: 67 requests, 13.4 s; 1,000 created 10 a request: 100, 20 s.
		expect(floorMs('export', 10_000)).toBe(13_400);
		expect(floorMs('backfill', 10_000)).toBe(13_400);
		expect(floorMs('http-export', 10_000)).toBe(13_400);
		expect(floorMs('import', 1_000)).toBe(20_000);
		expect(floorMs('export', 1_500)).toBe(2_000);
		expect(floorMs('export', 0)).toBe(200);
	});

	it('the safe bound: groups of 5 a window and a round trip apart, the last answer included', () => {
		// 67 reads: 14 groups; 13 gaps of 1,010 ms plus the latency, then the last answer.
		expect(safeBoundMs('export', 10_000, 80)).toBe(13 * 1_090 + 80);
		expect(safeBoundMs('backfill', 10_000, 1000)).toBe(13 * 2_010 + 1_000);
		// 100 creates: 20 groups.
		expect(safeBoundMs('import', 1_000, 300)).toBe(19 * 1_310 + 300);
		// One group: only its answer.
		expect(safeBoundMs('export', 700, 300)).toBe(300);
		expect(safeBoundMs('export', 751, 300)).toBe(1_310 + 300);
	});

	it('wall targets by latency; none for imports at 1,000 ms, none for the HTTP Request node', () => {
		expect([80, 300, 1000].map((ms) => wallTarget('export', ms))).toEqual([1.05, 1.15, 1.3]);
		expect([80, 300, 1000].map((ms) => wallTarget('backfill', ms))).toEqual([1.05, 1.15, 1.3]);
		expect([80, 300, 1000].map((ms) => wallTarget('import', ms))).toEqual([1.05, 1.15, undefined]);
		expect(wallTarget('http-export', 80)).toBeUndefined();
	});

	it('request targets: reads at most ceil(N/150) + 2, imports exactly ceil(N/10)', () => {
		expect(requestTarget('export', 10_000)).toEqual({ requests: 69, exact: false });
		expect(requestTarget('backfill', 10_000)).toEqual({ requests: 69, exact: false });
		expect(requestTarget('import', 1_000)).toEqual({ requests: 100, exact: true });
		expect(requestTarget('http-export', 10_000)).toBeUndefined();
	});

	it('judges the wall ratio against the latency’s target', () => {
		// 1.05 × 13.4 s = 14.07 s.
		const at = (wallMs: number, latencyMs = 80) =>
			judgeLatencyRow(
				row('export', latencyMs, { expectedItems: 10_000, wallMs, dataRequests: 68 }),
			);
		expect(at(14_000).wall).toBe(true);
		expect(at(14_200).wall).toBe(false);
		expect(at(14_200, 300).wall).toBe(true);
		expect(at(17_500, 1000).wall).toBe(false);
		expect(at(17_400, 1000).wall).toBe(true);
		expect(at(14_000).wallRatio).toBeCloseTo(1.0448, 4);
	});

	it('a run that failed or lost items meets no wall target, however fast', () => {
		const failed = row('export', 80, {
			expectedItems: 10_000,
			wallMs: 5_000,
			dataRequests: 30,
			ok: false,
			status: 'error',
		});
		const verdict = judgeLatencyRow(failed);
		expect(verdict.complete).toBe(false);
		expect(verdict.wall).toBe(false);
	});

	it('judges data requests: a read may take 2 over, an import none either way', () => {
		const read = (dataRequests: number) =>
			judgeLatencyRow(row('backfill', 300, { expectedItems: 10_000, wallMs: 15_000, dataRequests }))
				.requests;
		expect(read(69)).toBe(true);
		expect(read(70)).toBe(false);
		const create = (dataRequests: number) =>
			judgeLatencyRow(row('import', 300, { expectedItems: 1_000, wallMs: 22_000, dataRequests }))
				.requests;
		expect(create(100)).toBe(true);
		expect(create(99)).toBe(false);
		expect(create(101)).toBe(false);
		expect(
			judgeLatencyRow(row('import', 80, { expectedItems: 1_000, wallMs: 20_000 })).requests,
		).toBe(false);
	});

	it('any 429 misses the target; the HTTP Request node is not judged', () => {
		const limited = row('import', 80, {
			expectedItems: 1_000,
			wallMs: 20_500,
			dataRequests: 100,
			rateLimited: 1,
		});
		expect(judgeLatencyRow(limited).rateLimited).toBe(false);
		const http = judgeLatencyRow(
			row('http-export', 80, {
				expectedItems: 10_000,
				wallMs: 40_000,
				dataRequests: 200,
				rateLimited: 3,
			}),
		);
		expect(http).toEqual({ complete: true, wallRatio: 40_000 / 13_400 });
	});

	it('judges the export’s memory growth against the limit given for its latency', () => {
		const growth = (bytes: number) =>
			row('export', 300, {
				expectedItems: 10_000,
				wallMs: 15_000,
				dataRequests: 68,
				memory: {
					samples: 10,
					intervalMs: 50,
					baseline: 800 * MIB,
					peak: 800 * MIB + bytes,
					peakMain: 0,
					growth: bytes,
					processes: 2,
				},
			});
		expect(judgeLatencyRow(growth(300 * MIB), 300 * MIB).memory).toBe(true);
		expect(judgeLatencyRow(growth(301 * MIB), 300 * MIB).memory).toBe(false);
		expect(judgeLatencyRow(growth(301 * MIB)).memory).toBeUndefined();
		const noSamples = row('export', 80, { expectedItems: 10_000, wallMs: 14_000 });
		expect(judgeLatencyRow(noSamples, 300 * MIB).memory).toBe(false);
		const backfill = { ...growth(301 * MIB), run: 'backfill' as const };
		expect(judgeLatencyRow(backfill, 300 * MIB).memory).toBeUndefined();
	});

	it('prints each target beside the figure it judges', () => {
		const memory = {
			samples: 10,
			intervalMs: 50,
			baseline: 800 * MIB,
			peak: 1100 * MIB,
			peakMain: 0,
			growth: 300 * MIB,
			processes: 2,
		};
		const text = latencyTable(
			[
				row('export', 80, {
					expectedItems: 10_000,
					wallMs: 14_742,
					requests: 68,
					dataRequests: 68,
					memory,
				}),
				row('import', 1000, {
					expectedItems: 1_000,
					wallMs: 101_000,
					requests: 101,
					dataRequests: 100,
				}),
			],
			(latencyMs) => (latencyMs === 80 ? 280 * MIB : undefined),
		);
		const [exportLine, importLine] = text.split('\n').slice(2);
		expect(exportLine).toMatch(/\| 80 ms +\| export: Fillout/);
		expect(exportLine).toMatch(
			/\| 14\.74 +\| 13\.40 +\| 1\.10 +\| ≤ 1\.05 \| NOT MET \| 14\.25 +\| 1\.03 +\| 68 +\| ≤ 69 +\| met +\| 0 +\| met +\| 300 +\| ≤ 280 +\| NOT MET \|$/,
		);
		expect(importLine).toMatch(
			/\| 101\.00 \| 20\.00 +\| 5\.05 +\| none +\| – +\| 39\.19 +\| 2\.58 +\| 101 \(100 data\) +\| = 100 +\| met +\| 0 +\| met +\| – +\| – +\| – +\|$/,
		);
	});
});

describe('the jittered and busy cases (issue 32)', () => {
	it('runs 300 ms again jittered by up to 40 ms, busy, and both, after the plain latencies', () => {
		expect(LATENCY_CASES.map(caseLabel)).toEqual([
			'80 ms',
			'300 ms',
			'1000 ms',
			'300 ms + 0–40',
			'300 ms, busy',
			'300 ms + 0–40, busy',
		]);
	});

	it("labels a row by its condition and judges it by its latency's target", () => {
		const jittered: LatencyRow = {
			...row('export', 300, {
				expectedItems: 10_000,
				wallMs: 15_000,
				requests: 68,
				dataRequests: 68,
			}),
			jitterMs: 40,
			busy: true,
		};
		expect(judgeLatencyRow(jittered).wall).toBe(true);
		const line = latencyTable([jittered]).split('\n')[2];
		expect(line).toMatch(/^\| 300 ms \+ 0–40, busy \| export: Fillout/);
		expect(line).toMatch(/\| 15\.00 +\| 13\.40 +\| 1\.12 +\| ≤ 1\.15 \| met /);
	});
});

describe('--cases and --repeat', () => {
	it('reads each named case and repeats each in a row', () => {
		expect(chosenCases('300+40busy,80', 2)).toEqual([
			{ latencyMs: 300, jitterMs: 40, busy: true },
			{ latencyMs: 300, jitterMs: 40, busy: true },
			{ latencyMs: 80, jitterMs: 0, busy: false },
			{ latencyMs: 80, jitterMs: 0, busy: false },
		]);
		expect(chosenCases('300busy', 1)).toEqual([{ latencyMs: 300, jitterMs: 0, busy: true }]);
	});

	it('reads an export that waits after n8n restarts, and labels its rows by it', () => {
		const [settled] = chosenCases('300+40busy@60s', 1);
		expect(settled).toEqual({ latencyMs: 300, jitterMs: 40, busy: true, settleMs: 60_000 });
		expect(caseLabel(settled)).toBe('300 ms + 0–40, busy, n8n up 60 s');
		expect(chosenCases('80@5s', 1)).toEqual([
			{ latencyMs: 80, jitterMs: 0, busy: false, settleMs: 5_000 },
		]);
	});

	it('takes every case once without --cases, and refuses a name it cannot read', () => {
		expect(chosenCases(undefined, 1)).toEqual(LATENCY_CASES);
		expect(() => chosenCases('300ms', 1)).toThrow(
			'--cases: 300ms is not like 300, 300+40, 300busy, 300@60s',
		);
	});
});
