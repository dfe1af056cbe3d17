/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: a child process entry point (reads argv, writes to stdout, removes its temp folder with node:fs) */
/**
 * One separate OS process exporting a form's submissions through the Fillout node in
 * n8n-core's engine (test/harness), as one n8n worker does: `exports` of them at once,
 * as a worker running several executions (they share the process's pacing). Started by
 * sharedKey/support/processes.ts: several processes at once share one API key, and only the
 * service's answers can tell each of them about the others.
 *
 *   ts-node --transpile-only test/sharedKey/support/exportProcess.ts <origin> <apiKey> <formId> <exports> [nodeDir]
 *
 * `nodeDir` loads Fillout.node from another copy of nodes/ (the benchmark's "before").
 * Once loaded it prints `ready` and waits for a line on stdin, so that the exports of all
 * processes start together; then it prints one JSON line: for each export, the
 * submission ids in the order returned, or the error, and its wall time.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { userFolder } from '../../harness/setupUserFolder';
import { runNode } from '../../harness';

export interface ExportProcessResult {
	ids: string[];
	error?: string;
	wallMs: number;
}

async function main(): Promise<void> {
	const [origin, apiKey, formId, exports, nodeDir] = process.argv.slice(2);
	const root = nodeDir ? resolve(nodeDir) : resolve(__dirname, '../../../nodes');
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the copy to load is chosen at run time
	const { Fillout } = require(join(root, 'Fillout/Fillout.node.ts'));
	process.stdout.write('ready\n');
	await new Promise((resolveGo) => process.stdin.once('data', resolveGo));
	process.stdin.pause();
	const started = performance.now();
	const exportOnce = async (): Promise<ExportProcessResult> => {
		const run = await runNode({
			nodeType: Fillout,
			parameters: {
				resource: 'submission',
				operation: 'getMany',
				form: { __rl: true, mode: 'id', value: formId },
				returnAll: true,
				simplify: false,
			},
			credentials: { filloutFormsApi: { apiKey, region: 'custom', baseUrl: origin } },
		});
		return {
			ids: run.items.map((item) => String(item.json.submissionId)),
			error: run.error?.message,
			wallMs: Math.round(performance.now() - started),
		};
	};
	const results = await Promise.all(Array.from({ length: Number(exports) }, exportOnce));
	process.stdout.write(`${JSON.stringify(results)}\n`);
}

main()
	.catch((error: unknown) => {
		process.stdout.write(
			`${JSON.stringify([{ ids: [], error: String((error as Error).stack ?? error), wallMs: 0 }])}\n`,
		);
	})
	.finally(() => rmSync(userFolder, { recursive: true, force: true }));
