/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the README and the harness sources with node:fs, relative to __dirname */
/**
 * test/harness/README.md must name only what exists: the modules and exports it
 * imports, each node's methods and parameters, credential types, the harness's options,
 * results and trigger methods.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { INodeType } from 'n8n-workflow';

import { PollHarness, TriggerHarness, defaultCredentialTypes } from '../harness';

const ROOT = resolve(__dirname, '../..');
const HARNESS = join(ROOT, 'test/harness');
const readme = readFileSync(join(HARNESS, 'README.md'), 'utf8');
const code = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1]).join('\n');

/** Fields of the harness's exported interfaces, with those of the interfaces they extend. */
function interfaceFields(): Map<string, Set<string>> {
	const own = new Map<string, { fields: string[]; parents: string[] }>();
	for (const file of readdirSync(HARNESS).filter((name) => name.endsWith('.ts'))) {
		const text = readFileSync(join(HARNESS, file), 'utf8');
		for (const [, name, parents, body] of text.matchAll(
			/export interface (\w+)(?: extends ([^{]+))? \{([\s\S]*?)\n\}/g,
		)) {
			const fields = [...body.matchAll(/^\t(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]);
			own.set(name, { fields, parents: parents?.match(/\b[A-Z]\w+/g) ?? [] });
		}
	}
	const all = (name: string): string[] => {
		const entry = own.get(name);
		return entry ? [...entry.fields, ...entry.parents.flatMap(all)] : [];
	};
	return new Map([...own.keys()].map((name) => [name, new Set(all(name))]));
}
const fieldsOf = interfaceFields();

/** Top-level keys of the object literal that opens at `text[start]` ('{'). */
function objectLiteral(text: string, start: number): { keys: string[]; body: string } {
	const keys: string[] = [];
	let depth = 0;
	let expectKey = false;
	for (let i = start; i < text.length; i++) {
		const char = text[i];
		if (char === "'" || char === '"' || char === '`') {
			i = text.indexOf(char, i + 1);
		} else if (char === '/' && text[i + 1] === '/') {
			i = text.indexOf('\n', i);
		} else if ('{[('.includes(char)) {
			depth++;
			expectKey = depth === 1;
		} else if ('}])'.includes(char)) {
			if (--depth === 0) return { keys, body: text.slice(start, i + 1) };
		} else if (depth === 1 && char === ',') {
			expectKey = true;
		} else if (depth === 1 && expectKey && /[A-Za-z_$]/.test(char)) {
			const key = /^[\w$]+/.exec(text.slice(i))?.[0] ?? '';
			keys.push(key);
			i += key.length - 1;
			expectKey = false;
		}
	}
	throw new Error(`unclosed object literal at ${start}`);
}

/** The object literal that is argument `position` (0-based) of the call opening at `open`. */
function argumentObject(text: string, open: number, position: number) {
	let start = open;
	for (let skipped = 0; skipped < position; skipped++) start = text.indexOf(',', start) + 1;
	const brace = text.indexOf('{', start);
	return brace < text.indexOf(')', start) || position === 0
		? objectLiteral(text, brace)
		: undefined;
}

/** The modules the examples import, resolved from a test file in test/<folder>/. */
function imported(): Map<string, unknown> {
	const names = new Map<string, unknown>();
	for (const [, list, from] of code.matchAll(/import \{([^}]+)\} from '([^']+)'/g)) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(resolve(ROOT, 'test/example', from)) as Record<string, unknown>;
		for (const part of list
			.split(',')
			.map((text) => text.trim())
			.filter(Boolean)) {
			const [name, alias = name] = part.split(/\s+as\s+/);
			names.set(alias, module[name]);
		}
	}
	return names;
}

function nodeNamed(name: string): INodeType {
	const type = imported().get(name);
	if (typeof type !== 'function') throw new Error(`${name} is not imported by the examples`);
	return new (type as new () => INodeType)();
}

function parameterNames(node: INodeType): string[] {
	return node.description.properties.map((property) => property.name);
}

const credentialNames = defaultCredentialTypes().map((type) => type.name);

describe('test/harness/README.md', () => {
	it('imports modules and exports that exist', () => {
		expect(fieldsOf.size).toBeGreaterThan(5);
		const names = [...imported()];
		expect(names.length).toBeGreaterThan(5);
		const missing = names.filter(([, value]) => value === undefined).map(([n]) => n);
		expect(missing).toEqual([]);
	});

	it('calls editor methods the node has, with its parameters', () => {
		const calls = [
			...code.matchAll(/\bcall(ListSearch|LoadOptions|ResourceMapping)\((\w+), '(\w+)'/g),
		];
		expect(calls.length).toBeGreaterThan(0);
		for (const call of calls) {
			const kind = `${call[1][0].toLowerCase()}${call[1].slice(1)}` as 'listSearch';
			const node = nodeNamed(call[2]);
			expect(`${call[2]}.${kind}.${call[3]}: ${typeof node.methods?.[kind]?.[call[3]]}`).toBe(
				`${call[2]}.${kind}.${call[3]}: function`,
			);
			const options = argumentObject(code, call.index + call[0].length, 1);
			const allowed = fieldsOf.get(
				kind === 'listSearch' ? 'ListSearchCallOptions' : 'MethodCallOptions',
			);
			expect(options?.keys.filter((key) => !allowed?.has(key))).toEqual([]);
			const parameters = /parameters: \{/.exec(options?.body ?? '');
			if (parameters && options) {
				const { keys } = objectLiteral(options.body, parameters.index + 'parameters: '.length);
				expect(keys.filter((key) => !parameterNames(node).includes(key))).toEqual([]);
			}
		}
	});

	it('runs nodes with options, parameters and credentials that exist', () => {
		const runs = [...code.matchAll(/\b(runNode|createTriggerHarness)\(\{/g)];
		expect(runs.length).toBeGreaterThan(1);
		for (const run of runs) {
			const options = objectLiteral(code, run.index + run[0].length - 1);
			const allowed = fieldsOf.get(
				run[1] === 'runNode' ? 'RunNodeOptions' : 'TriggerHarnessOptions',
			);
			expect(options.keys.filter((key) => !allowed?.has(key))).toEqual([]);
			const nodeType = /nodeType: (\w+)/.exec(options.body)?.[1];
			expect(nodeType).toBeDefined();
			const node = nodeNamed(nodeType as string);
			for (const [field, known] of [
				['parameters', parameterNames(node)],
				['credentials', credentialNames],
			] as const) {
				const at = options.body.indexOf(`${field}: {`);
				if (at < 0) continue;
				const { keys } = objectLiteral(options.body, at + field.length + 2);
				expect(keys.filter((key) => !known.includes(key))).toEqual([]);
			}
		}
	});

	it('reads results and calls trigger methods that exist', () => {
		// Each loop below asserts nothing over zero matches: the examples must have some.
		const results = [...code.matchAll(/const \{([^}]+)\} = await (?:\w+\.)?(\w+)\(/g)];
		expect(results.length).toBeGreaterThan(0);
		for (const [, keys, call] of results) {
			const result = fieldsOf.get(call === 'runNode' ? 'RunNodeResult' : 'WebhookCallResult');
			const unknown = keys
				.split(',')
				.map((key) => key.trim())
				.filter((key) => !result?.has(key));
			expect(unknown).toEqual([]);
		}
		const members = new Set([
			...Object.getOwnPropertyNames(TriggerHarness.prototype),
			...(fieldsOf.get('TriggerHarness') ?? []),
			'staticData',
		]);
		const used = [...code.matchAll(/\btrigger\.(\w+)/g)].map((match) => match[1]);
		expect(used.length).toBeGreaterThan(0);
		expect(used.filter((name) => !members.has(name))).toEqual([]);
		const pollMembers = new Set([...Object.getOwnPropertyNames(PollHarness.prototype), 'saved']);
		const polled = [...code.matchAll(/\bpoller\.(\w+)/g)].map((match) => match[1]);
		expect(polled.length).toBeGreaterThan(0);
		expect(polled.filter((name) => !pollMembers.has(name))).toEqual([]);
		const webhookMethods = [...code.matchAll(/callWebhookMethod\('(\w+)'/g)];
		expect(webhookMethods.length).toBeGreaterThan(0);
		for (const [, name] of webhookMethods) {
			expect(['checkExists', 'create', 'delete']).toContain(name);
		}
		const credentialTests = [...code.matchAll(/testCredential\('(\w+)'/g)];
		expect(credentialTests.length).toBeGreaterThan(0);
		for (const [, type] of credentialTests) {
			expect(credentialNames).toContain(type);
		}
	});
});
