/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: reads the package's files and runs its gulp build (a child process) into a temp folder, relative to __dirname */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import type { ICredentialType, INodeTypeDescription } from 'n8n-workflow';

import { FilloutFormsApi } from '../../../credentials/FilloutFormsApi.credentials';
import { FilloutFormsOAuth2Api } from '../../../credentials/FilloutFormsOAuth2Api.credentials';
import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { FilloutPollingTrigger } from '../../../nodes/Fillout/FilloutPollingTrigger.node';
import { FilloutTrigger } from '../../../nodes/Fillout/FilloutTrigger.node';

const root = resolve(__dirname, '../../..');
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

describe('Fillout node description', () => {
	it('is a programmatic, tool-usable node with a subtitle and both credentials', () => {
		expect(description.name).toBe('fillout');
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expect(typeof node.execute).toBe('function');
		expect(description.credentials).toEqual([
			expect.objectContaining({
				name: 'filloutFormsApi',
				displayOptions: { show: { authentication: ['apiKey'] } },
			}),
			expect.objectContaining({
				name: 'filloutFormsOAuth2Api',
				displayOptions: { show: { authentication: ['oAuth2'] } },
			}),
		]);
	});

	it('offers every operation with an action', () => {
		const operations = description.properties.filter((p) => p.name === 'operation');
		const offered = operations.flatMap((p) =>
			(p.options as Array<{ value: string; action?: string }>).map(
				(o) => `${p.displayOptions?.show?.resource}:${o.value}`,
			),
		);
		expect(offered.sort()).toEqual(
			[
				'form:get',
				'form:getMany',
				'submission:create',
				'submission:delete',
				'submission:get',
				'submission:getMany',
				'webhook:create',
				'webhook:delete',
			].sort(),
		);
		for (const p of operations) {
			for (const option of p.options as Array<{ action?: string }>)
				expect(option.action).toMatch(/^[A-Z]/);
		}
	});
});

describe('Fillout Trigger description', () => {
	const described = trigger.description;

	it('is a webhook trigger with the node’s credentials, a form, Simplify and Download Files', () => {
		expect(described.name).toBe('filloutTrigger');
		expect(described.group).toEqual(['trigger']);
		expect(described.inputs).toEqual([]);
		expect(described.outputs).toEqual(['main']);
		expect(described.credentials).toEqual(description.credentials);
		expect(described.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
		expect(described.properties.map((p) => p.name)).toEqual([
			'authentication',
			'form',
			'simplify',
			'downloadFiles',
			'fileOptions',
		]);
		expect(typeof trigger.webhook).toBe('function');
		expect(Object.keys(trigger.webhookMethods.default).sort()).toEqual([
			'checkExists',
			'create',
			'delete',
		]);
	});
});

describe('Fillout Polling Trigger description', () => {
	const described = poller.description;

	it('is a polling trigger beside the webhook one: same credentials, form, Simplify and Download Files', () => {
		expect(described.name).toBe('filloutPollingTrigger');
		// Searching "Fillout" in the node panel shows both, and the names tell them apart.
		expect(described.displayName).toBe('Fillout Polling Trigger');
		expect(described.polling).toBe(true);
		expect(described.group).toEqual(['trigger']);
		expect(described.inputs).toEqual([]);
		expect(described.credentials).toEqual(description.credentials);
		expect(described.webhooks).toBeUndefined();
		expect(described.properties.map((p) => p.name)).toEqual([
			'authentication',
			'form',
			'startFrom',
			'startDate',
			'inProgress',
			'options',
			'simplify',
			'downloadFiles',
			'fileOptions',
		]);
		expect(typeof poller.poll).toBe('function');
	});
});

describe('credential descriptions', () => {
	it('the API key credential keeps the key hidden and tests it with a request', () => {
		const apiKey = new FilloutFormsApi();
		expect(apiKey.name).toBe('filloutFormsApi');
		expect(apiKey.properties.find((p) => p.name === 'apiKey')?.typeOptions).toEqual({
			password: true,
		});
		expect(apiKey.test.request.url).toBe('/forms');
	});

	it('the OAuth2 credential extends n8n’s OAuth2 with no scopes', () => {
		const oauth = new FilloutFormsOAuth2Api();
		expect(oauth.name).toBe('filloutFormsOAuth2Api');
		expect(oauth.extends).toEqual(['oAuth2Api']);
		expect(oauth.properties.find((p) => p.name === 'scope')).toMatchObject({
			type: 'hidden',
			default: '',
		});
	});
});
