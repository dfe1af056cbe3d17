/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the node sources (node:fs) relative to __dirname */
/**
 * Secrets are compared in constant time: no behaviour test can tell `===` from
 * `timingSafeEqual`, so this reads the node sources. `secretsMatch` must compare through
 * `timingSafeEqual`, and no `===` / `!==` anywhere in nodes/ may compare a value named
 * like a secret, signature or fingerprint (with anything but a literal: `=== undefined`
 * and `typeof … === 'string'` are checks of presence and type, not of the value).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const SECRETISH = /secret|signature|fingerprint|recordkey|presented|apikey|material/i;
const EQUALITY = new Set([
	ts.SyntaxKind.EqualsEqualsEqualsToken,
	ts.SyntaxKind.ExclamationEqualsEqualsToken,
	ts.SyntaxKind.EqualsEqualsToken,
	ts.SyntaxKind.ExclamationEqualsToken,
]);

function sourcesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

function parse(path: string): ts.SourceFile {
	return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

function isLiteral(node: ts.Expression): boolean {
	return (
		ts.isStringLiteralLike(node) ||
		ts.isNumericLiteral(node) ||
		node.kind === ts.SyntaxKind.NullKeyword ||
		node.kind === ts.SyntaxKind.TrueKeyword ||
		node.kind === ts.SyntaxKind.FalseKeyword ||
		(ts.isIdentifier(node) && node.text === 'undefined')
	);
}

/** A value named like a secret: not its type, its length or its presence. */
function isSecretValue(node: ts.Expression, file: ts.SourceFile): boolean {
	if (ts.isTypeOfExpression(node)) return false;
	if (ts.isPropertyAccessExpression(node) && node.name.text === 'length') return false;
	return SECRETISH.test(node.getText(file));
}

/** Every `a === b` (and `!==`, `==`, `!=`) in the file that compares a secret-named value. */
export function secretComparisons(file: ts.SourceFile): string[] {
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
			const sides = [node.left, node.right];
			const secretSide = sides.some((side) => isSecretValue(side, file));
			if (secretSide && !sides.some(isLiteral)) {
				const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
				found.push(`${relative(ROOT, file.fileName)}:${line + 1}: ${node.getText(file)}`);
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

function functionNamed(file: ts.SourceFile, name: string): ts.FunctionDeclaration | undefined {
	return file.statements.find(
		(statement): statement is ts.FunctionDeclaration =>
			ts.isFunctionDeclaration(statement) && statement.name?.text === name,
	);
}

function calls(node: ts.Node, callee: string): number {
	let count = 0;
	const visit = (child: ts.Node) => {
		if (
			ts.isCallExpression(child) &&
			ts.isIdentifier(child.expression) &&
			child.expression.text === callee
		) {
			count++;
		}
		ts.forEachChild(child, visit);
	};
	visit(node);
	return count;
}

it('secretsMatch compares through timingSafeEqual', () => {
	const file = parse(join(ROOT, 'nodes/Fillout/webhookTrigger/secret.ts'));
	const secretsMatch = functionNamed(file, 'secretsMatch');
	expect(secretsMatch).toBeDefined();
	expect(calls(secretsMatch!, 'timingSafeEqual')).toBe(1);
	expect(secretComparisons(file)).toEqual([]);
});

it('no source in nodes/ compares a secret, signature or fingerprint with === or !==', () => {
	const files = sourcesUnder(join(ROOT, 'nodes'));
	expect(files.length).toBeGreaterThan(20);
	expect(files.flatMap((path) => secretComparisons(parse(path)))).toEqual([]);
});

it('the check finds the comparisons it is meant to find', () => {
	const sample = ts.createSourceFile(
		'sample.ts',
		[
			'if (presented === record.secret) ok();',
			'const same = carried.signature !== expected;',
			'const fine = typeof record.secret === "string" && secret !== undefined;',
			'const lengths = presented.length === expected.length;',
		].join('\n'),
		ts.ScriptTarget.Latest,
		true,
	);
	expect(secretComparisons(sample)).toEqual([
		'sample.ts:1: presented === record.secret',
		'sample.ts:2: carried.signature !== expected',
	]);
});
