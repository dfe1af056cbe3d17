/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals -- benchmark: extracts the earlier nodes/ with git (node:child_process, node:fs/path), the commit from the environment */
/**
 * `npm run bench -- --only shared-key`: several OS processes exporting with one API key
 * (as n8n workers in queue mode do), each running the node in n8n-core's engine
 * (test/sharedKey), against the sandbox at 5 requests/s and +80 ms. Side by side in one
 * run, this code and the code before the last change to the shared-key rule: 1
 * export alone, 3 in 3 processes (1+1+1), and 3 in 2 processes (2+1: two executions in
 * one process, as on a queue-mode worker). SHARED_KEY_SPLITS (JSON, e.g. [[5,5,5,5]])
 * picks other layouts, SHARED_KEY_SUBMISSIONS another form size.
 * The queue-mode version (real n8n main and workers) comes with the queue-mode tier.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type RunningSandbox } from '../sandbox';
import { REPO_ROOT } from '../test/e2e/support';
import { exportInProcesses } from '../test/sharedKey/support/processes';
import { requestFloor } from './stats';

const RATE_LIMIT = 5;
const LATENCY_MS = 80;
const PAGE = 150;
/** Exports per process: alone; 3 processes; 2 processes, one running two exports. */
const SPLITS: number[][] = process.env.SHARED_KEY_SPLITS
	? (JSON.parse(process.env.SHARED_KEY_SPLITS) as number[][])
	: [[1], [1, 1, 1], [2, 1]];

export interface SharedKeyRow {
	variant: string;
	/** Exports per process, e.g. [2, 1]. */
	split: number[];
	succeeded: number;
	/** Exports that returned every submission exactly once. */
	exact: number;
	requests: number;
	rateLimited: number;
	wallMs: number;
	floorMs: number;
	errors: string[];
}

/**
 * The nodes/ folder to compare with: SHARED_KEY_BEFORE (a commit), or else as it was
 * before the last change to the rule (that commit's parent). A move of the file is not
 * a change of the rule (`--diff-filter=M` with rename detection skips it).
 */
function extractBefore(): { dir: string; commit: string } {
	const git = (...args: string[]) =>
		execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
	const changed = git(
		'log',
		'--format=%H',
		'-1',
		'-M',
		'--diff-filter=M',
		'--',
		'nodes/Fillout/transport/sharedRate.ts',
		'nodes/Fillout/helpers/sharedRate.ts',
		'nodes/Fillout/helpers/sharedLimit.ts',
	);
	const commit = git('rev-parse', '--short', process.env.SHARED_KEY_BEFORE ?? `${changed}^`);
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
	split: number[],
	nodeDir?: string,
): Promise<SharedKeyRow> {
	await fetch(`${sandbox.origin}/_sandbox/stats/reset`, { method: 'POST' });
	const apiKey = sandbox.demo.apiKey;
	const results = await exportInProcesses({
		origin: sandbox.origin,
		apiKey,
		formId,
		split,
		nodeDir,
	});
	const exports = results.length;
	const stats = await keyStats(sandbox, apiKey);
	const exactlyOnce = (ids: string[]) =>
		ids.length === expected.size &&
		new Set(ids).size === ids.length &&
		ids.every((id) => expected.has(id));
	const single = requestFloor(expected.size, PAGE, { roundTripMs: LATENCY_MS });
	return {
		variant,
		split,
		succeeded: results.filter((result) => !result.error).length,
		exact: results.filter((result) => exactlyOnce(result.ids)).length,
		requests: stats.total,
		rateLimited: stats.rateLimited,
		wallMs: Math.max(...results.map((result) => result.wallMs)),
		// The issue's shared floor: all exports' requests at 5 per second.
		floorMs:
			exports === 1 ? single.seconds * 1000 : ((exports * single.requests) / RATE_LIMIT) * 1000,
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
		const variants = [
			{ name: 'this code', nodeDir: undefined },
			{ name: `before (${before.commit})`, nodeDir: join(before.dir, 'nodes') },
		];
		// Alternating the variants, so that a slow stretch of the machine hits both.
		for (const split of SPLITS) {
			for (const variant of variants) {
				log(`shared key: ${split.join('+')}, ${variant.name} (${count} submissions each)`);
				rows.push(await measure(sandbox, form.id, expected, variant.name, split, variant.nodeDir));
				log(sharedKeyTable(rows.slice(-1)));
			}
		}
		return rows;
	} finally {
		rmSync(before.dir, { recursive: true, force: true });
		await sandbox.close();
	}
}

export function sharedKeyTable(rows: SharedKeyRow[]): string {
	const lines = [
		'| variant | exports per process | exports ok | every submission once | requests | 429s | 429 share | wall | floor | wall/floor |',
		'| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
	];
	for (const row of rows) {
		const exports = row.split.reduce((sum, one) => sum + one, 0);
		lines.push(
			`| ${row.variant} | ${row.split.join('+')} | ${row.succeeded}/${exports} | ${row.exact}/${exports} | ${row.requests} | ${row.rateLimited} | ${((100 * row.rateLimited) / row.requests).toFixed(1)} % | ${(row.wallMs / 1000).toFixed(2)} s | ${(row.floorMs / 1000).toFixed(2)} s | ${(row.wallMs / row.floorMs).toFixed(2)} |`,
		);
	}
	const errors = rows.flatMap((row) =>
		row.errors.map((error) => `- ${row.variant}: ${error.split('\n')[0]}`),
	);
	return errors.length
		? `${lines.join('\n')}\n\nFailed exports:\n${errors.join('\n')}`
		: lines.join('\n');
}
