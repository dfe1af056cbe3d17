/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- benchmark tool: describes the machine (node:os, node:child_process, process.version) */
/** The machine, the table, and the targets checked against the figures. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';

import type { BenchRow } from './context';
import { MIB } from './memory';
import { ratio } from './stats';

export interface Machine {
	date: string;
	cores: number;
	cpu: string;
	memoryGiB: number;
	benchNode: string;
	n8nNode: string;
	n8nVersion: string;
	/** Load average (1, 5, 15 min) before the benchmark started anything, and after it ran. */
	loadBefore: number[];
	loadAfter?: number[];
}

export function describeMachine(
	n8nNodeBinary: string,
	n8nVersion: string,
	loadBefore: number[],
): Machine {
	let n8nNode = 'unknown';
	try {
		n8nNode = execFileSync(n8nNodeBinary, ['--version'], {
			encoding: 'utf8',
		}).trim();
	} catch {
		// left unknown
	}
	return {
		date: new Date().toISOString(),
		cores: cpus().length,
		cpu: cpus()[0]?.model ?? 'unknown',
		memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
		benchNode: process.version,
		n8nNode,
		n8nVersion,
		loadBefore,
	};
}

export const loadNow = () => loadavg();

export const fixed = (value: number | undefined, digits = 2) =>
	value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
export const seconds = (ms: number | undefined) =>
	ms === undefined ? '–' : (ms / 1000).toFixed(2);
export const mib = (bytes: number | undefined) =>
	bytes === undefined ? '–' : (bytes / MIB).toFixed(0);

/** A plain table as GitHub markdown (also readable in a terminal). */
export function table(header: string[], rows: string[][]): string {
	const widths = header.map((title, column) =>
		Math.max(title.length, ...rows.map((row) => row[column].length)),
	);
	const line = (cells: string[]) =>
		`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`]
		.concat(rows.map(line))
		.join('\n');
}

export function transferTable(rows: BenchRow[]): string {
	return table(
		[
			'scenario',
			'variant',
			'ok',
			'items',
			'requests',
			'429s',
			'floor req',
			'wall s',
			'floor s',
			'wall/floor',
			'node s',
			'peak RSS MiB',
			'RSS growth MiB',
		],
		rows
			.filter((row) => row.scenario !== 'trigger')
			.map((row) => [
				row.scenario,
				row.variant,
				row.ok ? 'yes' : `NO (${row.status})`,
				`${row.items ?? '–'}`,
				row.dataRequests !== undefined && row.dataRequests !== row.requests
					? `${row.requests} (${row.dataRequests} data)`
					: `${row.requests ?? '–'}`,
				`${row.rateLimited ?? '–'}`,
				`${row.floorRequests ?? '–'}`,
				seconds(row.wallMs),
				seconds(row.floorMs),
				fixed(ratio(row.wallMs, row.floorMs)),
				seconds(row.nodeMs),
				mib(row.memory?.peak),
				mib(row.memory?.growth),
			]),
	);
}

export function triggerTable(rows: BenchRow[]): string {
	const triggerRows = rows.filter((row) => row.scenario === 'trigger' && row.trigger);
	const reference = triggerRows.find((row) => /webhook node/i.test(row.variant))?.trigger;
	return table(
		[
			'receiver',
			'ok',
			'executions',
			'lost',
			'run twice',
			'failed deliveries',
			'median ms',
			'p99 ms',
			'max ms',
			'median / Webhook',
			'p99 / Webhook',
		],
		triggerRows.map((row) => {
			const figures = row.trigger as NonNullable<BenchRow['trigger']>;
			return [
				row.variant,
				row.ok ? 'yes' : 'NO',
				`${figures.succeeded}/${row.expectedItems}`,
				`${figures.missing}`,
				`${figures.duplicated}`,
				`${figures.deliveryFailures}`,
				fixed(figures.medianMs, 0),
				fixed(figures.p99Ms, 0),
				fixed(figures.maxMs, 0),
				fixed(ratio(figures.medianMs, reference?.medianMs)),
				fixed(ratio(figures.p99Ms, reference?.p99Ms)),
			];
		}),
	);
}

export interface TargetCheck {
	target: string;
	holds: boolean | undefined;
	detail: string;
}

const find = (rows: BenchRow[], scenario: BenchRow['scenario'], pattern: RegExp) =>
	rows.find((row) => row.scenario === scenario && pattern.test(row.variant));

/**
 * The targets, each with the figures it was judged on. An export may take one request
 * over the floor: each page after the first re-reads the previous page's last
 * submission, which is what makes the read exact while submissions change.
 */
export function checkTargets(rows: BenchRow[]): TargetCheck[] {
	const checks: TargetCheck[] = [];
	for (const scenario of ['export', 'import'] as const) {
		const row = find(rows, scenario, /^Fillout/);
		if (!row) continue;
		const wallRatio = ratio(row.wallMs, row.floorMs);
		const allowed = (row.floorRequests ?? 0) + (scenario === 'export' ? 1 : 0);
		checks.push({
			target: `${scenario}: ${scenario === 'export' ? 'at most one request over' : 'exactly'} the floor's requests, no 429 needed, no failed execution`,
			holds:
				row.ok &&
				row.requests !== undefined &&
				row.requests <= allowed &&
				row.requests >= (row.floorRequests ?? 0),
			detail: `${row.requests} requests (${row.dataRequests} data, floor ${row.floorRequests}), ${row.rateLimited} 429s, ${row.ok ? 'succeeded' : row.status}`,
		});
		checks.push({
			target: `${scenario}: wall time within 1.15× the floor`,
			holds: wallRatio === undefined ? undefined : wallRatio <= 1.15,
			detail: `${seconds(row.wallMs)} s / ${seconds(row.floorMs)} s = ${fixed(wallRatio)}`,
		});
	}
	const trigger = find(rows, 'trigger', /^Fillout/)?.trigger;
	const webhook = find(rows, 'trigger', /webhook node/i)?.trigger;
	if (trigger && webhook) {
		checks.push({
			target: 'trigger: one execution per submission (none lost, none run twice)',
			holds: trigger.missing === 0 && trigger.duplicated === 0 && trigger.deliveryFailures === 0,
			detail: `${trigger.succeeded} successful executions of ${trigger.deliveries} deliveries, ${trigger.missing} lost, ${trigger.duplicated} run twice or more`,
		});
		const medianRatio = ratio(trigger.medianMs, webhook.medianMs);
		const p99Ratio = ratio(trigger.p99Ms, webhook.p99Ms);
		checks.push({
			target: "trigger: at most 1.2× the Webhook node's latency (median and p99)",
			holds:
				medianRatio === undefined || p99Ratio === undefined
					? undefined
					: medianRatio <= 1.2 && p99Ratio <= 1.2,
			detail: `median ${fixed(trigger.medianMs, 0)} vs ${fixed(webhook.medianMs, 0)} ms (${fixed(medianRatio)}), p99 ${fixed(trigger.p99Ms, 0)} vs ${fixed(webhook.p99Ms, 0)} ms (${fixed(p99Ratio)})`,
		});
	}
	const backfill = find(rows, 'poll', /backfill/);
	if (backfill) {
		checks.push({
			target:
				"poll: the backfill reads at the export's request count (the floor, plus the exact pager's one re-read) and emits each submission once",
			holds:
				backfill.ok &&
				backfill.dataRequests !== undefined &&
				backfill.dataRequests <= (backfill.floorRequests ?? 0) + 1,
			detail: `${backfill.dataRequests} list requests (floor ${backfill.floorRequests}), ${backfill.items} items of ${backfill.expectedItems}, ${backfill.rateLimited} 429s, ${seconds(backfill.wallMs)} s`,
		});
	}
	const idle = find(rows, 'poll', /nothing new/);
	if (idle) {
		checks.push({
			target: 'poll: a poll that finds nothing new costs one request and starts no execution',
			holds: idle.ok,
			detail: `${idle.requests} request(s), ${idle.status}`,
		});
	}
	const mine = find(rows, 'export', /^Fillout/)?.memory;
	const http = find(rows, 'export', /limit=150/)?.memory;
	if (mine && http) {
		const growth = ratio(mine.growth, http.growth);
		checks.push({
			target: 'memory: at most 1.5× the HTTP Request variant (peak growth over baseline)',
			holds: growth === undefined ? undefined : growth <= 1.5,
			detail: `growth ${mib(mine.growth)} vs ${mib(http.growth)} MiB (${fixed(growth)}); peak ${mib(mine.peak)} vs ${mib(http.peak)} MiB (${fixed(ratio(mine.peak, http.peak))})`,
		});
	}
	return checks;
}

export function targetLines(checks: TargetCheck[]): string {
	return checks
		.map(
			(check) =>
				`- ${check.holds === undefined ? 'n/a ' : check.holds ? 'HOLDS' : 'MISSED'} ${check.target}: ${check.detail}`,
		)
		.join('\n');
}

export function machineLine(machine: Machine): string {
	const load = (values?: number[]) => (values ? values.map((v) => v.toFixed(2)).join(' ') : '–');
	return `${machine.date}: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, n8n ${machine.n8nVersion} on Node ${machine.n8nNode}, benchmark on Node ${machine.benchNode}, load average ${load(machine.loadBefore)} before the run / ${load(machine.loadAfter)} at its end (its own processes included)`;
}
