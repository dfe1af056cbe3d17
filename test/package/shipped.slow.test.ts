/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: reads the package's files and runs its gulp build (a child process) into a temp folder, relative to __dirname */
/**
 * What the package registers in package.json is what it ships: the compiled nodes and
 * credentials, their icons and codex files as `npm run build` lays them out, and
 * documentation links to README sections. Slow tier: it runs the gulp build.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import type { ICredentialType, INodeTypeDescription } from 'n8n-workflow';

import { FilloutFormsApi } from '../../credentials/FilloutFormsApi.credentials';
import { FilloutFormsOAuth2Api } from '../../credentials/FilloutFormsOAuth2Api.credentials';
import { Fillout } from '../../nodes/Fillout/Fillout.node';
import { FilloutPollingTrigger } from '../../nodes/Fillout/FilloutPollingTrigger.node';
import { FilloutTrigger } from '../../nodes/Fillout/FilloutTrigger.node';

const root = resolve(__dirname, '../..');
const node = new Fillout();
const { description } = node;
const trigger = new FilloutTrigger();
const poller = new FilloutPollingTrigger();
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

/** What n8n loads, by the compiled file package.json registers it under. */
const nodes: Array<[string, INodeTypeDescription]> = [
	['dist/nodes/Fillout/Fillout.node.js', description],
	['dist/nodes/Fillout/FilloutTrigger.node.js', trigger.description],
	['dist/nodes/Fillout/FilloutPollingTrigger.node.js', poller.description],
];
const credentials: Array<[string, ICredentialType]> = [
	['dist/credentials/FilloutFormsApi.credentials.js', new FilloutFormsApi()],
	['dist/credentials/FilloutFormsOAuth2Api.credentials.js', new FilloutFormsOAuth2Api()],
];
const sourceOf = (compiled: string) => compiled.replace(/^dist\//, '').replace(/\.js$/, '.ts');
const iconFiles = (icon: unknown) =>
	Object.values(icon as { light: string; dark: string }).map((file) => file.replace(/^file:/, ''));

/** GitHub's anchor for a README heading. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');
const readmeAnchors = new Set(
	readme
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) => anchorOf(line.replace(/^#+ /, ''))),
);
/** The README section a documentation link points at, or undefined if it is not one. */
const readmeSection = (url: string) => {
	const [page, anchor] = url.split('#');
	return page === pkg.homepage.split('#')[0] && readmeAnchors.has(anchor) ? anchor : undefined;
};

/** The package's assets as `npm run build` lays them out (its gulp step, in a temp copy). */
let build: string;
beforeAll(() => {
	build = mkdtempSync(join(tmpdir(), 'fillout-build-'));
	for (const folder of ['icons', 'nodes', 'credentials']) {
		cpSync(resolve(root, folder), join(build, folder), { recursive: true });
	}
	const gulp = resolve(root, 'node_modules/gulp/bin/gulp.js');
	execFileSync(
		process.execPath,
		[gulp, 'build', '--gulpfile', resolve(root, 'gulpfile.js'), '--cwd', build],
		{ stdio: 'pipe' },
	);
});
afterAll(() => rmSync(build, { recursive: true, force: true }));

describe('the package registers what it ships', () => {
	it('package.json lists exactly these nodes and credentials, and no runtime dependency', () => {
		expect(pkg.n8n.nodes).toEqual(nodes.map(([file]) => file));
		expect(pkg.n8n.credentials).toEqual(credentials.map(([file]) => file));
		expect(pkg.dependencies ?? {}).toEqual({});
	});

	it.each([...nodes, ...credentials].map(([file, described]) => [file, described.icon] as const))(
		'%s: light and dark icons beside the source and in the build',
		(compiled, icon) => {
			const files = iconFiles(icon);
			expect(files).toHaveLength(2);
			for (const file of files) {
				expect(existsSync(resolve(root, dirname(sourceOf(compiled)), file))).toBe(true);
				expect(existsSync(resolve(build, dirname(compiled), file))).toBe(true);
			}
		},
	);

	it.each(nodes)(
		'%s: its codex file in the build names it and links the README',
		(compiled, described) => {
			const codexFile = resolve(build, compiled.replace(/\.js$/, '.json'));
			expect(existsSync(codexFile)).toBe(true);
			const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
			expect(codex.node).toBe(`${pkg.name}.${described.name}`);
			expect(codex.nodeVersion).toBe('1.0');
			expect(codex.codexVersion).toBe('1.0');
			expect(codex.categories.length).toBeGreaterThan(0);
			expect(codex.resources.primaryDocumentation[0].url).toBe(pkg.homepage);
			expect(readmeSection(codex.resources.credentialDocumentation[0].url)).toBe('credentials');
		},
	);

	it.each(credentials)('%s: its documentation link is a README section', (_, credential) => {
		expect(readmeSection(credential.documentationUrl as string)).toBeDefined();
	});
});
