/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- benchmark: extracts the earlier nodes/ with git (node:child_process, node:fs/path) */
/**
 * `npm run bench -- --only shared-key`: several OS processes exporting with one API key
 * (as n8n workers in queue mode do), each running the node in n8n-core's engine
 * (test/sharedKey), against the sandbox at 5 requests/s and +80 ms. Side by side in one
 * run: this code in 1 process and in 3, and the code before shared-key pacing in 3.
 * The queue-mode version (real n8n main and workers) comes with the queue-mode tier.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type RunningSandbox } from '../sandbox';
import { REPO_ROOT } from '../test/e2e/lib';
import { exportInProcesses } from '../test/sharedKey/processes';
import { requestFloor } from './stats';

const RATE_LIMIT = 5;
const LATENCY_MS = 80;
const PAGE = 150;

export interface SharedKeyRow {
	variant: string;
	processes: number;
	succeeded: number;
	/** Exports that returned every submission exactly once. */
	exact: number;
	requests: number;
	rateLimited: number;
	wallMs: number;
	floorMs: number;
	errors: string[];
}

/** The nodes/ folder as it was before shared-key pacing (the parent of the commit adding it). */
function extractBefore(): { dir: string; commit: string } {
	const git = (...args: string[]) =>
		execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
	const added = git(
		'log',
		'--diff-filter=A',
		'--format=%H',
		'-1',
		'--',
		'nodes/Fillout/helpers/sharedLimit.ts',
	);
	const commit = git('rev-parse', '--short', `${added}^`);
	// Inside the clone, so that the copy resolves n8n-workflow from its node_modules.
	mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
	const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'before-'));
	execFileSync('sh', ['-c', `git archive ${commit} nodes | tar -x -C ${dir}`], { cwd: REPO_ROOT });
	return { dir, commit };
}

async function keyStats(sandbox: RunningSandbox, apiKey: string) {
	const response = await fetch(`${sandbox.origin}/_sandbox/stats`);
	const stats = (await response.json()) as {
		byKey: Record<string, { total: number; rateLimited: number }>;
	};
	return stats.byKey[apiKey] ?? { total: 0, rateLimited: 0 };
}

async function measure(
	sandbox: RunningSandbox,
	formId: string,
	expected: Set<string>,
	variant: string,
	processes: number,
	nodeDir?: string,
): Promise<SharedKeyRow> {
	await fetch(`${sandbox.origin}/_sandbox/stats/reset`, { method: 'POST' });
	const apiKey = sandbox.demo.apiKey;
	const results = await exportInProcesses({
		origin: sandbox.origin,
		apiKey,
		formId,
		processes,
		nodeDir,
	});
	const stats = await keyStats(sandbox, apiKey);
	const exactlyOnce = (ids: string[]) =>
		ids.length === expected.size &&
		new Set(ids).size === ids.length &&
		ids.every((id) => expected.has(id));
	const single = requestFloor(expected.size, PAGE, { roundTripMs: LATENCY_MS });
	return {
		variant,
		processes,
		succeeded: results.filter((result) => !result.error).length,
		exact: results.filter((result) => exactlyOnce(result.ids)).length,
		requests: stats.total,
		rateLimited: stats.rateLimited,
		wallMs: Math.max(...results.map((result) => result.wallMs)),
		// The issue's shared floor: all processes' requests at 5 per second.
		floorMs:
			processes === 1 ? single.seconds * 1000 : ((processes * single.requests) / RATE_LIMIT) * 1000,
		errors: results.flatMap((result) => (result.error ? [result.error] : [])),
	};
}

export async function runSharedKeyBench(
	count: number,
	log: (line: string) => void,
): Promise<SharedKeyRow[]> {
	const sandbox = await startSandbox({ port: 0, rateLimit: RATE_LIMIT, quiet: true });
	const before = extractBefore();
	try {
		const form = (await (
			await fetch(`${sandbox.origin}/_sandbox/forms`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Shared-key export' }),
			})
		).json()) as { id: string };
		await fetch(`${sandbox.origin}/_sandbox/forms/${form.id}/generate`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ count }),
		});
		const expected = new Set(
			sandbox.context.store
				.submissionsOf(form.id)
				.sorted()
				.map((item) => item.submission.submissionId),
		);
		await fetch(`${sandbox.origin}/_sandbox/faults`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ latencyMs: LATENCY_MS }),
		});
		const rows: SharedKeyRow[] = [];
		log(`shared key: 1 process, this code (${count} submissions)`);
		rows.push(await measure(sandbox, form.id, expected, 'this code', 1));
		log(sharedKeyTable(rows.slice(-1)));
		log('shared key: 3 processes, this code');
		rows.push(await measure(sandbox, form.id, expected, 'this code', 3));
		log(sharedKeyTable(rows.slice(-1)));
		log(`shared key: 3 processes, before (${before.commit})`);
		rows.push(
			await measure(
				sandbox,
				form.id,
				expected,
				`before (${before.commit})`,
				3,
				join(before.dir, 'nodes'),
			),
		);
		return rows;
	} finally {
		rmSync(before.dir, { recursive: true, force: true });
		await sandbox.close();
	}
}

export function sharedKeyTable(rows: SharedKeyRow[]): string {
	const lines = [
		'| variant | processes | exports ok | every submission once | requests | 429s | 429 share | wall | floor | wall/floor |',
		'| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
	];
	for (const row of rows) {
		lines.push(
			`| ${row.variant} | ${row.processes} | ${row.succeeded}/${row.processes} | ${row.exact}/${row.processes} | ${row.requests} | ${row.rateLimited} | ${((100 * row.rateLimited) / row.requests).toFixed(1)} % | ${(row.wallMs / 1000).toFixed(2)} s | ${(row.floorMs / 1000).toFixed(2)} s | ${(row.wallMs / row.floorMs).toFixed(2)} |`,
		);
	}
	const errors = rows.flatMap((row) =>
		row.errors.map((error) => `- ${row.variant}: ${error.split('\n')[0]}`),
	);
	return errors.length
		? `${lines.join('\n')}\n\nFailed exports:\n${errors.join('\n')}`
		: lines.join('\n');
}
