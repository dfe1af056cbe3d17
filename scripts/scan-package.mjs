/**
 * Runs n8n's community package scanner (@n8n/scan-community-package) the way n8n's
 * verification does, without publishing first: its command line only scans a
 * published name, so this calls the scanner's own analysis function on both legs.
 *
 *   source:  package.json, nodes/ and credentials/ of the repository (what the
 *            provenance attestation points n8n at);
 *   tarball: the packed package's .js files and package.json.
 *
 * The scanner ignores inline eslint-disable comments, so this does too.
 *
 *   node scripts/scan-package.mjs [--source DIR] [--tarball FILE]
 *
 * Without --tarball the repository is packed with `npm pack` (build it first).
 * Exits 1 when a leg fails.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const work = mkdtempSync(join(tmpdir(), 'fillout-scan-'));
// The scanner makes a temp folder when it is loaded and leaves it: make it in ours.
process.env.TMPDIR = work;
// eslint-plugin-n8n-nodes-base reads NODE_ENV=test (which jest sets) as its own test
// mode and then treats every file as a node file; the scanner runs without it.
if (process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
	'@n8n/scan-community-package/scanner/scanner.mjs'
);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The scanner's tarball leg (not exported): compiled code and the published manifest.
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];

/** `npm pack` of the repository into `dir`; the tarball's path. */
function packRepository(dir) {
	const output = execFileSync(
		'npm',
		['pack', '--json', '--pack-destination', dir, '--loglevel=error'],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	return join(dir, JSON.parse(output)[0].filename);
}

/** Unpacks a tarball as n8n does (its `package/` folder becomes the root). */
function unpack(tarball, dir) {
	execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
	return dir;
}

/** Node and credential files package.json lists that the unpacked package lacks. */
function missingEntryPoints(packageDir) {
	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	const listed = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	return listed.filter((file) => !existsSync(join(packageDir, file)));
}

/** One leg's result, with an empty scan counted as a failure: nothing was checked. */
async function scanLeg(dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed && result.message) return { passed: false, message: result.message };
	return result;
}

function report(name, result) {
	console.log(`${name}: ${result.passed ? 'passed' : `failed (${result.message})`}`);
	if (result.details) console.log(result.details);
}

async function main() {
	const { values } = parseArgs({
		options: { source: { type: 'string' }, tarball: { type: 'string' } },
	});
	const tarball = values.tarball ? resolve(values.tarball) : packRepository(work);
	const packageDir = unpack(tarball, mkdtempSync(join(work, 'package-')));
	const source = await scanLeg(resolve(values.source ?? ROOT), SOURCE_FILE_PATTERNS);
	const missing = missingEntryPoints(packageDir);
	const packed = missing.length
		? { passed: false, message: `the package lacks ${missing.join(', ')}: build it first` }
		: await scanLeg(packageDir, TARBALL_FILE_PATTERNS);
	report('source', source);
	report('tarball', packed);
	return source.passed && packed.passed ? 0 : 1;
}

try {
	process.exitCode = await main();
} finally {
	rmSync(work, { recursive: true, force: true });
}
