/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the repository's scripts with node:fs, relative to __dirname */
/**
 * The n8n releases the suite installs are named once, in test/e2e/support/paths.ts:
 * install-n8n.sh's default and every script, benchmark and test that names a release
 * of a pinned line must name the pin, so that a run (CI, the playground, the
 * benchmarks) installs one 2.x and one 1.x, each a ~9-minute install.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION } from '../e2e/support/paths';

const ROOT = resolve(__dirname, '../..');
const PINS = [DEFAULT_N8N_VERSION, LEGACY_N8N_VERSION];
const SCANNED = ['scripts', 'benchmarks', 'test', '.ci', 'sandbox'];
const SKIPPED = new Set(['node_modules', 'results', 'golden']);

function codeFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		if (SKIPPED.has(name)) return [];
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return codeFiles(path);
		return /\.(ts|js|sh)$|^run$/.test(name) ? [path] : [];
	});
}

/** `major.minor.patch` in quotes, of the major.minor line `pin` belongs to. */
function quotedReleasesOfLine(text: string, pin: string): string[] {
	const line = pin.split('.').slice(0, 2).join('\\.');
	const pattern = new RegExp(`['"\`](${line}\\.\\d+)['"\`]`, 'g');
	return [...text.matchAll(pattern)].map((match) => match[1]);
}

describe('the pinned n8n releases', () => {
	it('are one 2.x and one 1.x', () => {
		expect(DEFAULT_N8N_VERSION).toMatch(/^2\.\d+\.\d+$/);
		expect(LEGACY_N8N_VERSION).toMatch(/^1\.\d+\.\d+$/);
	});

	it("install-n8n.sh's default is DEFAULT_N8N_VERSION", () => {
		const script = readFileSync(join(ROOT, 'test/e2e/support/install-n8n.sh'), 'utf8');
		const defaults = [...script.matchAll(/^N8N_VERSION=\$\{N8N_VERSION:-([^}]*)\}$/gm)];
		expect(defaults.map((match) => match[1])).toEqual([DEFAULT_N8N_VERSION]);
	});

	it('no script, benchmark or test names another release of a pinned line', () => {
		const files = SCANNED.flatMap((dir) => codeFiles(join(ROOT, dir)));
		expect(files.length).toBeGreaterThan(50);
		const scanned = files.map((file) => relative(ROOT, file));
		for (const installer of [
			'benchmarks/files.ts',
			'scripts/playground.ts',
			'.ci/run',
			'test/e2e/support/installN8n.ts',
		]) {
			expect(scanned).toContain(installer);
		}
		const strays: string[] = [];
		for (const file of files) {
			const text = readFileSync(file, 'utf8');
			for (const pin of PINS) {
				for (const release of quotedReleasesOfLine(text, pin)) {
					if (release !== pin) strays.push(`${relative(ROOT, file)}: ${release} (pin ${pin})`);
				}
			}
		}
		expect(strays).toEqual([]);
	});

	it('the scan sees a stray release in quotes of either kind', () => {
		const stray = DEFAULT_N8N_VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 2));
		expect(quotedReleasesOfLine(`version: '${stray}'`, DEFAULT_N8N_VERSION)).toEqual([stray]);
		expect(quotedReleasesOfLine(`"${LEGACY_N8N_VERSION}"`, LEGACY_N8N_VERSION)).toEqual([
			LEGACY_N8N_VERSION,
		]);
		const [major, minor] = DEFAULT_N8N_VERSION.split('.');
		const otherLines = `'${major}.${minor}0.1' '1${major}.${minor}.1'`;
		expect(quotedReleasesOfLine(otherLines, DEFAULT_N8N_VERSION)).toEqual([]);
	});
});
