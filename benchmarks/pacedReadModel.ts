/**
 * The paced-read model's figures (test/nodes/unit/support/pacedReadModel.ts: the node's own
 * read, transport and pacer on a simulated clock, no n8n): what the node alone takes for
 * Return All of 10,000, against the latency section's floor (67 pages at 5 a second). What
 * a real n8n adds is the latency section's wall over the floor less this.
 * Printed with `--only read-model`.
 */
import { prng } from '../test/nodes/unit/support/listModel';
import { runPacedRead, type PacedReadCase } from '../test/nodes/unit/support/pacedReadModel';
import { floorMs } from './latencyFigures';
import { fixed, table } from './report';
import { max, median, percentile } from './stats';

const ROWS = 10_000;
const RUNS = 100;

export interface PacedReadModelCase extends PacedReadCase {
	label: string;
}

const at = (roundTripMs: number, jitterMs = 0, lateShare = 0, lateMs = 0) => ({
	rows: ROWS,
	roundTripMs,
	jitterMs,
	lateShare,
	lateMs,
	label:
		`${roundTripMs} ms` +
		(jitterMs ? ` + 0–${jitterMs}` : '') +
		(lateShare ? `, ${lateShare * 100} % of answers read up to ${lateMs} ms late` : ''),
});

export const PACED_READ_CASES: PacedReadModelCase[] = [
	at(80),
	at(300),
	at(300, 40),
	at(300, 40, 0.1, 100),
	at(300, 40, 0.3, 150),
	at(1000),
	at(1000, 40),
];

export interface PacedReadModelRow {
	label: string;
	/** Each run's end over the floor. */
	overFloor: number[];
	requests: number[];
	/** Runs that took more of Fillout's windows than their requests need. */
	windowsWasted: number;
	/** Runs with a request Fillout refused for its window. */
	refused: number;
}

export async function pacedReadRow(
	spec: PacedReadModelCase,
	runs = RUNS,
): Promise<PacedReadModelRow> {
	const row: PacedReadModelRow = {
		label: spec.label,
		overFloor: [],
		requests: [],
		windowsWasted: 0,
		refused: 0,
	};
	for (let seed = 1; seed <= runs; seed++) {
		const read = await runPacedRead(spec, prng(seed));
		row.overFloor.push(read.endMs / floorMs('export', ROWS));
		row.requests.push(read.requests);
		if (read.windows > Math.ceil(read.requests / 5)) row.windowsWasted++;
		if (read.refused > 0) row.refused++;
	}
	return row;
}

export async function pacedReadTable(cases = PACED_READ_CASES, runs = RUNS): Promise<string> {
	const rows: PacedReadModelRow[] = [];
	for (const spec of cases) rows.push(await pacedReadRow(spec, runs));
	return [
		`Model of Return All of ${ROWS.toLocaleString('en-US')} (${runs} seeded runs each; the node's own read, transport and pacer, no n8n; Fillout counting on arrival): the read's time over the floor.`,
		'',
		table(
			[
				'round trip',
				'requests',
				'end/floor p50',
				'p90',
				'max',
				'runs wasting a window',
				'runs with a 429',
			],
			rows.map((row) => [
				row.label,
				`${Math.min(...row.requests)}–${Math.max(...row.requests)}`,
				fixed(median(row.overFloor)),
				fixed(percentile(row.overFloor, 90)),
				fixed(max(row.overFloor)),
				String(row.windowsWasted),
				String(row.refused),
			]),
		),
	].join('\n');
}
