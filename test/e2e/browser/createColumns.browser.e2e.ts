/**
 * What the n8n editor (2.41.1, headless Chromium) saves in the Create operation's
 * "Answers" parameter, the resource mapper `columns`. The node's run time reads
 * `columns.schema`, so the columns getQuestionColumns offers must be saved there, one per
 * question with its id, displayName "<name> (<Fillout type>)", n8n type and options, in
 * both mapping modes. DatePicker and DateTimePicker share the n8n type `dateTime` (and
 * here the question name): only the displayName tells them apart.
 *
 * When the form's questions changed after the node was saved, the saved schema is stale.
 * On opening the node n8n 2.41.1 loads the questions again and compares them with the
 * saved ones (id, displayName, type, required, display and match flags; not a dropdown's
 * choices). Without more, it would only warn ("Questions are outdated. Refresh to see the
 * changes." / "Refresh to see the updated fields") until the user clicks Refresh; the
 * node sets `refreshStaleSchemaOnOpen`, so n8n replaces the schema at once and autosaves.
 * (Changed choices alone are not seen as stale: the node's run time reads the form when
 * an answer is none of the saved choices.)
 *
 * n8n 2.41 saves a workflow by itself 1.5 s after a change and ignores Ctrl+S while the
 * node's details view is open; the tests save with Ctrl+S on the canvas or let the
 * autosave come, and wait for the editor's save request either way (nextWorkflowSave).
 *
 * n8n 1.x (1.123) has neither: it ignores `refreshStaleSchemaOnOpen` and only warns
 * about a stale schema (a Refresh button beside "Answers", or a notice with one in Map
 * Automatically), and saves only when the user does. There the tests do what the user
 * does: click Refresh, go back to the canvas, press Ctrl+S; what is saved must be the same.
 */
import type { Locator, Page } from 'playwright-core';

import { createApiKeyCredential } from '../support/credentials';
import type { WorkflowDefinition } from '../support/n8nClient';
import type { QuestionSpec } from '../support/sandbox';
import {
	actionWorkflow,
	answersParameter,
	formById,
	NODE_NAMES,
	type CredentialRef,
} from '../support/workflows';
import { connectE2e, unique, type E2eContext } from '../support';
import { launchChromium, type HeadlessBrowser } from './support/chromium';
import {
	closeNode,
	dismissPopups,
	fillResourceLocator,
	nextWorkflowSave,
	openNode,
	openWorkflow,
	pickFromDropdown,
	useSession,
	workflowSavesWithin,
} from './support/editor';

/** A dropdown question, in both forms of these tests. */
const TICKET_QUESTION: QuestionSpec = {
	id: 'ticket',
	name: 'Ticket',
	type: 'Dropdown',
	options: [
		{ value: 'tier-vip', label: 'VIP' },
		{ value: 'tier-std', label: 'Standard' },
	],
};

/** The schema entry expected for TICKET_QUESTION. */
const TICKET_COLUMN = {
	id: 'ticket',
	displayName: 'Ticket (Dropdown)',
	type: 'options',
	options: [
		{ name: 'VIP', value: 'tier-vip' },
		{ name: 'Standard', value: 'tier-std' },
	],
};

const QUESTIONS: QuestionSpec[] = [
	{ id: 'fullName', name: 'Full name', type: 'ShortAnswer' },
	{ id: 'arrivalDay', name: 'Arrival', type: 'DatePicker' },
	{ id: 'arrivalTime', name: 'Arrival', type: 'DateTimePicker' },
	TICKET_QUESTION,
	{ id: 'seats', name: 'Seats', type: 'NumberInput' },
];

/** The schema entries expected for QUESTIONS (written out, not computed by the node's code). */
const SCHEMA = [
	{ id: 'fullName', displayName: 'Full name (ShortAnswer)', type: 'string' },
	{ id: 'arrivalDay', displayName: 'Arrival (DatePicker)', type: 'dateTime' },
	{ id: 'arrivalTime', displayName: 'Arrival (DateTimePicker)', type: 'dateTime' },
	TICKET_COLUMN,
	{ id: 'seats', displayName: 'Seats (NumberInput)', type: 'number' },
];

/**
 * A form as it is now, after its questions changed since a node was set up with it:
 * "Full name" renamed "Name", the Ticket dropdown's choice "Economy" replaced by
 * "Standard", a question "Email" added and one ("gone") removed.
 */
const CHANGED_QUESTIONS: QuestionSpec[] = [
	{ id: 'fullName', name: 'Name', type: 'ShortAnswer' },
	TICKET_QUESTION,
	{ id: 'email', name: 'Email', type: 'EmailInput' },
];

/** A schema entry as the editor first saves it (the field getQuestionColumns gives). */
function savedColumn(id: string, displayName: string, type: string, options?: unknown[]) {
	return {
		id,
		displayName,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type,
		...(options ? { options } : {}),
	};
}

/** The schema saved before the form changed (built by hand: the sandbox cannot edit a form). */
const STALE_SCHEMA = [
	savedColumn('fullName', 'Full name (ShortAnswer)', 'string'),
	savedColumn('ticket', 'Ticket (Dropdown)', 'options', [
		{ name: 'VIP', value: 'tier-vip' },
		// A choice the form no longer has: n8n does not compare choices, so alone this would
		// not be flagged as stale; a refresh replaces it with the rest.
		{ name: 'Economy', value: 'tier-eco' },
	]),
	savedColumn('gone', 'Old question (ShortAnswer)', 'string'),
];

/** The schema entries expected for CHANGED_QUESTIONS, in the form's order. */
const CHANGED_SCHEMA: Array<{
	id: string;
	displayName: string;
	type: string;
	options?: unknown[];
}> = [
	{ id: 'fullName', displayName: 'Name (ShortAnswer)', type: 'string' },
	TICKET_COLUMN,
	{ id: 'email', displayName: 'Email (EmailInput)', type: 'string' },
];

/** Longer than the editor's autosave delay (1.5 s): no save by then means none is coming. */
const NO_SAVE_WINDOW_MS = 3_000;

type MappingMode = 'defineBelow' | 'autoMapInputData';

interface SavedColumns {
	mappingMode?: string;
	value?: Record<string, unknown> | null;
	schema?: Array<Record<string, unknown>>;
}

let e2e: E2eContext;
let browser: HeadlessBrowser;
let credential: CredentialRef;
let formId: string;
/** n8n 1.x: no autosave and no refresh of a stale schema on opening (see above). */
let legacyEditor: boolean;

beforeAll(async () => {
	e2e = await connectE2e();
	legacyEditor = (await e2e.n8n.majorVersion()) < 2;
	credential = await createApiKeyCredential(
		e2e.n8n,
		unique('Fillout key (columns)'),
		e2e.demo.apiKeys[0],
		e2e.state.sandbox.origin,
	);
	formId = (await e2e.sandbox.createForm({ name: unique('Arrivals'), questions: QUESTIONS })).id;
	browser = await launchChromium();
	await useSession(browser.context, e2e.state.n8n.url, e2e.n8n.sessionCookie);
});

afterAll(async () => {
	await browser?.close();
});

function filloutParameters(workflow: WorkflowDefinition): Record<string, unknown> {
	const node = workflow.nodes.find((candidate) => candidate.name === NODE_NAMES.fillout);
	if (!node) throw new Error(`the workflow has no node "${NODE_NAMES.fillout}"`);
	return node.parameters;
}

function columnsOf(workflow: WorkflowDefinition): SavedColumns | undefined {
	return filloutParameters(workflow).columns as SavedColumns | undefined;
}

/** A save of the editor whose Answers are in the given mode (other saves are ignored). */
function savedIn(mode: MappingMode) {
	return (sent: WorkflowDefinition) => columnsOf(sent)?.mappingMode === mode;
}

/** The saved columns as n8n stores them: the mode, and per schema entry what the run time reads. */
async function storedColumns(workflowId: string) {
	const columns = columnsOf(await e2e.n8n.getWorkflow(workflowId));
	return {
		mappingMode: columns?.mappingMode,
		schema: columns?.schema?.map(({ id, displayName, type, options }) => ({
			id,
			displayName,
			type,
			options,
		})),
	};
}

/** Manual Trigger → Fillout (Submission → Create) with the form (default: QUESTIONS') chosen by ID. */
async function createWorkflow(
	name: string,
	columns?: Record<string, unknown>,
	form: string = formId,
): Promise<string> {
	const parameters: Record<string, unknown> = {
		resource: 'submission',
		operation: 'create',
		form: formById(form),
	};
	if (columns) parameters.columns = columns;
	return (
		await e2e.n8n.createWorkflow(actionWorkflow({ name: unique(name), credential, parameters }))
	).id;
}

async function openFilloutNode(workflowId: string) {
	await openWorkflow(browser.page, e2e.state.n8n.url, workflowId);
	await dismissPopups(browser.page);
	return await openNode(browser.page, NODE_NAMES.fillout);
}

/** The editor's next load of the Answers columns (of the given form, or any). */
function nextColumnsLoad(page: Page, form?: string): Promise<unknown> {
	const loaded = page.waitForResponse((response) => {
		if (new URL(response.url()).pathname !== '/rest/dynamic-node-parameters/resource-mapper-fields')
			return false;
		const sent = response.request().postDataJSON() as {
			currentNodeParameters?: { form?: { value?: string } };
		};
		return form === undefined || sent.currentNodeParameters?.form?.value === form;
	});
	loaded.catch(() => undefined);
	return loaded;
}

/**
 * n8n 2.x saves by itself; on n8n 1.x the user saves: once the columns are loaded (and
 * applied: a moment after n8n's answer), back to the canvas and Ctrl+S.
 */
async function saveByHandOnLegacyEditor(page: Page, columnsLoaded?: Promise<unknown>) {
	if (!legacyEditor) return;
	if (columnsLoaded) {
		await columnsLoaded;
		await page.waitForTimeout(500);
	}
	await closeNode(page);
	await page.keyboard.press('Control+s');
}

/**
 * n8n 1.x's answer to a stale schema: a Refresh button (beside "Answers", or in the
 * notice "Refresh to see the updated fields" in Map Automatically). Clicks it and waits
 * for the questions to be loaded again.
 */
async function refreshStaleColumnsByHand(page: Page, ndv: Locator, mode: MappingMode) {
	if (mode === 'autoMapInputData') {
		await ndv.getByText('Refresh to see the updated fields').waitFor();
	}
	const refresh = ndv.getByRole('button', { name: 'Refresh', exact: true }).first();
	await refresh.waitFor();
	const loaded = nextColumnsLoad(page);
	await refresh.click();
	await loaded;
	await refresh.waitFor({ state: 'detached' });
}

/**
 * The question fields "Map Each Column Manually" shows (at least `count`), by label: a
 * label's first line is the column's displayName, then come the Fixed/Expression toggles.
 */
async function answerLabels(ndv: Locator, count: number): Promise<string[]> {
	const fields = ndv.locator('[data-test-id="mapping-fields-container"] label[for^="value["]');
	await fields.nth(count - 1).waitFor();
	return (await fields.allInnerTexts()).map((text) => text.split('\n')[0].trim());
}

/**
 * The labels once they are `expected`, or as they are after 15 s: a refresh replaces
 * labels that are already there, so their number alone does not say it has happened.
 */
async function answerLabelsOnceRefreshed(ndv: Locator, expected: string[]): Promise<string[]> {
	let labels = await answerLabels(ndv, expected.length);
	for (
		let waited = 0;
		waited < 15_000 && labels.join('\n') !== expected.join('\n');
		waited += 250
	) {
		await ndv.page().waitForTimeout(250);
		labels = await answerLabels(ndv, expected.length);
	}
	return labels;
}

describe('Create: the Answers columns the editor saves', () => {
	it('Map Each Column Manually: opening the node saves one schema entry per question; Map Automatically keeps them', async () => {
		const { page } = browser;
		// As the node creator leaves it: Answers still at its default (no columns saved).
		const workflowId = await createWorkflow('Columns, manual then automatic');

		let saved = nextWorkflowSave(page, savedIn('defineBelow'));
		const ndv = await openFilloutNode(workflowId);
		// The editor lists the questions by displayName (the two "Arrival" only by their type).
		await expect(answerLabels(ndv, SCHEMA.length)).resolves.toEqual(
			SCHEMA.map((field) => field.displayName),
		);
		await closeNode(page);
		await page.keyboard.press('Control+s');
		await saved;
		await expect(storedColumns(workflowId)).resolves.toEqual({
			mappingMode: 'defineBelow',
			schema: SCHEMA,
		});

		saved = nextWorkflowSave(page, savedIn('autoMapInputData'));
		await openNode(page, NODE_NAMES.fillout);
		await pickFromDropdown(
			page,
			ndv.locator('[data-test-id="mapping-mode-select"]'),
			'Map Automatically',
		);
		// The question fields go away in this mode; the schema must not.
		await ndv.locator('[data-test-id="mapping-fields-container"]').waitFor({ state: 'detached' });
		await closeNode(page);
		await page.keyboard.press('Control+s');
		await saved;
		await expect(storedColumns(workflowId)).resolves.toEqual({
			mappingMode: 'autoMapInputData',
			schema: SCHEMA,
		});

		await e2e.n8n.deleteWorkflow(workflowId);
	});

	it('Map Automatically from the start: opening the node saves the schema, picking another form replaces it', async () => {
		const { page } = browser;
		// Saved in this mode without a schema (e.g. through the API or an imported file).
		const workflowId = await createWorkflow('Columns, automatic', {
			mappingMode: 'autoMapInputData',
			value: null,
		});

		let saved = nextWorkflowSave(page, savedIn('autoMapInputData'));
		let loaded = nextColumnsLoad(page);
		const ndv = await openFilloutNode(workflowId);
		// Nothing on screen shows the questions in this mode: the autosave carries the schema.
		await saveByHandOnLegacyEditor(page, loaded);
		await saved;
		await expect(storedColumns(workflowId)).resolves.toEqual({
			mappingMode: 'autoMapInputData',
			schema: SCHEMA,
		});

		const other = await e2e.sandbox.createForm({
			name: unique('Newsletter'),
			questions: [{ id: 'email', name: 'Email', type: 'EmailInput' }],
		});
		saved = nextWorkflowSave(
			page,
			(sent) =>
				(filloutParameters(sent).form as { value?: string } | undefined)?.value === other.id,
		);
		if (legacyEditor) await openNode(page, NODE_NAMES.fillout);
		loaded = nextColumnsLoad(page, other.id);
		await fillResourceLocator(ndv, 'form', other.id);
		// The NDV stays open (Ctrl+S would be ignored): the autosave, 1.5 s after the
		// last change, comes after the new form's columns are loaded.
		await saveByHandOnLegacyEditor(page, loaded);
		await saved;
		await expect(storedColumns(workflowId)).resolves.toEqual({
			mappingMode: 'autoMapInputData',
			schema: [{ id: 'email', displayName: 'Email (EmailInput)', type: 'string' }],
		});

		await e2e.n8n.deleteWorkflow(workflowId);
	});
});

describe('Create: Answers saved before the form changed (stale schema)', () => {
	let changedFormId: string;

	beforeAll(async () => {
		changedFormId = (
			await e2e.sandbox.createForm({ name: unique('Guests'), questions: CHANGED_QUESTIONS })
		).id;
	});

	/** A save whose schema no longer has the removed question: the one a refresh makes. */
	function savedRefreshed(sent: WorkflowDefinition): boolean {
		return !columnsOf(sent)?.schema?.some((column) => column.id === 'gone');
	}

	it.each([
		{
			mode: 'defineBelow' as const,
			label: 'Map Each Column Manually',
			columns: answersParameter(STALE_SCHEMA, {
				mappingMode: 'defineBelow',
				value: { fullName: '={{ $json.name }}', ticket: 'tier-vip', gone: 'old answer' },
			}),
		},
		{
			mode: 'autoMapInputData' as const,
			label: 'Map Automatically',
			columns: answersParameter(STALE_SCHEMA, { mappingMode: 'autoMapInputData' }),
		},
	])(
		'$label: opening the node loads the form’s current questions and the autosave replaces the stale schema, no click needed',
		async ({ mode, label, columns }) => {
			const { page } = browser;
			const workflowId = await createWorkflow(`Stale columns, ${label}`, columns, changedFormId);

			// The node sets refreshStaleSchemaOnOpen: n8n 2.x refreshes instead of only
			// warning; n8n 1.x only warns, and the user clicks Refresh.
			const saved = nextWorkflowSave(page, savedRefreshed);
			const ndv = await openFilloutNode(workflowId);
			if (legacyEditor) await refreshStaleColumnsByHand(page, ndv, mode);
			if (mode === 'defineBelow') {
				const expected = CHANGED_SCHEMA.map((field) => field.displayName);
				await expect(answerLabelsOnceRefreshed(ndv, expected)).resolves.toEqual(expected);
			}
			// No "outdated" warning is left to act on.
			await expect(ndv.getByText('Refresh to see', { exact: false }).count()).resolves.toBe(0);
			await saveByHandOnLegacyEditor(page);
			await saved;
			await expect(storedColumns(workflowId)).resolves.toEqual({
				mappingMode: mode,
				schema: CHANGED_SCHEMA,
			});
			if (mode === 'defineBelow') {
				// Values stay with their question ids; the removed question's value goes.
				const { value } = columnsOf(await e2e.n8n.getWorkflow(workflowId)) ?? {};
				expect(value).toEqual({ fullName: '={{ $json.name }}', ticket: 'tier-vip' });
			}

			await e2e.n8n.deleteWorkflow(workflowId);
		},
	);

	it('an up-to-date schema: opening the node saves nothing', async () => {
		const { page } = browser;
		const current = answersParameter(
			CHANGED_SCHEMA.map(({ id, displayName, type, options }) =>
				savedColumn(id, displayName, type, options),
			),
			{ mappingMode: 'autoMapInputData' },
		);
		const workflowId = await createWorkflow('Current columns', current, changedFormId);

		await openFilloutNode(workflowId);
		await expect(workflowSavesWithin(page, NO_SAVE_WINDOW_MS)).resolves.toEqual([]);
		await expect(e2e.n8n.getWorkflow(workflowId).then(columnsOf)).resolves.toEqual(current);

		await e2e.n8n.deleteWorkflow(workflowId);
	});
});
