/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: removes the folder n8n wrote the files to (node:fs) */
/**
 * The example workflows in examples/*.json. Imported in the editor (headless Chromium,
 * Import → From file) they must find their credential by name and keep the package's
 * node types; made ready for a form (scripts/examples.ts, as the playground does) they
 * must run: the bulk import creates the rows' submissions, the export reads them all
 * into a CSV file, the trigger turns a respondent into an execution, and the Google
 * Drive one hands each downloaded file to its upload step (Google Drive cannot be
 * reached here: a Read/Write Files node with the Drive node's own field name and file
 * name stands in for it, so what the file is checked on is what Drive would get).
 */
import { rmSync } from 'node:fs';

import {
	EXAMPLE_CREDENTIALS,
	EXAMPLES,
	examplePath,
	FORM_PLACEHOLDER,
	IMPORT_QUESTIONS,
	filloutNodes,
	prepareExample,
	readExample,
	type ExampleKey,
	type ExampleTarget,
} from '../../../scripts/examples';
import { fileOriginFor } from '../../../sandbox/files';
import { createApiKeyCredential } from '../support/credentials';
import { directHash, FILE_QUESTIONS, writableFolder, writtenHashes } from '../support/files';
import type { Execution, WorkflowDefinition } from '../support/n8nClient';
import { NODE_TYPES } from '../support/paths';
import { loadAnswerColumns, type CredentialRef } from '../support/workflows';
import { waitFor } from '../support/processes';
import { connectE2e, unique, type E2eContext } from '../support';
import { launchChromium, type HeadlessBrowser } from './support/chromium';
import { importWorkflowFile, useSession } from './support/editor';

let e2e: E2eContext;
let browser: HeadlessBrowser;
let target: ExampleTarget;
let namedCredential: CredentialRef;

beforeAll(async () => {
	// Compiling this file can block the event loop past n8n's keep-alive (5 s): the global
	// setup's idle socket is then closed under the first request ("other side closed").
	e2e = await connectE2e().catch(async () => await connectE2e());
	// The name the files refer to, then a newer one of the same type: the editor must
	// pick by name, not the most recent credential.
	namedCredential = await createApiKeyCredential(
		e2e.n8n,
		EXAMPLE_CREDENTIALS.filloutFormsApi,
		e2e.demo.apiKeys[0],
		e2e.state.sandbox.origin,
	);
	await createApiKeyCredential(
		e2e.n8n,
		unique('Another Fillout key'),
		e2e.demo.apiKeys[0],
		e2e.state.sandbox.origin,
	);
	const form = await e2e.sandbox.createForm({
		name: unique('Event signups'),
		questions: IMPORT_QUESTIONS,
	});
	target = { formId: form.id, credentials: { filloutFormsApi: namedCredential } };
	browser = await launchChromium();
	// The suite's session (n8n allows 5 logins a minute; the OAuth2 test signs in through the form).
	await useSession(browser.context, e2e.state.n8n.url, e2e.n8n.sessionCookie);
});

afterAll(async () => {
	await browser?.close();
});

function succeeded(execution: Execution): Execution {
	if (execution.status !== 'success') {
		throw new Error(
			`execution ${execution.id} ended "${execution.status}": ${JSON.stringify(execution.error ?? {}).slice(0, 1500)}`,
		);
	}
	return execution;
}

describe('example workflows imported in the editor', () => {
	it.each(Object.keys(EXAMPLES) as ExampleKey[])(
		'%s: Import → From file keeps the package’s nodes and links the credential named in the file',
		async (key) => {
			const file = readExample(key);
			const id = await importWorkflowFile(browser.page, e2e.state.n8n.url, examplePath(key));
			const saved = await e2e.n8n.getWorkflow(id);
			expect(saved.name).toBe(file.name);
			expect(saved.nodes.map((node) => [node.name, node.type])).toEqual(
				file.nodes.map((node) => [node.name, node.type]),
			);
			const fillout = filloutNodes(saved);
			expect(fillout.length).toBeGreaterThan(0);
			for (const node of fillout) {
				const { id: credentialId, name } = target.credentials.filloutFormsApi!;
				expect(node.credentials).toEqual({ filloutFormsApi: { id: credentialId, name } });
				expect(node.parameters.form).toMatchObject({ value: FORM_PLACEHOLDER });
				if (node.type === NODE_TYPES.trigger) expect(node.webhookId).toMatch(/^[0-9a-f-]{36}$/);
			}
			await e2e.n8n.deleteWorkflow(id);
		},
	);
});

describe('example workflows run against the sandbox', () => {
	it('bulk import: the Answers columns in the file are what the editor loads for the form', async () => {
		const [create] = filloutNodes(readExample('import'));
		const saved = (create.parameters.columns as { schema: unknown[] }).schema;
		expect(saved).toEqual(await loadAnswerColumns(e2e.n8n, namedCredential, target.formId));
	});

	it('bulk import: one submission per row, answers mapped to the form’s questions', async () => {
		const workflow = prepareExample(readExample('import'), target);
		const execution = succeeded(await e2e.n8n.runOnce(workflow, { triggerName: 'Start import' }));
		const rows = execution.items('Rows to import');
		const created = execution.items('Create Submissions');
		expect(rows).toHaveLength(5);
		expect(created).toHaveLength(rows.length);

		const stored = await e2e.checkDemo.allSubmissions(target.formId);
		expect(stored).toHaveLength(rows.length);
		const answersOf = (submission: (typeof stored)[number]) =>
			Object.fromEntries(submission.questions.map((question) => [question.id, question.value]));
		expect(stored.map(answersOf)).toEqual(
			expect.arrayContaining(
				rows.map((row) => ({
					name: row.fullName,
					email: row.email,
					ticket: row.ticket,
					comments: row.note === '' ? null : row.note,
				})),
			),
		);
	});

	it('scheduled export: every submission of the form, in one CSV file', async () => {
		await e2e.sandbox.generate(target.formId, { count: 160 });
		const expected = await e2e.checkDemo.allSubmissions(target.formId);
		expect(expected.length).toBeGreaterThan(150); // more than one page

		const workflow = prepareExample(readExample('export'), target);
		const execution = succeeded(
			await e2e.n8n.runOnce(workflow, {
				triggerName: 'Every morning',
				timeoutMs: 120_000,
			}),
		);
		const items = execution.items('Get All Submissions');
		expect(items.map((item) => item.submissionId).sort()).toEqual(
			expected.map((submission) => submission.submissionId).sort(),
		);
		const [file] = execution.rawItems('To CSV') as Array<{
			binary?: Record<string, { fileName?: string; mimeType?: string }>;
		}>;
		expect(file.binary?.data?.fileName).toMatch(/^fillout-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
		expect(file.binary?.data?.mimeType).toBe('text/csv');
	});

	const webhookCount = async () => (await e2e.sandbox.webhooksOf(target.formId)).length;

	it('new submission trigger: published, a respondent becomes one item with the answers', async () => {
		const workflow = prepareExample(readExample('trigger'), target);
		const created = await e2e.n8n.createWorkflow(workflow);
		try {
			await e2e.n8n.activateWorkflow(created.id);
			// Activation registers the webhook partly in the background.
			await waitFor(async () => (await webhookCount()) === 1, {
				description: 'the trigger’s webhook at the sandbox',
			});

			const response = await e2e.sandbox.respond(target.formId, {
				answers: { name: 'Playground Respondent', ticket: 'VIP' },
			});
			expect(response.deliveries.map((delivery) => delivery.statusCode)).toEqual([200]);
			const [summary] = await e2e.n8n.waitForExecutions(created.id, 1);
			const execution = succeeded((await e2e.n8n.waitForExecution(summary.id)) as Execution);
			const [item] = execution.items('Shape the item');
			expect(item).toMatchObject({
				submissionId: response.submission.submissionId,
				Name: 'Playground Respondent',
				Ticket: 'VIP',
				form: target.formId,
			});
			expect(typeof item.receivedAt).toBe('string');
		} finally {
			await e2e.n8n.deactivateWorkflow(created.id);
			// n8n answers 409 while the unpublishing is still under way.
			await waitFor(async () => {
				await e2e.n8n.deleteWorkflow(created.id);
				return true;
			});
		}
		await waitFor(async () => (await webhookCount()) === 0, {
			description: 'the trigger’s webhook to be removed',
		});
	});

	/** The example with its Google Drive node replaced by a Read/Write Files node writing into `dir`. */
	function driveStandIn(workflow: WorkflowDefinition, dir: string): WorkflowDefinition {
		const drive = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.googleDrive');
		if (!drive) throw new Error('the Google Drive example has no Google Drive node');
		const { name, inputDataFieldName } = drive.parameters as Record<string, string>;
		expect(name.startsWith('=')).toBe(true);
		Object.assign(drive, {
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1,
			credentials: undefined,
			parameters: {
				operation: 'write',
				fileName: `=${dir}/${name.slice(1)}`,
				dataPropertyName: inputDataFieldName,
				options: {},
			},
		});
		return workflow;
	}

	it('files to Google Drive: published, each downloaded file of a delivery reaches the upload, a failed one is left out', async () => {
		const formId = (
			await e2e.sandbox.createForm({ name: unique('Drive files'), questions: FILE_QUESTIONS })
		).id;
		const dir = writableFolder('drive-example');
		const workflow = driveStandIn(prepareExample(readExample('drive'), { ...target, formId }), dir);
		const created = await e2e.n8n.createWorkflow(workflow);
		try {
			await e2e.n8n.activateWorkflow(created.id);
			await waitFor(async () => (await e2e.sandbox.webhooksOf(formId)).length === 1, {
				description: 'the trigger’s webhook at the sandbox',
			});
			const files = fileOriginFor(e2e.state.sandbox.origin);
			const good = {
				'cv.pdf': `${files}/files/d1a/cv.pdf?size=300000`,
				'letter.docx': `${files}/files/d1b/letter.docx?chunked=1`,
				'signature.png': `${files}/files/d1c/signature.png`,
			};
			const { submission, deliveries } = await e2e.sandbox.respond(formId, {
				answers: {
					qName: 'Ana',
					qCv: [
						{ url: good['cv.pdf'], filename: 'cv.pdf' },
						{ url: `${files}/files/missing/lost.pdf`, filename: 'lost.pdf' },
						{ url: good['letter.docx'], filename: 'letter.docx' },
					],
					qSig: good['signature.png'],
				},
				fillUnanswered: false,
				submission: { documents: [] },
			});
			expect(deliveries.map((delivery) => delivery.statusCode)).toEqual([200]);
			const [summary] = await e2e.n8n.waitForExecutions(created.id, 1, 60_000);
			const execution = succeeded((await e2e.n8n.waitForExecution(summary.id)) as Execution);

			// Four files listed, one of them failed: the filter leaves three for the upload.
			const split = execution.items('One Item per File') as Array<{ files: { error?: string } }>;
			expect(split.map((item) => typeof item.files.error)).toEqual([
				'undefined',
				'string',
				'undefined',
				'undefined',
			]);
			expect(execution.items('Upload to Google Drive')).toHaveLength(3);
			const expected: Record<string, string> = {};
			for (const [fileName, url] of Object.entries(good))
				expected[`${submission.submissionId}-${fileName}`] = await directHash(url);
			expect(writtenHashes(dir)).toEqual(expected);
		} finally {
			await e2e.n8n.deactivateWorkflow(created.id);
			await waitFor(async () => {
				await e2e.n8n.deleteWorkflow(created.id);
				return true;
			});
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
