/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: inspects the installed package folder with node:fs/path */
/** The packed package, installed the way n8n's community package installer does, loads in n8n. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createApiKeyCredential } from './lib/credentials';
import { NODE_TYPES, PACKAGE_NAME } from './lib/paths';
import { actionWorkflow, NODE_NAMES } from './lib/workflows';
import { connectE2e, unique, type E2eContext } from './support';

let e2e: E2eContext;
beforeAll(async () => {
	e2e = await connectE2e();
});

describe('the community package', () => {
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

	it('is loaded by n8n: GET /types/nodes.json lists the action node and the trigger', async () => {
		const types = await e2e.n8n.nodeTypes();
		const ours = types.filter((type) => type.name.startsWith(`${PACKAGE_NAME}.`));
		const names = ours.map((type) => type.name);
		expect(names).toEqual(expect.arrayContaining([NODE_TYPES.action, NODE_TYPES.trigger]));
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

	it('registers both credential types, the OAuth2 one extending oAuth2Api', async () => {
		const types = await e2e.n8n.credentialTypes();
		const byName = new Map(types.map((type) => [type.name, type]));
		expect(byName.get('filloutFormsApi')).toBeDefined();
		expect(byName.get('filloutFormsOAuth2Api')?.extends).toEqual(['oAuth2Api']);
	});

	it('tests an API key credential in n8n: accepted against the sandbox, a wrong key refused', async () => {
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

		const wrong = await createApiKeyCredential(
			e2e.n8n,
			unique('key wrong'),
			'sk_prod_not_a_real_key',
			e2e.state.sandbox.origin,
		);
		const refused = await e2e.n8n.testCredential(wrong);
		expect(refused.status).toBe('Error');
		expect(refused.message).toMatch(/refused the API key/);
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
