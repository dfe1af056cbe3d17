/**
 * The shared-account model's figures (test/nodes/unit/support/sharedAccountModel.ts: the
 * node's real pacer, shared rate and retry, simulated time), per layout of executions
 * over processes: 67 requests per execution (an export of 10,000) at +80 ms, one key at 5
 * requests per second, means over seeded runs. Printed with `--only shared-key`.
 */
import { prng } from '../test/nodes/unit/support/listModel';
import { runSharedAccountModel } from '../test/nodes/unit/support/sharedAccountModel';

const REQUESTS_EACH = 67;
const LIMIT = 5;
const RUNS = 50;

export const MODEL_LAYOUTS: number[][] = [
	[1],
	[5],
	[1, 1],
	[2, 1],
	[1, 1, 1],
	[1, 1, 1, 1],
	Array<number>(8).fill(1),
	Array<number>(12).fill(1),
	Array<number>(20).fill(1),
	[5, 5],
	[5, 5, 5, 5],
	[10, 10, 10],
];

export interface ModelRow {
	split: number[];
	/** Mean share of requests answered 429. */
	share429: number;
	/** The highest share in one run. */
	worst429: number;
	/** Mean wall over the shared floor (all executions' requests at 5 per second); a run
	 * whose executions failed ends early, so below 1 there. */
	wallOverFloor: number;
	/** Requests given up, over all runs: each one fails its execution. */
	givenUp: number;
	executions: number;
}

export function modelRow(split: number[], runs = RUNS): ModelRow {
	const executions = split.reduce((sum, one) => sum + one, 0);
	const floorMs = ((executions * REQUESTS_EACH) / LIMIT) * 1000;
	const row: ModelRow = {
		split,
		share429: 0,
		worst429: 0,
		wallOverFloor: 0,
		givenUp: 0,
		executions: executions * runs,
	};
	for (let seed = 1; seed <= runs; seed++) {
		const result = runSharedAccountModel(
			{
				split,
				requestsEach: REQUESTS_EACH,
				limit: LIMIT,
				latencyMs: 80,
				latencyJitterMs: 20,
				serviceMs: 15,
				startSpreadMs: 50,
				thinkMs: 10,
			},
			prng(seed),
		);
		const share = result.rateLimited / result.total;
		row.share429 += share / runs;
		row.worst429 = Math.max(row.worst429, share);
		row.wallOverFloor += result.wallMs / floorMs / runs;
		row.givenUp += result.dropped;
	}
	return row;
}

/** Layouts as "1", "2+1", "1+1+1", "8 × 1", "4 × 5". */
export function layoutName(split: number[]): string {
	const even = split.length > 1 && split.every((one) => one === split[0]);
	if (even && (split.length > 3 || split[0] > 1)) {
		return `${split.length} × ${split[0]}`;
	}
	return split.join('+');
}

export function modelTable(splits: number[][] = MODEL_LAYOUTS): string {
	const lines = [
		`Model (${RUNS} seeded runs each, ${REQUESTS_EACH} requests per execution, +80 ms):`,
		'',
		'| executions per process | mean 429 share | worst run | mean wall/floor | executions failed (a request given up) |',
		'| --- | --: | --: | --: | --: |',
	];
	for (const split of splits) {
		const row = modelRow(split);
		lines.push(
			`| ${layoutName(split)} | ${(100 * row.share429).toFixed(1)} % | ${(100 * row.worst429).toFixed(1)} % | ${row.wallOverFloor.toFixed(2)} | ${row.givenUp} of ${row.executions} |`,
		);
	}
	return lines.join('\n');
}
