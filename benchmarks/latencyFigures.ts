/**
 * The latency section's floor, targets and table (issue 24), pure so that the judging
 * is tested. The floor is the ideal request count divided by the rate limit: a read of
 * N needs ceil(N / 150) pages, an import ceil(N / 10) creates, and 5 of them a second
 * is the fastest Fillout allows, whatever the latency, once requests are in flight.
 */
import type { BenchRow } from './context';
import { fixed, mib, seconds, table } from './report';
import { ratio, REQUESTS_PER_SECOND } from './stats';

/** The latencies the sandbox adds to every API request, side by side in one run. */
export const LATENCIES_MS = [80, 300, 1000] as const;

/**
 * One condition of the latency section: the sandbox's latency, up to `jitterMs` more at
 * random per request, and whether one core is kept busy by a spinner process meanwhile
 * (a busy n8n host; issue 32, point 9).
 */
export interface LatencyCase {
	latencyMs: number;
	jitterMs: number;
	busy: boolean;
	/**
	 * The export waits this long after n8n's restart (`300@60s`): n8n's first minute
	 * collects garbage slowly (BENCHMARKS.md).
	 */
	settleMs?: number;
}

/** Each latency as it is, then 300 ms jittered, on a busy machine, and both. */
export const LATENCY_CASES: LatencyCase[] = [
	...LATENCIES_MS.map((latencyMs) => ({ latencyMs, jitterMs: 0, busy: false })),
	{ latencyMs: 300, jitterMs: 40, busy: false },
	{ latencyMs: 300, jitterMs: 0, busy: true },
	{ latencyMs: 300, jitterMs: 40, busy: true },
];

/**
 * The cases `--cases` names (`300`, `300+40`, `300busy`, `300+40busy`, and any with `@60s`
 * for an export 60 s after n8n's restart; comma-separated), each `repeat` times in a row:
 * several processes under one condition.
 */
export function chosenCases(names: string | undefined, repeat: number): LatencyCase[] {
	const all = names ? names.split(',').map(caseNamed) : LATENCY_CASES;
	return all.flatMap((condition) => Array.from({ length: repeat }, () => condition));
}

function caseNamed(name: string): LatencyCase {
	const match = /^(\d+)(?:\+(\d+))?(busy)?(?:@(\d+)s)?$/.exec(name);
	if (!match) throw new Error(`--cases: ${name} is not like 300, 300+40, 300busy, 300@60s`);
	const condition = {
		latencyMs: Number(match[1]),
		jitterMs: Number(match[2] ?? 0),
		busy: !!match[3],
	};
	return match[4] ? { ...condition, settleMs: Number(match[4]) * 1000 } : condition;
}

/** How a row's condition is shown: `300 ms`, `300 ms + 0–40`, `300 ms, busy, n8n up 60 s`. */
export function caseLabel({
	latencyMs,
	jitterMs = 0,
	busy = false,
	settleMs = 0,
}: Partial<LatencyCase>): string {
	const up = settleMs ? `, n8n up ${settleMs / 1000} s` : '';
	return `${latencyMs} ms${jitterMs ? ` + 0–${jitterMs}` : ''}${busy ? ', busy' : ''}${up}`;
}

export type LatencyRun = 'export' | 'backfill' | 'import' | 'http-export';

const READ_PAGE = 150;
const CREATE_BATCH = 10;

/** What each run moves per request and whether the issue's targets apply to it. */
export const LATENCY_RUNS: Record<
	LatencyRun,
	{ label: string; perRequest: number; kind: 'read' | 'import'; judged: boolean }
> = {
	export: {
		label: 'export: Fillout Get Many, Return All',
		perRequest: READ_PAGE,
		kind: 'read',
		judged: true,
	},
	backfill: {
		label: 'backfill: Fillout Polling Trigger from the beginning',
		perRequest: READ_PAGE,
		kind: 'read',
		judged: true,
	},
	import: {
		label: 'import: Fillout Create (10 per request)',
		perRequest: CREATE_BATCH,
		kind: 'import',
		judged: true,
	},
	'http-export': {
		label: 'export: HTTP Request node, limit=150, offset paging, 200 ms interval',
		perRequest: READ_PAGE,
		kind: 'read',
		judged: false,
	},
};

/** Wall time over the floor the issue allows, by latency (none: no target at that latency). */
const WALL_TARGETS: Record<'read' | 'import', Partial<Record<number, number>>> = {
	read: { 80: 1.05, 300: 1.15, 1000: 1.3 },
	import: { 80: 1.05, 300: 1.15 },
};

/** Reads may take two requests over the ideal count (the exact pager's re-reads). */
const READ_SPARE_REQUESTS = 2;

/**
 * The export's RSS growth before the parallel reader (the sequential pager, 10,000
 * submissions), per latency: the largest of the three runs in
 * benchmarks/results/2026-11-27-latency.md, rounded up. It grows with the run's length
 * (garbage n8n makes meanwhile) and varied by about 20 % between runs, so a figure over
 * it wants a second run.
 */
export const SEQUENTIAL_EXPORT_GROWTH_MIB: Record<number, number> = {
	80: 307,
	300: 409,
	1000: 675,
};

export interface LatencyRow {
	latencyMs: number;
	/** Up to this much more latency at random per request (none when absent). */
	jitterMs?: number;
	/** One core was kept busy by a spinner process during the row. */
	busy?: boolean;
	/** The case's export waited this long after n8n's restart. */
	settleMs?: number;
	run: LatencyRun;
	/** The figures measured (items, wall, requests, 429s, memory). */
	result: BenchRow;
}

export function idealRequests(run: LatencyRun, count: number): number {
	return Math.max(1, Math.ceil(count / LATENCY_RUNS[run].perRequest));
}

/** The floor in ms: the ideal request count at 5 requests a second. */
export function floorMs(run: LatencyRun, count: number): number {
	return (idealRequests(run, count) / REQUESTS_PER_SECOND) * 1000;
}

/** The pacer's window: Fillout's second and 10 ms for clock rounding (docs/rate-limits.md). */
const PACER_WINDOW_MS = 1010;

/**
 * The least time a pacer that assumes nothing about where in the round trip Fillout counts
 * allows, in ms: 5 requests at once, the next 5 a window after their answers, and so on,
 * the last group's answer included (docs/rate-limits.md, "The pacer").
 */
export function safeBoundMs(run: LatencyRun, count: number, latencyMs: number): number {
	const groups = Math.ceil(idealRequests(run, count) / REQUESTS_PER_SECOND);
	return (groups - 1) * (PACER_WINDOW_MS + latencyMs) + latencyMs;
}

export function wallTarget(run: LatencyRun, latencyMs: number): number | undefined {
	return LATENCY_RUNS[run].judged ? WALL_TARGETS[LATENCY_RUNS[run].kind][latencyMs] : undefined;
}

/** The requests to the data route allowed: reads at most, imports exactly. */
export function requestTarget(
	run: LatencyRun,
	count: number,
): { requests: number; exact: boolean } | undefined {
	if (!LATENCY_RUNS[run].judged) return undefined;
	const ideal = idealRequests(run, count);
	return LATENCY_RUNS[run].kind === 'read'
		? { requests: ideal + READ_SPARE_REQUESTS, exact: false }
		: { requests: ideal, exact: true };
}

export interface LatencyVerdict {
	/** The run succeeded with every item exactly once. */
	complete: boolean;
	wallRatio?: number;
	/** undefined: no target for this run at this latency. */
	wall?: boolean;
	requests?: boolean;
	rateLimited?: boolean;
	/** Export only, against the growth measured before the parallel reader at this latency. */
	memory?: boolean;
}

/**
 * Each target judged on the row's figures. `growthLimitBytes` is the memory growth the
 * export may reach at this latency (undefined: not judged).
 */
export function judgeLatencyRow(row: LatencyRow, growthLimitBytes?: number): LatencyVerdict {
	const { result } = row;
	const count = result.expectedItems ?? 0;
	const wallRatio = ratio(result.wallMs, floorMs(row.run, count));
	const verdict: LatencyVerdict = { complete: result.ok, wallRatio };
	if (!LATENCY_RUNS[row.run].judged) return verdict;
	const allowedRatio = wallTarget(row.run, row.latencyMs);
	if (allowedRatio !== undefined) {
		verdict.wall = result.ok && wallRatio !== undefined && wallRatio <= allowedRatio;
	}
	const allowed = requestTarget(row.run, count);
	const made = result.dataRequests;
	if (allowed && made !== undefined) {
		verdict.requests = allowed.exact ? made === allowed.requests : made <= allowed.requests;
	} else if (allowed) verdict.requests = false;
	verdict.rateLimited = result.rateLimited === 0;
	if (row.run === 'export' && growthLimitBytes !== undefined) {
		verdict.memory = result.memory !== undefined && result.memory.growth <= growthLimitBytes;
	}
	return verdict;
}

const mark = (holds: boolean | undefined) =>
	holds === undefined ? '–' : holds ? 'met' : 'NOT MET';

/** Requests as "total" or "total (data)" when the run made others besides the data requests. */
function requestsCell(result: BenchRow): string {
	if (result.dataRequests === undefined) return `${result.requests ?? '–'}`;
	return result.dataRequests === result.requests
		? `${result.requests}`
		: `${result.requests} (${result.dataRequests} data)`;
}

/** One line per run and latency, the issue's targets beside the figures. */
export function latencyTable(
	rows: LatencyRow[],
	growthLimitOf: (latencyMs: number) => number | undefined = () => undefined,
): string {
	return table(
		[
			'latency',
			'run',
			'N',
			'ok',
			'wall s',
			'floor s',
			'wall/floor',
			'target',
			'met',
			'safe bound s',
			'wall/bound',
			'requests',
			'target',
			'met',
			'429s',
			'met',
			'RSS growth MiB',
			'target',
			'met',
		],
		rows.map((row) => {
			const { result } = row;
			const count = result.expectedItems ?? 0;
			const growthLimit = row.run === 'export' ? growthLimitOf(row.latencyMs) : undefined;
			const verdict = judgeLatencyRow(row, growthLimit);
			const wallAllowed = wallTarget(row.run, row.latencyMs);
			const allowed = requestTarget(row.run, count);
			const judged = LATENCY_RUNS[row.run].judged;
			return [
				caseLabel(row),
				LATENCY_RUNS[row.run].label,
				`${count}`,
				result.ok ? 'yes' : `NO (${result.status})`,
				seconds(result.wallMs),
				seconds(floorMs(row.run, count)),
				fixed(verdict.wallRatio),
				wallAllowed === undefined ? (judged ? 'none' : '–') : `≤ ${wallAllowed.toFixed(2)}`,
				mark(verdict.wall),
				seconds(safeBoundMs(row.run, count, row.latencyMs)),
				fixed(ratio(result.wallMs, safeBoundMs(row.run, count, row.latencyMs))),
				requestsCell(result),
				allowed ? `${allowed.exact ? '=' : '≤'} ${allowed.requests}` : '–',
				mark(verdict.requests),
				`${result.rateLimited ?? '–'}`,
				judged ? mark(verdict.rateLimited) : '–',
				mib(result.memory?.growth),
				growthLimit === undefined ? '–' : `≤ ${mib(growthLimit)}`,
				mark(verdict.memory),
			];
		}),
	);
}

/** How the section's figures are made, printed above its table. */
export function latencyHeader(
	sizes: { exportCount: number; importCount: number },
	quick = false,
): string {
	return [
		`Latency: the sandbox at ${LATENCIES_MS.join(', ')} ms per API request, ${REQUESTS_PER_SECOND} requests/s per key; export and backfill ${sizes.exportCount}, import ${sizes.importCount}${quick ? ' (QUICK: memory not judged)' : ''}.`,
		'Then 300 ms again with 0–40 ms of jitter per request ("+ 0–40"), with one of the machine\'s cores kept busy by a spinner process ("busy"), and both: the 300 ms targets apply (the HTTP Request node is not run there).',
		`Floor = the ideal request count (reads ceil(N/${READ_PAGE}), imports ceil(N/${CREATE_BATCH})) / ${REQUESTS_PER_SECOND} per s. Targets: wall/floor (reads ≤ 1.05 / 1.15 / 1.3 at 80 / 300 / 1000 ms, imports ≤ 1.05 / 1.15 at 80 / 300 ms), data requests (reads ≤ ideal + ${READ_SPARE_REQUESTS}, imports = ideal), no 429, export memory growth no higher than before the parallel reader (SEQUENTIAL_EXPORT_GROWTH_MIB). The HTTP Request node is the reference, not judged.`,
		`Safe bound = the least time a pacer allows that assumes nothing about where in the round trip Fillout counts a request: groups of ${REQUESTS_PER_SECOND}, each a second (and 10 ms) after the answers of the one before. The pacer keeps to it once Fillout has refused one of its requests; not a target of the issue.`,
		"Wall: export and import, the execution startedAt → stoppedAt; backfill, the poll's first request (when n8n's scheduler started it after the publish: in the notes) → stoppedAt of the execution that completes the N submissions. Memory: RSS growth of the n8n process group (fresh process per export).",
	].join('\n');
}
