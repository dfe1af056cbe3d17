/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: inspects the installed package folder with node:fs/path/module and reads n8n's own semver and constants */
/**
 * The packed package, installed the way n8n's community package installer does, loads in
 * n8n, and declares nothing this n8n refuses (the suite runs on n8n 2.41.1 and 1.123.81).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { createApiKeyCredential } from './support/credentials';
import { NODE_TYPES, PACKAGE_NAME, REPO_ROOT } from './support/paths';
import { freePort } from './support/processes';
import { actionWorkflow, NODE_NAMES } from './support/workflows';
import { connectE2e, unique, type E2eContext } from './support';

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

describe('the community package: installed and loaded', () => {
	it('is unpacked into .n8n/nodes/node_modules and recorded in .n8n/nodes/package.json', () => {
		const { installed, packed, n8n } = e2e.state;
		expect(installed.dir).toBe(join(n8n.userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME));
		const manifest = JSON.parse(readFileSync(installed.manifest, 'utf8'));
		expect(manifest.dependencies).toEqual({ [PACKAGE_NAME]: packed.version });

		const packageJson = JSON.parse(readFileSync(join(installed.dir, 'package.json'), 'utf8'));
		expect(packageJson.name).toBe(PACKAGE_NAME);
		// As n8n's installer leaves it: no dev or peer dependencies, and no runtime ones at all.
		expect(packageJson.devDependencies).toBeUndefined();
		expect(packageJson.peerDependencies).toBeUndefined();
		expect(packageJson.dependencies ?? {}).toEqual({});
		expect(existsSync(join(installed.dir, 'node_modules'))).toBe(false);

		// Only the published files: the build output, package.json, README and licence.
		expect(readdirSync(installed.dir).sort()).toEqual(
			expect.arrayContaining(['dist', 'package.json']),
		);
		for (const entry of readdirSync(installed.dir)) {
			expect(['dist', 'package.json', 'README.md', 'LICENSE', 'LICENSE.md']).toContain(entry);
		}
		// The licence package.json names ships with it: n8n's verification asks for one.
		expect(packed.files).toContain('LICENSE.md');
		expect(packageJson.license).toBe('MIT');
		expect(readFileSync(join(installed.dir, 'LICENSE.md'), 'utf8')).toMatch(/^MIT License\n/);
		for (const file of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials]) {
			expect(existsSync(join(installed.dir, file))).toBe(true);
		}
		expect(packed.files).toContain('dist/nodes/Fillout/Fillout.node.js');
		// Source maps would point at TypeScript sources the package does not ship.
		expect(packed.files.filter((file) => file.endsWith('.map'))).toEqual([]);
	});

	it('is loaded by n8n: GET /types/nodes.json lists the action node and both triggers', async () => {
		const types = await e2e.n8n.nodeTypes();
		const ours = types.filter((type) => type.name.startsWith(`${PACKAGE_NAME}.`));
		const names = ours.map((type) => type.name);
		expect(names).toEqual(
			expect.arrayContaining([NODE_TYPES.action, NODE_TYPES.trigger, NODE_TYPES.pollingTrigger]),
		);
		// n8n adds "Poll Times" to a node that says `polling: true`.
		const poller = ours.find((type) => type.name === NODE_TYPES.pollingTrigger);
		expect(poller).toMatchObject({ polling: true, group: ['trigger'] });
		const trigger = ours.find((type) => type.name === NODE_TYPES.trigger);
		expect(trigger).toMatchObject({
			group: ['trigger'],
			webhooks: [expect.objectContaining({ httpMethod: 'POST', path: 'webhook' })],
		});
		const action = ours.find((type) => type.name === NODE_TYPES.action);
		expect(action?.credentials).toEqual([
			expect.objectContaining({ name: 'filloutFormsApi' }),
			expect.objectContaining({ name: 'filloutFormsOAuth2Api' }),
		]);
	});

	it('declares nothing this n8n refuses: its Node versions, node API version, node and credential properties', async () => {
		const { installed, n8n } = e2e.state;
		const ours = JSON.parse(readFileSync(join(installed.dir, 'package.json'), 'utf8'));
		// n8n's own modules, as this n8n release ships them.
		const fromN8n = createRequire(join(n8n.install.dir, 'node_modules', 'n8n', 'package.json'));
		const n8nPackage = fromN8n('n8n/package.json') as { engines: { node: string } };
		const semver = fromN8n('semver') as { subset(range: string, of: string): boolean };

		// Every Node version this n8n runs on is one the package accepts.
		expect(semver.subset(n8nPackage.engines.node, ours.engines.node)).toBe(true);

		// n8n 2.x skips packages above its node API version; n8n 1.x predates the field and
		// knows only what is now version 1.
		const { N8N_NODES_API_VERSION: supported = 1 } = fromN8n('@n8n/constants') as {
			N8N_NODES_API_VERSION?: number;
		};
		expect(ours.n8n.n8nNodesApiVersion).toBeLessThanOrEqual(supported);

		// n8n serves every property the nodes and credentials declare (the built classes
		// the tarball was packed from).
		const served = new Map((await e2e.n8n.nodeTypes()).map((type) => [type.name, type]));
		const servedCredentials = new Map(
			(await e2e.n8n.credentialTypes()).map((type) => [type.name, type]),
		);
		const fromRepo = createRequire(join(REPO_ROOT, 'package.json'));
		const names = (properties: unknown) =>
			(properties as Array<{ name: string }>).map((property) => property.name);
		const build = (file: string) => {
			const module = fromRepo(join(REPO_ROOT, file)) as Record<string, new () => object>;
			return new (Object.values(module)[0])() as Record<string, unknown>;
		};
		for (const file of ours.n8n.nodes as string[]) {
			const { description } = build(file) as { description: { name: string; properties: unknown } };
			const type = served.get(`${PACKAGE_NAME}.${description.name}`);
			expect(names(type?.properties)).toEqual(
				expect.arrayContaining(names(description.properties)),
			);
		}
		for (const file of ours.n8n.credentials as string[]) {
			const credential = build(file) as { name: string; properties: unknown };
			// n8n adds its own (allowed domains) to every credential.
			expect(names(servedCredentials.get(credential.name)?.properties)).toEqual(
				expect.arrayContaining(names(credential.properties)),
			);
		}
	});
});

describe('the community package: its credentials and workflows in n8n', () => {
	it('registers both credential types, the OAuth2 one extending oAuth2Api', async () => {
		const types = await e2e.n8n.credentialTypes();
		const byName = new Map(types.map((type) => [type.name, type]));
		expect(byName.get('filloutFormsApi')).toBeDefined();
		expect(byName.get('filloutFormsOAuth2Api')?.extends).toEqual(['oAuth2Api']);
	});

	it('tests an API key credential in n8n: accepted against the sandbox; a wrong key, a wrong Base URL and an unreachable host refused', async () => {
		const good = await createApiKeyCredential(
			e2e.n8n,
			unique('key ok'),
			e2e.demo.apiKeys[0],
			e2e.state.sandbox.origin,
		);
		await expect(e2e.n8n.testCredential(good)).resolves.toEqual({
			status: 'OK',
			message: expect.any(String),
		});

		const legacy = (await e2e.n8n.majorVersion()) < 2;
		const testWith = async (label: string, apiKey: string, baseUrl: string) =>
			await e2e.n8n.testCredential(
				await createApiKeyCredential(e2e.n8n, unique(label), apiKey, baseUrl),
			);
		// n8n 1.x loses the credential's own messages (its rules read the error's cause,
		// which n8n-workflow 1.x drops) and shows n8n's wording for the status or the code.
		const cases: Array<[string, string, string, RegExp]> = [
			[
				'key wrong',
				'sk_prod_not_a_real_key',
				e2e.state.sandbox.origin,
				legacy ? /^Bad request - please check your parameters$/ : /refused the API key/,
			],
			[
				'base url wrong',
				e2e.demo.apiKeys[0],
				`${e2e.state.sandbox.origin}/no/fillout/here`,
				legacy ? /could not be found/ : /No Fillout API answers at this Base URL/,
			],
			[
				'host unreachable',
				e2e.demo.apiKeys[0],
				`http://127.0.0.1:${await freePort()}`,
				legacy ? /refused the connection/ : /^ECONNREFUSED$/,
			],
		];
		for (const [label, apiKey, baseUrl, message] of cases) {
			const refused = await testWith(label, apiKey, baseUrl);
			expect({ label, ...refused }).toEqual({
				label,
				status: 'Error',
				message: expect.stringMatching(message),
			});
		}
	});

	it('a saved workflow, exported and imported again, runs the same', async () => {
		const credential = await createApiKeyCredential(
			e2e.n8n,
			unique('key import'),
			e2e.demo.apiKeys[0],
			e2e.state.sandbox.origin,
		);
		const original = await e2e.n8n.createWorkflow(
			actionWorkflow({
				name: unique('export me'),
				credential,
				parameters: { resource: 'form', operation: 'getMany', returnAll: true },
			}),
		);
		const exported = JSON.parse(JSON.stringify(await e2e.n8n.getWorkflow(original.id)));
		const imported = await e2e.n8n.importWorkflow(exported);
		expect(imported.id).not.toBe(original.id);
		expect(imported.active).toBe(false);

		const runs = [];
		for (const id of [original.id, imported.id]) {
			runs.push(await e2e.n8n.waitForExecution(await e2e.n8n.runWorkflow(id)));
		}
		for (const run of runs) expect(run.status).toBe('success');
		expect(runs[1].items(NODE_NAMES.fillout)).toEqual(runs[0].items(NODE_NAMES.fillout));
		expect(runs[0].items(NODE_NAMES.fillout).map((form) => form.formId)).toEqual(
			e2e.demo.forms.map((form) => form.formId),
		);
	});
});
