/* eslint-disable @n8n/community-nodes/no-restricted-imports -- dev script: reads the example workflow files (node:fs/path/crypto) */
/**
 * The example workflows in examples/*.json, as users import them (credentials named,
 * form id a placeholder), and the same made ready for one n8n and one Fillout account:
 * the placeholder replaced by a form id, the credentials' ids filled in by name.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { WorkflowDefinition } from '../test/e2e/support/n8nClient';
import { NODE_TYPES, REPO_ROOT } from '../test/e2e/support/paths';
import type { QuestionSpec } from '../test/e2e/support/sandbox';
import { SANDBOX_FILE_OPTIONS } from '../sandbox/files';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

/** The form id the files carry; the user picks the form in the node. */
export const FORM_PLACEHOLDER = 'YOUR_FORM_ID';

/** The credentials the files refer to, by name. */
export const EXAMPLE_CREDENTIALS = {
	filloutFormsApi: 'Fillout account',
	filloutFormsOAuth2Api: 'Fillout OAuth2 account',
} as const;

export const EXAMPLES = {
	/** Fillout Trigger → Set. */
	trigger: 'new-submission-trigger.json',
	/** Schedule Trigger → Fillout (Submission, Get Many, Return All) → Convert to File. */
	export: 'scheduled-export.json',
	/** Manual Trigger → Code (rows) → Fillout (Submission, Create, mapped answers). */
	import: 'bulk-import.json',
	/** Fillout Polling Trigger (every 5 minutes) → Set. */
	polling: 'polled-submissions.json',
	/** Manual Trigger → Fillout (Get Many, Download Files) → Split Out → Read/Write Files. */
	files: 'submission-files-to-folder.json',
	/** Fillout Trigger (Download Files) → Split Out (Include Binary) → Filter → Google Drive. */
	drive: 'submission-files-to-google-drive.json',
} as const;

export type ExampleKey = keyof typeof EXAMPLES;

/** The question ids the bulk import maps (the playground's "Event signups" form has them). */
export const IMPORT_QUESTIONS: QuestionSpec[] = [
	{ id: 'name', name: 'Name', type: 'ShortAnswer' },
	{ id: 'email', name: 'Email', type: 'EmailInput' },
	{
		id: 'ticket',
		name: 'Ticket',
		type: 'MultipleChoice',
		options: ['Standard', 'VIP'],
	},
	{ id: 'comments', name: 'Comments', type: 'LongAnswer' },
];

/** The file's path. */
export function examplePath(key: ExampleKey): string {
	return join(EXAMPLES_DIR, EXAMPLES[key]);
}

export function readExample(key: ExampleKey): WorkflowDefinition {
	return JSON.parse(readFileSync(examplePath(key), 'utf8')) as WorkflowDefinition;
}

/** The nodes of the package in a workflow (action and both triggers). */
export function filloutNodes(workflow: WorkflowDefinition) {
	return workflow.nodes.filter((node) =>
		[NODE_TYPES.action, NODE_TYPES.trigger, NODE_TYPES.pollingTrigger].includes(node.type as never),
	);
}

export interface ExampleTarget {
	formId: string;
	/** Saved credentials by type; each node's reference (by name) gets the id. */
	credentials: Partial<Record<keyof typeof EXAMPLE_CREDENTIALS, { id: string; name: string }>>;
}

/**
 * A copy ready to create through the REST API: the form placeholder replaced, the
 * credential ids filled in (matched by type and name, as the editor's import does), and
 * a webhook id for the trigger (the editor gives one on import).
 */
export function prepareExample(
	workflow: WorkflowDefinition,
	target: ExampleTarget,
): WorkflowDefinition {
	const copy = JSON.parse(JSON.stringify(workflow)) as WorkflowDefinition;
	for (const node of filloutNodes(copy)) {
		const form = node.parameters.form as { value?: string } | undefined;
		if (form?.value === FORM_PLACEHOLDER) form.value = target.formId;
		for (const [type, reference] of Object.entries(node.credentials ?? {})) {
			const saved = target.credentials[type as keyof typeof EXAMPLE_CREDENTIALS];
			if (!saved || saved.name !== reference.name) {
				throw new Error(
					`${node.name} in "${workflow.name}" needs a ${type} credential named "${reference.name}"`,
				);
			}
			node.credentials![type] = { id: saved.id, name: saved.name };
		}
		if (node.type === NODE_TYPES.trigger && !node.webhookId) node.webhookId = randomUUID();
		// The sandbox serves files from 127.0.0.1 / localhost, refused unless allowed.
		if (node.parameters.downloadFiles === true)
			node.parameters.fileOptions = {
				...(node.parameters.fileOptions as object),
				...SANDBOX_FILE_OPTIONS,
			};
	}
	return copy;
}
