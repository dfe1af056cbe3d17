/**
 * The catch-up scenario's figures (issue 33), pure so that the counting is tested: what an
 * idle trigger costs an hour, and whether the executions after a downtime ran every missed
 * submission once, in submission order, and when the one that completes them ended.
 */
import { fixed, mib, seconds, table } from './report';
import type { RssSplit } from './catchUpTrace';
import { ratio, REQUESTS_PER_SECOND } from './stats';

/** Submissions per list request (Fillout's largest page). */
const PAGE = 150;
/** The node's default Check for Missed Submissions Every (minutes). */
export const DEFAULT_INTERVAL_MINUTES = 5;
/** The least baseline of memory: n8n may start its first check before it answers HTTP. */
export const MIN_BASELINE_MS = 2_000;

export interface IdleObservation {
	/** List requests the sandbox counted for the trigger's key in the window. */
	listRequests: number;
	/** Every request of the key in the window (list, form, webhook). */
	requests: number;
	/** How many times the list count rose in the window (the checks seen). */
	checks: number;
	/** The window's length. */
	minutes: number;
	/** The trigger's check interval. */
	intervalMinutes: number;
}

export interface IdleFigures extends IdleObservation {
	/** List requests per hour, measured: count / minutes × 60. */
	perHour: number;
	/** List requests per check, measured (undefined: no check seen). */
	perCheck?: number;
	/** Per hour at the default interval, derived from the measured cost of a check. */
	perHourAtDefault?: number;
	/** The bound: at most one list request per check interval. */
	withinBound: boolean;
}

export function idleFigures(observed: IdleObservation): IdleFigures {
	const intervals = Math.ceil(observed.minutes / observed.intervalMinutes);
	const perCheck = observed.checks > 0 ? observed.listRequests / observed.checks : undefined;
	return {
		...observed,
		perHour: (observed.listRequests / observed.minutes) * 60,
		perCheck,
		perHourAtDefault:
			perCheck === undefined ? undefined : (perCheck * 60) / DEFAULT_INTERVAL_MINUTES,
		withinBound: observed.listRequests <= intervals,
	};
}

/** One ended execution of the trigger's workflow, with its trigger items' ids in item order. */
export interface CatchUpRun {
	id: string;
	status: string;
	startedAt?: string;
	stoppedAt?: string;
	submissionIds: string[];
}

export interface BacklogFigures {
	executions: number;
	failed: number;
	/** Items emitted by successful executions. */
	emitted: number;
	distinct: number;
	missing: number;
	/** Missed submissions that ran more than once. */
	duplicated: number;
	/** Ids emitted that are not among the missed ones. */
	unexpected: number;
	/** Emitted, in execution and item order, exactly the missed ones in submission order. */
	inOrder: boolean;
	/** stoppedAt of the execution whose items complete the missed ones (ms since the epoch). */
	completedAtMs?: number;
}

/** Executions in the order n8n started them (ids count up). */
export const byStart = (a: CatchUpRun, b: CatchUpRun) => Number(a.id) - Number(b.id);

export function backlogFigures(expected: readonly string[], runs: readonly CatchUpRun[]) {
	const wanted = new Set(expected);
	const ordered = [...runs].sort(byStart);
	const succeeded = ordered.filter((run) => run.status === 'success');
	const emittedIds = succeeded.flatMap((run) => run.submissionIds);
	const counts = new Map<string, number>();
	const seen = new Set<string>();
	let completedAtMs: number | undefined;
	for (const run of succeeded) {
		for (const id of run.submissionIds) {
			counts.set(id, (counts.get(id) ?? 0) + 1);
			if (wanted.has(id)) seen.add(id);
		}
		if (completedAtMs === undefined && seen.size === wanted.size && run.stoppedAt) {
			completedAtMs = Date.parse(run.stoppedAt);
		}
	}
	const figures: BacklogFigures = {
		executions: ordered.length,
		failed: ordered.length - succeeded.length,
		emitted: emittedIds.length,
		distinct: counts.size,
		missing: expected.filter((id) => !counts.has(id)).length,
		duplicated: expected.filter((id) => (counts.get(id) ?? 0) > 1).length,
		unexpected: [...counts.keys()].filter((id) => !wanted.has(id)).length,
		inOrder:
			emittedIds.length === expected.length && emittedIds.every((id, i) => id === expected[i]),
		completedAtMs,
	};
	return figures;
}

/** The ideal list requests for `count` and their time at 5 a second (the latency bench's floor). */
export function readFloor(count: number): { requests: number; ms: number } {
	const requests = Math.ceil(count / PAGE);
	return { requests, ms: (requests / REQUESTS_PER_SECOND) * 1000 };
}

export interface BacklogResult {
	count: number;
	figures: BacklogFigures;
	/** When n8n answered again after the restart, and the key's first request after it. */
	backAtMs: number;
	firstRequestAtMs?: number;
	listRequests: number;
	/** List requests until the completing execution stopped (as sampled every 250 ms). */
	listRequestsToComplete?: number;
	requests: Record<string, number>;
	rateLimited: number;
	memory?: RssSplit;
	/** List requests of the first scheduled check after the catch-up completed. */
	nextCheckRequests?: number;
	notes: string[];
}

export function idleTable(idle: IdleFigures): string {
	return table(
		['interval', 'how', 'list requests', 'checks', 'minutes', 'per check', 'per hour', 'bound'],
		[
			[
				`${idle.intervalMinutes} min`,
				'measured',
				`${idle.listRequests} (${idle.requests} in all)`,
				`${idle.checks}`,
				fixed(idle.minutes),
				fixed(idle.perCheck),
				fixed(idle.perHour, 1),
				idle.withinBound ? 'HOLDS (≤ 1 per interval)' : 'MISSED (> 1 per interval)',
			],
			[
				`${DEFAULT_INTERVAL_MINUTES} min`,
				'derived: per check × 12',
				'–',
				'–',
				'–',
				fixed(idle.perCheck),
				fixed(idle.perHourAtDefault, 1),
				'–',
			],
		],
	);
}

export function backlogTable(result: BacklogResult): string {
	const { figures, count } = result;
	const floor = readFloor(count);
	const done = figures.completedAtMs;
	const from = (at?: number) => (done === undefined || at === undefined ? undefined : done - at);
	const wall = from(result.firstRequestAtMs);
	// In order means each missed one emitted once, and nothing else.
	const ok = figures.inOrder && !figures.failed;
	const rows: Array<[string, string]> = [
		['all caught up, each once, in submission order', ok ? 'yes' : 'NO'],
		['executions (failed)', `${figures.executions} (${figures.failed})`],
		[
			'items emitted / distinct / missed ones',
			`${figures.emitted} / ${figures.distinct} / ${count}`,
		],
		[
			'missing / run twice / not missed',
			`${figures.missing} / ${figures.duplicated} / ${figures.unexpected}`,
		],
		[
			'list requests: to completion / until quiet (floor)',
			`${result.listRequestsToComplete ?? '–'} / ${result.listRequests} (${floor.requests})`,
		],
		[
			'other requests',
			Object.entries(result.requests)
				.map(([route, n]) => `${route}: ${n}`)
				.join(', ') || '–',
		],
		['429s', `${result.rateLimited}`],
		['wall: first request → stoppedAt, s', seconds(wall)],
		['floor s', seconds(floor.ms)],
		['wall / floor', fixed(ratio(wall, floor.ms))],
		['n8n back → stoppedAt, s', seconds(from(result.backAtMs))],
		[
			'n8n back → first request, s',
			seconds(
				result.firstRequestAtMs === undefined
					? undefined
					: result.firstRequestAtMs - result.backAtMs,
			),
		],
		['RSS of the group: baseline / peak / growth, MiB', rss(result.memory?.group)],
		['RSS of the main process: baseline / peak / growth, MiB', rss(result.memory?.main)],
		['next scheduled check: list requests', `${result.nextCheckRequests ?? '–'}`],
	];
	return table(['figure', 'value'], rows);
}

const rss = (part?: RssSplit['group']) =>
	`${mib(part?.baseline)} / ${mib(part?.peak)} / ${mib(part?.growth)}`;

/** The section of the printed results: how it was measured, both tables, the notes. */
export function catchUpSection(
	idle: IdleFigures,
	backlog: BacklogResult,
	latencyMs: number,
	quick: boolean,
): string {
	return [
		`Catch-up (Fillout Trigger 1.1, Catch Up Missed Submissions on, checks every ${idle.intervalMinutes} min; sandbox at ${REQUESTS_PER_SECOND} requests/s, +${latencyMs} ms)${quick ? ' (QUICK)' : ''}.`,
		'',
		`Idle: published, no submission; the key's requests counted by the sandbox over whole minutes after the first check (35 s after the publish). The ${DEFAULT_INTERVAL_MINUTES}-minute row is derived from the measured cost of a check, not measured.`,
		'',
		idleTable(idle),
		'',
		`Downtime: n8n stopped, ${backlog.count} submissions made meanwhile (none delivered), n8n started. Wall = the key's first request after n8n is back (the sandbox's clock) → stoppedAt of the execution whose items complete the ${backlog.count}. Floor = ceil(${backlog.count} / ${PAGE}) list requests ÷ ${REQUESTS_PER_SECOND} per s. Memory = RSS of n8n's process group (main + task runners) and of its main process, sampled every 50 ms from when n8n answered again until the catch-up stopped; baseline = their median before the first request (at least the first ${MIN_BASELINE_MS / 1000} s), growth = the peak after it − the baseline. Requests "until quiet": until no list request came for 15 s, the checks after the completing one included.`,
		'',
		backlogTable(backlog),
		...(backlog.notes.length
			? ['', 'Catch-up notes:', ...backlog.notes.map((note) => `- ${note}`)]
			: []),
	].join('\n');
}
