/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the icon, codex and package files from disk, relative to __dirname */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';

const root = resolve(__dirname, '../../..');
const node = new Fillout();
const { description } = node;

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

	it('has light and dark icons that resolve beside the source and the build', () => {
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark]) {
			const relative = file.replace(/^file:/, '');
			expect(existsSync(resolve(root, 'nodes/Fillout', relative))).toBe(true);
			// gulp copies icons/ to dist/icons, two levels above dist/nodes/Fillout.
			expect(resolve(root, 'dist/nodes/Fillout', relative)).toBe(
				resolve(root, 'dist/icons', relative.split('/').pop() as string),
			);
		}
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

	it('is described by its codex file and registered in package.json, without runtime dependencies', () => {
		const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
		const codex = JSON.parse(
			readFileSync(resolve(root, 'nodes/Fillout/Fillout.node.json'), 'utf8'),
		);
		expect(codex.node).toBe(`${pkg.name}.fillout`);
		expect(codex.nodeVersion).toBe('1.0');
		expect(codex.codexVersion).toBe('1.0');
		expect(codex.categories.length).toBeGreaterThan(0);
		expect(codex.resources.primaryDocumentation[0].url).toBe(pkg.homepage);
		expect(pkg.n8n.nodes).toContain('dist/nodes/Fillout/Fillout.node.js');
		expect(pkg.dependencies ?? {}).toEqual({});
	});
});
