/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads CHANGELOG.md and package.json with node:fs, relative to __dirname */
/** CHANGELOG.md describes the version package.json is at: a tag publishes nothing undescribed. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
};

/** The versions of the "## 1.2.3 (yyyy-mm-dd)" headings, in file order. */
const entries = [...changelog.matchAll(/^## (\S+) \((\d{4}-\d{2}-\d{2})\)$/gm)].map((m) => m[1]);

describe('CHANGELOG.md', () => {
	it("opens with package.json's version", () => {
		expect(entries[0]).toBe(version);
	});

	it('lists each version once, newest first', () => {
		const numbers = entries.map((entry) => entry.split('.').map(Number));
		for (const [index, current] of numbers.slice(1).entries()) {
			const newer = numbers[index];
			const order = newer.findIndex((part, at) => part !== current[at]);
			expect(`${entries[index]} > ${entries[index + 1]}: ${newer[order] > current[order]}`).toBe(
				`${entries[index]} > ${entries[index + 1]}: true`,
			);
		}
	});
});
