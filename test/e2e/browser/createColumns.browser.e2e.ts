/**
 * What the n8n editor (2.41.1, headless Chromium) saves in the Create operation's
 * "Answers" parameter, the resource mapper `columns`. The node's run time reads
 * `columns.schema`, so the columns getQuestionColumns offers must be saved there, one per
 * question with its id, displayName "<name> (<Fillout type>)", n8n type and options, in
 * both mapping modes. DatePicker and DateTimePicker share the n8n type `dateTime` (and
 * here the question name): only the displayName tells them apart.
 *
 * n8n 2.41 saves a workflow by itself 1.5 s after a change and ignores Ctrl+S while the
 * node's details view is open; the tests save with Ctrl+S on the canvas or let the
 * autosave come, and wait for the editor's save request either way (nextWorkflowSave).
 */
import { createApiKeyCredential } from '../lib/credentials';
import type { WorkflowDefinition } from '../lib/n8nClient';
import type { QuestionSpec } from '../lib/sandbox';
import { actionWorkflow, formById, NODE_NAMES, type CredentialRef } from '../lib/workflows';
import { connectE2e, unique, type E2eContext } from '../support';
import { launchChromium, type HeadlessBrowser } from './chromium';
import {
	closeNode,
	dismissPopups,
	fillResourceLocator,
	nextWorkflowSave,
	openNode,
	openWorkflow,
	pickFromDropdown,
	useSession,
} from './editor';

const QUESTIONS: QuestionSpec[] = [
	{ id: 'fullName', name: 'Full name', type: 'ShortAnswer' },
	{ id: 'arrivalDay', name: 'Arrival', type: 'DatePicker' },
	{ id: 'arrivalTime', name: 'Arrival', type: 'DateTimePicker' },
	{
		id: 'ticket',
		name: 'Ticket',
		type: 'Dropdown',
		options: [
			{ value: 'tier-vip', label: 'VIP' },
			{ value: 'tier-std', label: 'Standard' },
		],
	},
	{ id: 'seats', name: 'Seats', type: 'NumberInput' },
];

/** The schema entries expected for QUESTIONS (written out, not computed by the node's code). */
const SCHEMA = [
	{ id: 'fullName', displayName: 'Full name (ShortAnswer)', type: 'string' },
	{ id: 'arrivalDay', displayName: 'Arrival (DatePicker)', type: 'dateTime' },
	{ id: 'arrivalTime', displayName: 'Arrival (DateTimePicker)', type: 'dateTime' },
	{
		id: 'ticket',
		displayName: 'Ticket (Dropdown)',
		type: 'options',
		options: [
			{ name: 'VIP', value: 'tier-vip' },
			{ name: 'Standard', value: 'tier-std' },
		],
	},
	{ id: 'seats', displayName: 'Seats (NumberInput)', type: 'number' },
];

type MappingMode = 'defineBelow' | 'autoMapInputData';

interface SavedColumns {
	mappingMode?: string;
	schema?: Array<Record<string, unknown>>;
}

let e2e: E2eContext;
let browser: HeadlessBrowser;
let credential: CredentialRef;
let formId: string;

beforeAll(async () => {
	e2e = await connectE2e();
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

/** Manual Trigger → Fillout (Submission → Create) with the form chosen by ID. */
async function createWorkflow(name: string, columns?: Record<string, unknown>): Promise<string> {
	const parameters: Record<string, unknown> = {
		resource: 'submission',
		operation: 'create',
		form: formById(formId),
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

describe('Create: the Answers columns the editor saves', () => {
	it('Map Each Column Manually: opening the node saves one schema entry per question; Map Automatically keeps them', async () => {
		const { page } = browser;
		// As the node creator leaves it: Answers still at its default (no columns saved).
		const workflowId = await createWorkflow('Columns, manual then automatic');

		let saved = nextWorkflowSave(page, savedIn('defineBelow'));
		const ndv = await openFilloutNode(workflowId);
		const fields = ndv.locator('[data-test-id="mapping-fields-container"] label[for^="value["]');
		await fields.nth(SCHEMA.length - 1).waitFor();
		// The editor lists the questions by displayName (the two "Arrival" only by their
		// type); a label's first line is the name, then come the Fixed/Expression toggles.
		const labels = await fields.allInnerTexts();
		expect(labels.map((text) => text.split('\n')[0].trim())).toEqual(
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
		const ndv = await openFilloutNode(workflowId);
		// Nothing on screen shows the questions in this mode: the autosave carries the schema.
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
		await fillResourceLocator(ndv, 'form', other.id);
		// The NDV stays open (Ctrl+S would be ignored): the autosave, 1.5 s after the
		// last change, comes after the new form's columns are loaded.
		await saved;
		await expect(storedColumns(workflowId)).resolves.toEqual({
			mappingMode: 'autoMapInputData',
			schema: [{ id: 'email', displayName: 'Email (EmailInput)', type: 'string' }],
		});

		await e2e.n8n.deleteWorkflow(workflowId);
	});
});
