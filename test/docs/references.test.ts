/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the repository's files with node:fs, relative to __dirname */
/**
 * What the repository's code and docs point at must be in the repository and true:
 * no citations of notes kept elsewhere, docs pointers to files and sections that
 * exist, links that resolve, and a harness README naming only what the harness has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.playground', '.tmp', 'images']);
const BINARY = /\.(png|jpe?g|gif|ico|tgz|zip)$/i;

function repositoryFiles(dir = ROOT): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		if (SKIPPED.has(entry.name)) return [];
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return repositoryFiles(path);
		return entry.isFile() && !BINARY.test(entry.name) ? [path] : [];
	});
}

const files = repositoryFiles().map((path) => ({
	path: relative(ROOT, path),
	text: readFileSync(path, 'utf8'),
}));

/** Text with comment line breaks (` * `, `// `) joined, so a pointer may wrap. */
function unwrapped(text: string): string {
	return text.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

function headings(path: string): string[] {
	const text = readFileSync(join(ROOT, path), 'utf8').replace(/```[\s\S]*?```/g, '');
	return [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((match) => match[1]);
}

describe('the repository stands alone', () => {
	it('cites only Markdown files it holds', () => {
		const held = files.map((file) => file.path);
		const missing: string[] = [];
		for (const { path, text } of files) {
			// Markdown files whole; in code, the comments (a name in a string, such as a list of packed files, cites nothing).
			const cited = path.endsWith('.md')
				? text
				: text
						.split('\n')
						.filter((line) => /^\s*(\/\/|\/?\*)/.test(line))
						.join('\n');
			for (const [name] of cited.matchAll(/(?<![\w./-])(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.md\b/g)) {
				const inDir = relative(ROOT, resolve(ROOT, dirname(path), name));
				if (!held.some((file) => file === name || file === inDir || file.endsWith(`/${name}`))) {
					missing.push(`${path}: ${name}`);
				}
			}
		}
		expect(missing).toEqual([]);
	});

	it('names no paths beside its checkout', () => {
		const beside = `${dirname(ROOT)}/`;
		expect(files.filter(({ text }) => text.includes(beside)).map(({ path }) => path)).toEqual([]);
	});

	it('points only at docs files and sections that exist', () => {
		const broken: string[] = [];
		for (const { path, text } of files) {
			for (const match of unwrapped(text).matchAll(/\bdocs\/([\w.-]+\.md)(?:, "([^"]+)")?/g)) {
				const target = `docs/${match[1]}`;
				if (!existsSync(join(ROOT, target))) broken.push(`${path}: ${target}`);
				else if (match[2] !== undefined && !headings(target).includes(match[2])) {
					broken.push(`${path}: ${target}, "${match[2]}"`);
				}
			}
			// A pointer names its file and section; a bare README reference leaves the reader searching.
			if (/\(see the README\)/i.test(text))
				broken.push(`${path}: a README pointer without file and section`);
		}
		expect(broken).toEqual([]);
	});

	it('has Markdown links that resolve, anchors included', () => {
		const broken: string[] = [];
		for (const { path, text } of files.filter((file) => file.path.endsWith('.md'))) {
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^[a-z]+:/i.test(target)) continue;
				const [file, anchor] = target.split('#');
				const resolved = file ? relative(ROOT, resolve(ROOT, dirname(path), file)) : path;
				if (!existsSync(join(ROOT, resolved))) broken.push(`${path}: ${target}`);
				else if (anchor && !headings(resolved).map(slug).includes(anchor)) {
					broken.push(`${path}: ${target}`);
				}
			}
		}
		expect(broken).toEqual([]);
	});
});
