/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: makes and removes the folders n8n writes files to (node:fs) */
/**
 * Download Files in queue mode. The binary data one process stores must be readable by
 * the others: n8n 2.41.1 in queue mode defaults to its `database` binary mode (the
 * cluster keeps that default; `filesystem` mode writes to each process's own folder).
 *
 * - The example workflow (Get Many with Download Files → Split Out → Read/Write Files)
 *   as a manual run offloaded to a worker: the files it writes hash like the sandbox's;
 *   each file is a row of n8n's `binary_data` table (Postgres) with those bytes, its name
 *   and MIME type; the main, which never ran it, serves it through the editor's
 *   binary-data endpoint; deleting the execution deletes the rows.
 * - The Fillout Trigger with Download Files on a real delivery: the webhook processor
 *   downloads the files into the database, a worker runs the execution and its
 *   Read/Write Files node writes the same bytes. n8n 2.41.1 links such files to no
 *   execution (`temp`): its editor endpoint answers 404 for them, and deleting the
 *   execution leaves them in the database. Both are checked, so that a release that
 *   changes them shows up (the README states these limits).
 * - The README's way round: the trigger without Download Files, then Submission → Get
 *   with it on the worker: the files belong to the execution (served by the main,
 *   deleted with it).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { createApiKeyCredential } from '../support/credentials';
import { queryPostgres } from '../support/queueServices';
import type { Execution } from '../support/n8nClient';
import { NODE_TYPES } from '../support/paths';
import { productionWebhookUrl, type CredentialRef } from '../support/workflows';
import {
	EXAMPLE_FILES_START,
	exampleFilesWorkflow,
	expectedHashes,
	FILE_QUESTIONS,
	fileLog,
	FILES_TRIGGER_NODES,
	filesTriggerWorkflow,
	resetFileLog,
	sha256,
	submitFiles,
	submitFilesOnceRegistered,
	writableFolder,
	writtenHashes,
	type SubmittedFiles,
} from '../support/files';
import { connectQueue, expectRanOnOneWorker, unique, type QueueContext } from './support';

const RUN_TIMEOUT_MS = 90_000;
/** What the sandbox's file host sends for each file (the binary data's MIME type). */
const MIME_TYPES: Record<string, string> = {
	'cv.pdf': 'application/pdf',
	'letter.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	'signature.png': 'image/png',
};

let queue: QueueContext;
let credential: CredentialRef;
let folder: string;

beforeAll(async () => {
	queue = await connectQueue();
	credential = await createApiKeyCredential(
		queue.n8n,
		unique('queue files key'),
		queue.demo.apiKeys[0],
		queue.state.sandbox.origin,
	);
	folder = writableFolder('fillout-queue-files');
	await resetFileLog(queue.state.sandbox.origin);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function newFilesForm(label: string): Promise<string> {
	return (await queue.sandbox.createForm({ name: unique(label), questions: FILE_QUESTIONS })).id;
}

function expectSucceeded(execution: Execution): void {
	expect({ id: execution.id, status: execution.status, error: execution.error }).toEqual({
		id: execution.id,
		status: 'success',
		error: undefined,
	});
}

interface StoredFile {
	submissionId: string;
	fileName: string;
	/** n8n's binary data id, `<mode>:<file id>`. */
	id: string;
	mimeType: string;
}

/** The binary data a node put on its items, one entry per file its `files` list names. */
function storedFiles(execution: Execution, nodeName: string): StoredFile[] {
	return execution.rawItems(nodeName).flatMap((raw) => {
		const item = raw as typeof raw & { binary?: Record<string, StoredFile> };
		const files = (item.json.files ?? []) as Array<{ binaryProperty: string; fileName: string }>;
		return files.map((file) => ({
			...item.binary![file.binaryProperty],
			submissionId: String(item.json.submissionId),
			fileName: file.fileName,
		}));
	});
}

/**
 * The main's copy of a file, through the editor's binary-data endpoint: the main reads
 * what another process stored, so this passes only with storage every process shares.
 */
async function servedByMain(id: string) {
	const query = new URLSearchParams({ id, action: 'download' });
	const response = await fetch(`${queue.state.main.url}/rest/binary-data?${query}`, {
		headers: { cookie: queue.n8n.sessionCookie },
	});
	return {
		status: response.status,
		hash: sha256(Buffer.from(await response.arrayBuffer())),
		contentType: response.headers.get('content-type'),
		disposition: response.headers.get('content-disposition'),
	};
}

/**
 * What n8n's `binary_data` table holds for the files, by binary data id: the execution
 * the file belongs to, its name, MIME type and the hash of its bytes. Ids of another
 * mode than `database` have no row.
 */
async function databaseRows(files: StoredFile[]) {
	const ids = files.flatMap((file) =>
		/^database:[0-9a-f-]{36}$/.test(file.id) ? [`'${file.id.slice('database:'.length)}'`] : [],
	);
	const rows = ids.length
		? await queryPostgres(
				queue.state.postgres,
				`SELECT "fileId", "sourceId", "fileName", "mimeType", encode(sha256(data), 'hex')
				 FROM binary_data WHERE "fileId" IN (${ids.join(', ')})`,
			)
		: [];
	return new Map(
		rows.map(([fileId, sourceId, fileName, mimeType, hash]) => [
			`database:${fileId}`,
			{ sourceId, fileName, mimeType, hash },
		]),
	);
}

/**
 * Every file is a row of n8n's database with the bytes the sandbox serves, its name and
 * MIME type, linked to `sourceId` (an execution, or `temp`).
 */
async function expectInDatabase(
	stored: StoredFile[],
	expected: Record<string, string>,
	sourceId: string,
): Promise<void> {
	expect(stored).toHaveLength(Object.keys(expected).length);
	const rows = await databaseRows(stored);
	for (const file of stored) {
		const key = `${file.submissionId}-${file.fileName}`;
		expect({ key, row: rows.get(file.id) }).toEqual({
			key,
			row: {
				sourceId,
				fileName: file.fileName,
				mimeType: MIME_TYPES[file.fileName],
				hash: expected[key],
			},
		});
	}
}

it('a manual run on a worker: the files it writes and the main’s copies match the sandbox’s', async () => {
	const formId = await newFilesForm('queue files form');
	const submitted: SubmittedFiles[] = [
		await submitFiles(queue.sandbox, formId, 'q1'),
		await submitFiles(queue.sandbox, formId, 'q2'),
	];
	const dir = join(folder, 'manual');
	mkdirSync(dir);
	const workflow = exampleFilesWorkflow({ credential, formId, dir });
	const { id: workflowId } = await queue.n8n.createWorkflow(workflow);
	const executionId = await queue.n8n.runWorkflow(workflowId, EXAMPLE_FILES_START);
	const execution = await queue.n8n.waitForExecution(executionId, RUN_TIMEOUT_MS);

	expectSucceeded(execution);
	expect(execution.mode).toBe('manual');
	expectRanOnOneWorker(queue.state, execution.id);
	const expected = Object.assign({}, ...(await Promise.all(submitted.map(expectedHashes))));
	expect(writtenHashes(dir)).toEqual(expected);

	const fillout = workflow.nodes.find((node) => node.type === NODE_TYPES.action);
	const stored = storedFiles(execution, fillout!.name);
	await expectInDatabase(stored, expected, execution.id);
	for (const file of stored) {
		const key = `${file.submissionId}-${file.fileName}`;
		expect({ key, served: await servedByMain(file.id) }).toEqual({
			key,
			served: {
				status: 200,
				hash: expected[key],
				contentType: expect.stringContaining(MIME_TYPES[file.fileName]),
				disposition: `attachment; filename="${encodeURIComponent(file.fileName)}"`,
			},
		});
	}
	expect((await fileLog(queue.state.sandbox.origin)).withAuthorization).toEqual([]);

	await queue.n8n.deleteExecutions([execution.id]);
	expect((await databaseRows(stored)).size).toBe(0);
});

/**
 * Publishes a files trigger workflow, submits three files and returns the execution
 * once it succeeded on a worker and wrote the files byte for byte.
 */
async function deliverFiles(label: string, downloadWith: 'trigger' | 'get') {
	const formId = await newFilesForm(label);
	const dir = join(folder, label.replace(/\W+/g, '-'));
	mkdirSync(dir);
	const workflow = filesTriggerWorkflow({
		name: unique(label),
		credential,
		formId,
		dir,
		downloadWith,
	});
	const { id: workflowId } = await queue.n8n.createWorkflow(workflow);
	try {
		expect((await queue.n8n.activateWorkflow(workflowId)).active).toBe(true);
		const delivered = await submitFilesOnceRegistered(queue.sandbox, formId, label.slice(-2));
		const [registered] = await queue.sandbox.webhooksOf(formId);
		const trigger = workflow.nodes.find((node) => node.name === FILES_TRIGGER_NODES.trigger);
		expect(registered.url).toContain(
			productionWebhookUrl(queue.state.webhook.url, trigger!.webhookId!),
		);

		const [summary] = await queue.n8n.waitForExecutions(workflowId, 1, RUN_TIMEOUT_MS);
		const execution = await queue.n8n.waitForExecution(summary.id, RUN_TIMEOUT_MS);
		expectSucceeded(execution);
		expect(execution.mode).toBe('webhook');
		expectRanOnOneWorker(queue.state, execution.id);
		const expected = await expectedHashes(delivered);
		expect(writtenHashes(dir)).toEqual(expected);
		expect((await fileLog(queue.state.sandbox.origin)).withAuthorization).toEqual([]);
		return { execution, expected };
	} finally {
		await queue.n8n.deactivateWorkflow(workflowId).catch(() => undefined);
	}
}

it('the trigger on a real delivery: the webhook processor downloads, a worker writes the same bytes', async () => {
	const { execution, expected } = await deliverFiles('queue files trigger t1', 'trigger');
	const stored = storedFiles(execution, FILES_TRIGGER_NODES.trigger);
	await expectInDatabase(stored, expected, 'temp');
	for (const file of stored) {
		const key = `${file.submissionId}-${file.fileName}`;
		// n8n 2.41.1 links a file stored before its execution existed (a webhook's) to no
		// execution in database mode, and its editor endpoint then refuses it (README).
		expect({ key, status: (await servedByMain(file.id)).status }).toEqual({ key, status: 404 });
	}
	// Nor are they deleted with the execution: n8n deletes an execution's files by its id.
	await queue.n8n.deleteExecutions([execution.id]);
	expect((await databaseRows(stored)).size).toBe(stored.length);
});

it('the README’s way round: Submission → Get with Download Files after the trigger stores the files with the execution', async () => {
	const { execution, expected } = await deliverFiles('queue files trigger g1', 'get');
	expect(storedFiles(execution, FILES_TRIGGER_NODES.trigger)).toEqual([]);
	const stored = storedFiles(execution, FILES_TRIGGER_NODES.get);
	await expectInDatabase(stored, expected, execution.id);
	for (const file of stored) {
		const key = `${file.submissionId}-${file.fileName}`;
		expect({ key, status: (await servedByMain(file.id)).status }).toEqual({ key, status: 200 });
	}
	await queue.n8n.deleteExecutions([execution.id]);
	expect((await databaseRows(stored)).size).toBe(0);
});
