/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: makes and removes the folders n8n writes files to (node:fs) */
/**
 * Download Files in a real n8n: the example workflow (Get Many with Download Files →
 * Split Out → Read/Write Files) writes every file of a form's submissions to disk, and
 * the Fillout Trigger with Download Files does the same for a real delivery, and the
 * Fillout Polling Trigger for a submission it backfills when published. The files
 * on disk must hash like the sandbox's originals, and no file request may carry a
 * credential. A file host that goes silent mid-file fails the download after the
 * Timeout, with the connection closed (n8n's filesystem binary data mode).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startFileHost } from '../nodes/integration/support/fileHost';
import { SANDBOX_FILE_OPTIONS } from '../../sandbox/files';
import { createApiKeyCredential } from './support/credentials';
import { actionWorkflow, formById, type CredentialRef } from './support/workflows';
import {
	exampleFilesWorkflow,
	expectedHashes,
	FILE_QUESTIONS,
	fileLog,
	filesTriggerWorkflow,
	resetFileLog,
	submitFiles,
	submitFilesOnceRegistered,
	type SubmittedFiles,
	writableFolder,
	writtenHashes,
} from './support/files';
import { connectE2e, unique, type E2eContext } from './support';

let e2e: E2eContext;
let credential: CredentialRef;
let folder: string;

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
	folder = writableFolder('fillout-files');
	await resetFileLog(e2e.state.sandbox.origin);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('the example workflow writes every file of the submissions to a folder, byte for byte', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files form'), questions: FILE_QUESTIONS })
	).id;
	const first = await submitFiles(e2e.sandbox, formId, 'x1');
	const second = await submitFiles(e2e.sandbox, formId, 'x2');
	const dir = join(folder, 'example');
	mkdirSync(dir);

	const execution = await e2e.n8n.runOnce(exampleFilesWorkflow({ credential, formId, dir }), {
		timeoutMs: 60_000,
	});
	expect({ status: execution.status, error: execution.error }).toEqual({
		status: 'success',
		error: undefined,
	});
	expect(writtenHashes(dir)).toEqual({
		...(await expectedHashes(first)),
		...(await expectedHashes(second)),
	});
	expect((await fileLog(e2e.state.sandbox.origin)).withAuthorization).toEqual([]);
});

/** The workflow's one execution succeeded and wrote exactly these files, byte for byte. */
async function expectFilesWritten(workflowId: string, dir: string, made: SubmittedFiles) {
	const [summary] = await e2e.n8n.waitForExecutions(workflowId, 1, 60_000);
	const execution = await e2e.n8n.getExecution(summary.id);
	expect({ status: execution?.status, error: execution?.error }).toEqual({
		status: 'success',
		error: undefined,
	});
	expect(writtenHashes(dir)).toEqual(await expectedHashes(made));
	expect((await fileLog(e2e.state.sandbox.origin)).withAuthorization).toEqual([]);
}

it('the trigger with Download Files turns a real delivery’s files into binary data', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files trigger'), questions: FILE_QUESTIONS })
	).id;
	const dir = join(folder, 'trigger');
	mkdirSync(dir);
	const workflow = filesTriggerWorkflow({ name: unique('files trigger'), credential, formId, dir });
	const { id: workflowId } = await e2e.n8n.createWorkflow(workflow);
	try {
		expect((await e2e.n8n.activateWorkflow(workflowId)).active).toBe(true);
		const delivered = await submitFilesOnceRegistered(e2e.sandbox, formId, 't1');
		await expectFilesWritten(workflowId, dir, delivered);
	} finally {
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
});

it('the polling trigger with Download Files writes a backfilled submission’s files, byte for byte', async () => {
	const formId = (
		await e2e.sandbox.createForm({ name: unique('files polling'), questions: FILE_QUESTIONS })
	).id;
	const dir = join(folder, 'polling');
	mkdirSync(dir);
	const made = await submitFiles(e2e.sandbox, formId, 'p1');
	// Start From the beginning: the poll that publishing runs emits it, no minute's wait.
	const workflow = filesTriggerWorkflow({
		name: unique('files polling'),
		credential,
		formId,
		dir,
		polling: true,
	});
	const { id: workflowId } = await e2e.n8n.createWorkflow(workflow);
	try {
		expect((await e2e.n8n.activateWorkflow(workflowId)).active).toBe(true);
		await expectFilesWritten(workflowId, dir, made);
	} finally {
		await e2e.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
});

it('a file host that goes silent after 64 KiB fails the download after the Timeout and is disconnected', async () => {
	const host = await startFileHost();
	try {
		const formId = (
			await e2e.sandbox.createForm({ name: unique('files stall'), questions: FILE_QUESTIONS })
		).id;
		const { submission } = await e2e.sandbox.respond(formId, {
			answers: { qCv: [{ url: `${host.origin}/stall/cv.pdf?bytes=65536`, filename: 'cv.pdf' }] },
			fillUnanswered: false,
			submission: { documents: [] },
		});
		const started = Date.now();
		const execution = await e2e.n8n.runOnce(
			actionWorkflow({
				name: unique('files stall'),
				credential,
				parameters: {
					resource: 'submission',
					operation: 'get',
					form: formById(formId),
					submissionId: submission.submissionId,
					downloadFiles: true,
					fileOptions: { ...SANDBOX_FILE_OPTIONS, timeoutSeconds: 3 },
				},
			}),
			{ timeoutMs: 60_000 },
		);
		expect(Date.now() - started).toBeLessThan(30_000);
		expect(execution.status).toBe('error');
		expect(execution.error?.message).toBe(
			`Could not download "cv.pdf" (question "Résumé", submission ${submission.submissionId}): the file host stopped sending [item 0]`,
		);
		expect(await host.openAfter(2_000)).toEqual([]);
	} finally {
		await host.close();
	}
});
