/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: builds fixture packages with node:fs and runs the scan script with node:child_process */
/**
 * scripts/scan-package.mjs runs both legs of n8n's community package scanner: the
 * source (package.json, nodes/, credentials/) and the packed tarball (its .js and
 * package.json), with inline eslint-disable comments ignored as the scanner ignores them.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts', 'scan-package.mjs');
const run = promisify(execFile);

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	n8n: { nodes: string[]; credentials: string[] };
};
/** A console call hidden from ESLint by an inline comment, which the scanner disregards. */
const HIDDEN_CONSOLE = "// eslint-disable-next-line no-console\nconsole.log('leak');\n";

let work: string;
beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'fillout-scan-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the script; resolves with its exit code and everything it printed. */
async function scan(args: string[]): Promise<{ code: number; output: string }> {
	try {
		const { stdout, stderr } = await run(process.execPath, [SCRIPT, ...args], { cwd: ROOT });
		return { code: 0, output: stdout + stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
	}
}

/** A copy of the repository's scanned sources (and the icons they point at). */
function sourceCopy(name: string): string {
	const dir = join(work, name);
	for (const entry of ['package.json', 'nodes', 'credentials', 'icons']) {
		cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
	}
	return dir;
}

/** A tarball as npm packs it (`package/…`): package.json and a small module per listed file. */
async function tarball(name: string, extra: Record<string, string> = {}): Promise<string> {
	const dir = join(work, name, 'package');
	const files: Record<string, string> = { 'package.json': JSON.stringify(packageJson) };
	for (const file of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials]) {
		files[file] = "'use strict';\nmodule.exports = {};\n";
	}
	for (const [file, text] of Object.entries({ ...files, ...extra })) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		writeFileSync(join(dir, file), text);
	}
	const file = join(work, `${name}.tgz`);
	await run('tar', ['-czf', file, '-C', join(work, name), 'package']);
	return file;
}

describe('scripts/scan-package.mjs', () => {
	it('passes the repository sources and a clean tarball', async () => {
		const result = await scan(['--source', ROOT, '--tarball', await tarball('clean')]);
		expect(result.output).toMatch(/source: passed/);
		expect(result.output).toMatch(/tarball: passed/);
		expect(result.code).toBe(0);
	});

	it('fails a source whose node hides a console call behind an inline disable', async () => {
		const source = sourceCopy('source-console');
		writeFileSync(join(source, 'nodes', 'Fillout', 'shared', 'leak.ts'), HIDDEN_CONSOLE);
		const result = await scan(['--source', source, '--tarball', await tarball('clean-2')]);
		expect(result.output).toMatch(/source: failed/);
		expect(result.output).toMatch(/leak\.ts[\s\S]*no-console/);
		expect(result.output).toMatch(/tarball: passed/);
		expect(result.code).toBe(1);
	});

	it('fails a tarball whose built code hides a console call behind an inline disable', async () => {
		const packed = await tarball('dist-console', { 'dist/leak.js': HIDDEN_CONSOLE });
		const result = await scan(['--source', ROOT, '--tarball', packed]);
		expect(result.output).toMatch(/source: passed/);
		expect(result.output).toMatch(/tarball: failed/);
		expect(result.output).toMatch(/leak\.js[\s\S]*no-console/);
		expect(result.code).toBe(1);
	});

	it('fails a tarball that lacks the built nodes package.json lists, naming the file', async () => {
		const packed = await tarball('unbuilt', {});
		rmSync(join(work, 'unbuilt', 'package', packageJson.n8n.nodes[0]));
		await run('tar', ['-czf', packed, '-C', join(work, 'unbuilt'), 'package']);
		const result = await scan(['--source', ROOT, '--tarball', packed]);
		expect(result.output).toContain(`lacks ${packageJson.n8n.nodes[0]}`);
		expect(result.code).toBe(1);
	});
});
