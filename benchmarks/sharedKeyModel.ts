/**
 * The shared-account model's figures for the case (3 exports of 67 requests at
 * +80 ms, one key at 5 requests per second), per layout of the exports over processes:
 * means over seeded runs of test/nodes/unit/support/sharedAccountModel.ts (simulated time,
 * the node's real pacer, gauge and retry). Printed with `--only shared-key`.
 */
import { prng } from '../test/nodes/unit/support/listModel';
import { runSharedAccountModel } from '../test/nodes/unit/support/sharedAccountModel';

const REQUESTS_EACH = 67;
const LIMIT = 5;
const RUNS = 200;

export interface ModelRow {
	split: number[];
	/** Mean share of requests answered 429. */
	share429: number;
	/** The highest share in one run. */
	worst429: number;
	/** Mean wall over the shared floor (all exports' requests at 5 per second). */
	wallOverFloor: number;
	dropped: number;
}

export function modelRow(split: number[], runs = RUNS): ModelRow {
	const exports = split.reduce((sum, one) => sum + one, 0);
	const floorMs = ((exports * REQUESTS_EACH) / LIMIT) * 1000;
	const row: ModelRow = { split, share429: 0, worst429: 0, wallOverFloor: 0, dropped: 0 };
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
			},
			prng(seed),
		);
		const share = result.rateLimited / result.total;
		row.share429 += share / runs;
		row.worst429 = Math.max(row.worst429, share);
		row.wallOverFloor += result.wallMs / floorMs / runs;
		row.dropped += result.dropped;
	}
	return row;
}

export function modelTable(
	splits: number[][] = [[1], [3], [1, 1, 1], [2, 1], [2, 2], [1, 1, 1, 1]],
): string {
	const lines = [
		`Model (${RUNS} seeded runs each, ${REQUESTS_EACH} requests per export, +80 ms):`,
		'',
		'| exports per process | mean 429 share | worst run | mean wall/floor | exports failed |',
		'| --- | --: | --: | --: | --: |',
	];
	for (const split of splits) {
		const row = modelRow(split);
		lines.push(
			`| ${split.join('+')} | ${(100 * row.share429).toFixed(1)} % | ${(100 * row.worst429).toFixed(1)} % | ${row.wallOverFloor.toFixed(2)} | ${row.dropped} |`,
		);
	}
	return lines.join('\n');
}
