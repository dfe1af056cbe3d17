/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the files n8n wrote with node:fs */
/**
 * Download Files in a real n8n: the example workflow (Get Many with Download Files →
 * Split Out → Read/Write Files) writes every file of a form's submissions to disk, and
 * the Fillout Trigger with Download Files does the same for a real delivery, and the
 * Fillout Polling Trigger for a submission it backfills when published. The files
 * on disk must hash like the sandbox's originals, and no file request may carry a
 * credential.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { EXAMPLES_DIR, FORM_PLACEHOLDER } from '../../scripts/examples';
import { fileOriginFor } from '../../sandbox/files';
import { createApiKeyCredential } from './lib/credentials';
import type { NodeDefinition, WorkflowDefinition } from './lib/n8nClient';
import { NODE_TYPES } from './lib/paths';
import { sleep } from './lib/processes';
import { http } from '../support/http';
import { credentialsOf, formById, type CredentialRef } from './lib/workflows';
import { connectE2e, unique, type E2eContext } from './support';

const QUESTIONS = [
	{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
	{ id: 'qCv', name: 'Résumé', type: 'FileUpload' },
	{ id: 'qSig', name: 'Signature', type: 'Signature' },
];

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let e2e: E2eContext;
let credential: CredentialRef;
let folder: string;
let files: string;

beforeAll(async () => {
	e2e = await connectE2e();
	// Not the examples' "Fillout account": two credentials of that name would leave the
	// editor unable to link an imported example to one (browser/examples.browser.e2e.ts).
	credential = await createApiKeyCredential(
		e2e.n8n,
		unique('Fillout files key'),
		e2e.demo.apiKeys[0],
		e2e.state.sandbox.origin,
	);
	// n8n 2.x writes only under N8N_RESTRICT_FILE_ACCESS_TO, by default ~/.n8n-files.
	folder = join(homedir(), '.n8n-files', unique('fillout-files').replace(/\W+/g, '-'));
	mkdirSync(folder, { recursive: true });
	files = fileOriginFor(e2e.state.sandbox.origin);
	await http('POST', `${e2e.state.sandbox.origin}/_sandbox/files/reset`);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The sandbox's file log: every file request, and any that carried a credential. */
async function fileLog(): Promise<{ requests: number; withAuthorization: unknown[] }> {
	return (await http('GET', `${e2e.state.sandbox.origin}/_sandbox/files`)).body as never;
}

/** The files n8n wrote to `dir`, by name, as hashes. */
function writtenHashes(dir: string): Record<string, string> {
	return Object.fromEntries(
		readdirSync(dir).map((name) => [name, sha256(readFileSync(join(dir, name)))]),
	);
}

async function directHash(url: string): Promise<string> {
	const response = await fetch(url);
	expect(response.status).toBe(200);
	return sha256(Buffer.from(await response.arrayBuffer()));
}

/** A submission with two uploads and a signature; returns its id and the file addresses by name. */
async function submitFiles(formId: string, tag: string) {
	const urls = {
		'cv.pdf': `${files}/files/${tag}a/cv.pdf?size=1500000`,
		'letter.docx': `${files}/files/${tag}b/letter.docx?chunked=1`,
		'signature.png': `${files}/files/${tag}c/signature.png`,
	};
	const { submission } = await e2e.sandbox.respond(formId, {
		answers: {
			qName: 'Ana',
			qCv: [
				{ url: urls['cv.pdf'], filename: 'cv.pdf' },
				{ url: urls['letter.docx'], filename: 'letter.docx' },
			],
			qSig: urls['signature.png'],
		},
		fillUnanswered: false,
		submission: { documents: [] },
	});
	return { submissionId: submission.submissionId, urls };
}

async function expectedHashes(submissionId: string, urls: Record<string, string>) {
	const expected: Record<string, string> = {};
	for (const [name, url] of Object.entries(urls))
		expected[`${submissionId}-${name}`] = await directHash(url);
	return expected;
}

it('the example workflow writes every file of the submissions to a folder, byte for byte', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files form'), questions: QUESTIONS })
	).id;
	const first = await submitFiles(formId, 'x1');
	const second = await submitFiles(formId, 'x2');
	const workflow = JSON.parse(
		readFileSync(join(EXAMPLES_DIR, 'submission-files-to-folder.json'), 'utf8'),
	) as WorkflowDefinition;
	workflow.name = unique(workflow.name);
	for (const node of workflow.nodes) {
		if (node.type === NODE_TYPES.action) {
			(node.parameters.form as { value: string }).value = formId;
			node.credentials = credentialsOf(credential);
		}
		if (node.type === 'n8n-nodes-base.readWriteFile') {
			node.parameters.fileName = `=${folder}/example/{{ $json.submissionId }}-{{ $json.files.fileName }}`;
		}
	}
	const fillout = workflow.nodes.find((node) => node.type === NODE_TYPES.action);
	expect(fillout?.parameters.form).not.toMatchObject({ value: FORM_PLACEHOLDER });
	mkdirSync(join(folder, 'example'));

	const execution = await e2e.n8n.runOnce(workflow, { timeoutMs: 60_000 });
	expect({ status: execution.status, error: execution.error }).toEqual({
		status: 'success',
		error: undefined,
	});
	expect(writtenHashes(join(folder, 'example'))).toEqual({
		...(await expectedHashes(first.submissionId, first.urls)),
		...(await expectedHashes(second.submissionId, second.urls)),
	});
	expect((await fileLog()).withAuthorization).toEqual([]);
});

/**
 * `trigger` (with Download Files) → Split Out (one item per file) → Read/Write Files, which
 * writes each file to `dir` as `<submission ID>-<file name>`.
 */
function filesToFolderWorkflow(
	name: string,
	trigger: NodeDefinition,
	dir: string,
): WorkflowDefinition {
	const names = { split: 'One Item per File', write: 'Write Files' };
	return {
		name,
		nodes: [
			trigger,
			{
				id: randomUUID(),
				name: names.split,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					fieldToSplitOut: 'files',
					include: 'selectedOtherFields',
					fieldsToInclude: 'submissionId',
					options: { includeBinary: true },
				},
			},
			{
				id: randomUUID(),
				name: names.write,
				type: 'n8n-nodes-base.readWriteFile',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					operation: 'write',
					fileName: `=${dir}/{{ $json.submissionId }}-{{ $json.files.fileName }}`,
					dataPropertyName: '={{ $json.files.binaryProperty }}',
					options: {},
				},
			},
		],
		connections: {
			[trigger.name]: { main: [[{ node: names.split, type: 'main', index: 0 }]] },
			[names.split]: { main: [[{ node: names.write, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The one execution's outcome and the files it wrote, against the sandbox's originals. */
async function expectFilesWritten(
	workflowId: string,
	dir: string,
	made: Awaited<ReturnType<typeof submitFiles>>,
): Promise<void> {
	const [summary] = await e2e.n8n.waitForExecutions(workflowId, 1, 60_000);
	const execution = await e2e.n8n.getExecution(summary.id);
	expect({ status: execution?.status, error: execution?.error }).toEqual({
		status: 'success',
		error: undefined,
	});
	expect(writtenHashes(dir)).toEqual(await expectedHashes(made.submissionId, made.urls));
	expect((await fileLog()).withAuthorization).toEqual([]);
}

it('the trigger with Download Files turns a real delivery’s files into binary data', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files trigger'), questions: QUESTIONS })
	).id;
	const dir = join(folder, 'trigger');
	mkdirSync(dir);
	const workflow = filesToFolderWorkflow(
		unique('files trigger'),
		{
			id: randomUUID(),
			name: 'Fillout Trigger',
			type: NODE_TYPES.trigger,
			typeVersion: 1,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { authentication: 'apiKey', form: formById(formId), downloadFiles: true },
			credentials: credentialsOf(credential),
		},
		dir,
	);
	const { id: workflowId } = await e2e.n8n.createWorkflow(workflow);
	try {
		expect((await e2e.n8n.activateWorkflow(workflowId)).active).toBe(true);
		let delivered: Awaited<ReturnType<typeof submitFiles>> | undefined;
		// Activation registers the webhook in the background: submit once it is there.
		for (let attempt = 0; attempt < 40 && !delivered; attempt++) {
			if ((await e2e.sandbox.webhooksOf(formId)).length)
				delivered = await submitFiles(formId, 't1');
			else await sleep(250);
		}
		expect(delivered).toBeDefined();
		await expectFilesWritten(workflowId, dir, delivered!);
	} finally {
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
});

it('the polling trigger with Download Files writes a backfilled submission’s files, byte for byte', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files polling'), questions: QUESTIONS })
	).id;
	const dir = join(folder, 'polling');
	mkdirSync(dir);
	const made = await submitFiles(formId, 'p1');
	// Start From the beginning: the poll that publishing runs emits it, no minute's wait.
	const workflow = filesToFolderWorkflow(
		unique('files polling'),
		{
			id: randomUUID(),
			name: 'Fillout Polling Trigger',
			type: NODE_TYPES.pollingTrigger,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				authentication: 'apiKey',
				form: formById(formId),
				startFrom: 'beginning',
				downloadFiles: true,
			},
			credentials: credentialsOf(credential),
		},
		dir,
	);
	const { id: workflowId } = await e2e.n8n.createWorkflow(workflow);
	try {
		expect((await e2e.n8n.activateWorkflow(workflowId)).active).toBe(true);
		await expectFilesWritten(workflowId, dir, made);
	} finally {
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
});
