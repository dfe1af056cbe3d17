/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the node sources (node:fs) relative to __dirname */
/**
 * Both triggers keep what one n8n process remembers in one module,
 * nodes/Fillout/shared/processMemory.ts, and the tests' restart (`forgetProcessMemory`)
 * empties all of it: no module-level cache elsewhere in nodes/, and every cache the
 * triggers fill through n8n-core's real contexts against the sandbox is empty afterwards.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

import { KNOCK_HEADER } from '../../nodes/Fillout/catchUp/knock';
import { processMemory } from '../../nodes/Fillout/shared/processMemory';
import type { TriggerHarness } from '../harness';
import { startTrigger } from '../harness/triggers';
import { pollingTrigger, submit } from '../polling/support';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	forgetRememberedRecords,
	n8nLogger,
	slots,
	useTriggerSandbox,
} from './support';

const ROOT = join(__dirname, '..', '..');
const MEMORY_FILE = 'nodes/Fillout/shared/processMemory.ts';

/** Module-level state outside the memory module that is not the triggers' to forget. */
const NOT_TRIGGER_MEMORY: Record<string, string> = {
	pacings: "the request pacer per credential: transport's, shared by every node",
	formatters: 'Intl date formatters by time zone: a memo that is never stale',
	wakersOf: "the waits on each execution's cancel signal: transport's, held weakly by the signal",
	formsRead:
		"the forms an answer filter read in one execution: held weakly by the execution's context",
};

function sourcesUnder(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sourcesUnder(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

/** A `new` that makes state: not a constant table (`new Set([...])`) nor a pattern. */
function makesState(node: ts.Node): boolean {
	if (ts.isFunctionLike(node)) return false;
	if (ts.isNewExpression(node)) {
		const name = node.expression.getText();
		const table = (name === 'Set' || name === 'Map') && node.arguments?.[0] !== undefined;
		const constant =
			name === 'RegExp' || (table && ts.isArrayLiteralExpression(node.arguments![0]));
		if (!constant) return true;
	}
	return ts.forEachChild(node, makesState) ?? false;
}

/** An empty `{}` or `[]` to fill later (`as` and `satisfies` looked through). */
function isEmptyContainer(node: ts.Expression): boolean {
	if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
		return isEmptyContainer(node.expression);
	}
	if (ts.isObjectLiteralExpression(node)) return node.properties.length === 0;
	return ts.isArrayLiteralExpression(node) && node.elements.length === 0;
}

/** `file: name` of each module-level `let`/`var`, or const that holds a cache. */
function moduleState(path: string): string[] {
	const text = readFileSync(path, 'utf8');
	const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	for (const statement of file.statements) {
		if (!ts.isVariableStatement(statement)) continue;
		const constant = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
		for (const declaration of statement.declarationList.declarations) {
			const init = declaration.initializer;
			if (!constant || (init !== undefined && (makesState(init) || isEmptyContainer(init)))) {
				found.push(`${relative(ROOT, path)}: ${declaration.name.getText()}`);
			}
		}
	}
	return found;
}

describe('the process memory', () => {
	it('is the only module-level state of nodes/ besides what is not the triggers’', () => {
		const found = sourcesUnder(join(ROOT, 'nodes'))
			.filter((path) => relative(ROOT, path) !== MEMORY_FILE)
			.flatMap(moduleState)
			.filter((entry) => !(entry.split(': ')[1] in NOT_TRIGGER_MEMORY));
		expect(found).toEqual([]);
	});

	it('sees the caches of the memory module itself (the scan finds state)', () => {
		const path = join(ROOT, MEMORY_FILE);
		expect(moduleState(path)).toEqual([`${MEMORY_FILE}: processMemory`]);
	});
});

describe('what one process remembers', () => {
	const env = useTriggerSandbox();
	let h: Harness;
	let instanceUrl: string;
	beforeAll(() => ({ h, instanceUrl } = env));

	const delivery = (formId: string, submissionId: string) => ({
		formId,
		formName: 'Test form',
		submission: { submissionId, questions: [] },
	});

	async function published(formId: string): Promise<TriggerHarness> {
		const trigger = filloutTrigger(h, formId, instanceUrl);
		await trigger.activate();
		return trigger;
	}

	const sizes = () =>
		Object.fromEntries(Object.entries(processMemory).map(([name, cache]) => [name, cache.size]));

	it('empties every cache both triggers filled, as a restarted process', async () => {
		forgetProcessMemory();
		// A delivery after another node's static data replaced the record: its loss is logged.
		const lostForm = await freshForm(h.control);
		const lost = await published(lostForm);
		const lostSecret = slots(lost).production!.secret;
		lost.staticData = { global: { count: 1 } };
		forgetRememberedRecords();
		await lost.receive({ query: { secret: lostSecret }, body: delivery(lostForm, 'l1') });
		// A published trigger and a delivery: its record, derived keys and the submission.
		const formId = await freshForm(h.control);
		const trigger = await published(formId);
		const query = { secret: slots(trigger).production!.secret };
		expect((await trigger.receive({ query, body: delivery(formId, 's1') })).items).toHaveLength(1);
		expect((await trigger.receive({ query, body: delivery(formId, 's1') })).items).toHaveLength(0);
		// A refused delivery: its log's throttle.
		jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
		const refused = await trigger.receive({ query: { secret: 'x' }, body: delivery(formId, 's2') });
		expect(refused.res.statusCode).toBe(401);
		// Catch-up: its record (the trigger started), a check (a knock), a removal's stop mark.
		const catchUp = await startTrigger(trigger, 'activate');
		await trigger.receive({ query, headers: { [KNOCK_HEADER]: '1' }, body: {} });
		const removedForm = await freshForm(h.control);
		await (await published(removedForm)).deactivate();
		await catchUp.close();
		// The polling trigger: its cursor, and a warning of a future-dated submission.
		const pollForm = await freshForm(h.control);
		await submit(h.sandbox, pollForm, {
			submissionTime: new Date(Date.now() + 3_600_000).toISOString(),
		});
		await pollingTrigger(h.sandbox, pollForm).activate();

		const filled = sizes();
		expect(Object.keys(filled).filter((name) => filled[name] === 0)).toEqual([]);

		forgetProcessMemory();

		const after = sizes();
		expect(Object.keys(after).filter((name) => after[name] !== 0)).toEqual([]);
		// A restarted process has never seen the submission: it starts the workflow again.
		expect((await trigger.receive({ query, body: delivery(formId, 's1') })).items).toHaveLength(1);
	});

	it('logs a lost record as an error again once the record was seen in between', async () => {
		forgetProcessMemory();
		const formId = await freshForm(h.control);
		const trigger = filloutTrigger(h, formId, instanceUrl);
		const error = jest.spyOn(n8nLogger(), 'error');
		const lostErrors = () =>
			error.mock.calls.filter(([message]) => String(message).includes('lost the record')).length;
		for (const [round, submissionId] of [
			[1, 'a'],
			[2, 'b'],
		] as const) {
			await trigger.activate(); // registers, and this process remembers the record
			const secret = slots(trigger).production!.secret;
			trigger.staticData = { global: { count: round } };
			processMemory.webhookRecords.clear(); // a process without the copy; it has logged before
			await trigger.receive({ query: { secret }, body: delivery(formId, `${submissionId}1`) });
			await trigger.receive({ query: { secret }, body: delivery(formId, `${submissionId}2`) });
			expect(lostErrors()).toBe(round);
		}
	});

	it('keeps recent submissions per form: the same id for another form starts the workflow', async () => {
		const [formA, formB] = [await freshForm(h.control), await freshForm(h.control)];
		// One trigger node whose form changes: the same workflow, node and slot.
		const options = { workflowId: 'workflow-form-change' };
		const a = filloutTrigger(h, formA, instanceUrl, options);
		const b = filloutTrigger(h, formB, instanceUrl, options);
		await a.activate();
		await b.activate();
		const to = (trigger: TriggerHarness, formId: string) =>
			trigger.receive({
				query: { secret: slots(trigger).production!.secret },
				body: delivery(formId, 'same-id'),
			});

		expect((await to(a, formA)).items).toHaveLength(1);
		expect((await to(b, formB)).items).toHaveLength(1);
		expect((await to(b, formB)).items).toHaveLength(0);
	});
});
