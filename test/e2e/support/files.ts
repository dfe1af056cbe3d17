/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: makes the folders n8n writes files to and reads them back with node:fs */
/**
 * What the Download Files end-to-end tests share (a single n8n in `files.e2e.ts`, queue
 * mode in `queue/files.e2e.ts`): a form with a FileUpload and a Signature question, a
 * submission carrying three files on the sandbox's file host, the files' expected
 * hashes, the hashes of what n8n wrote to disk, the sandbox's file log, and the trigger
 * workflow that writes a delivery's files to a folder.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { EXAMPLES_DIR, FORM_PLACEHOLDER } from '../../../scripts/examples';
import { SANDBOX_FILE_OPTIONS, fileOriginFor } from '../../../sandbox/files';
import { directHash, sha256 } from '../../support/hash';
import { http } from '../../support/http';
import type { NodeDefinition, WorkflowDefinition } from './n8nClient';
import { NODE_TYPES } from './paths';
import { waitFor } from './processes';
import type { SandboxControl } from './sandbox';
import { credentialsOf, formById, type CredentialRef } from './workflows';
import { unique } from './index';

export const FILE_QUESTIONS = [
	{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
	{ id: 'qCv', name: 'Résumé', type: 'FileUpload' },
	{ id: 'qSig', name: 'Signature', type: 'Signature' },
];

export { directHash, sha256 };

/**
 * A fresh folder n8n may write to: n8n 2.x writes only under N8N_RESTRICT_FILE_ACCESS_TO,
 * by default `~/.n8n-files` of the user running it (the same user as the tests).
 */
export function writableFolder(label: string): string {
	const folder = join(homedir(), '.n8n-files', unique(label).replace(/\W+/g, '-'));
	mkdirSync(folder, { recursive: true });
	return folder;
}

/** The sandbox's file log: every file request, and any that carried a credential. */
export async function fileLog(
	sandboxOrigin: string,
): Promise<{ requests: number; withAuthorization: unknown[] }> {
	return (await http('GET', `${sandboxOrigin}/_sandbox/files`)).body as never;
}

export async function resetFileLog(sandboxOrigin: string): Promise<void> {
	await http('POST', `${sandboxOrigin}/_sandbox/files/reset`);
}

/** The files n8n wrote to `dir`, by name, as hashes. */
export function writtenHashes(dir: string): Record<string, string> {
	return Object.fromEntries(
		readdirSync(dir).map((name) => [name, sha256(readFileSync(join(dir, name)))]),
	);
}

export interface SubmittedFiles {
	submissionId: string;
	/** The file addresses, by file name. */
	urls: Record<string, string>;
}

/**
 * A submission with two uploads (one of 1.5 MB, one sent chunked without a length) and
 * a signature, delivered to the form's webhooks like a real one.
 */
export async function submitFiles(
	sandbox: SandboxControl,
	formId: string,
	tag: string,
): Promise<SubmittedFiles> {
	const files = fileOriginFor(sandbox.origin);
	const urls = {
		'cv.pdf': `${files}/files/${tag}a/cv.pdf?size=1500000`,
		'letter.docx': `${files}/files/${tag}b/letter.docx?chunked=1`,
		'signature.png': `${files}/files/${tag}c/signature.png`,
	};
	const { submission } = await sandbox.respond(formId, {
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

/** What the workflows write: `<submission ID>-<file name>` → the sandbox's hash. */
export async function expectedHashes({
	submissionId,
	urls,
}: SubmittedFiles): Promise<Record<string, string>> {
	const expected: Record<string, string> = {};
	for (const [name, url] of Object.entries(urls))
		expected[`${submissionId}-${name}`] = await directHash(url);
	return expected;
}

export const FILES_TRIGGER_NODES = {
	trigger: 'Fillout Trigger',
	pollingTrigger: 'Fillout Polling Trigger',
	get: 'Get Submission with Files',
	split: 'One Item per File',
	write: 'Write Files',
};

/**
 * Fillout Trigger → Split Out (one item per file, binary kept) → Read/Write Files,
 * writing each file as `<dir>/<submission ID>-<file name>`. The files are downloaded by
 * the trigger (Download Files), or with `downloadWith: 'get'` by a Submission → Get
 * (Download Files) after a trigger that downloads nothing.
 */
export function filesTriggerWorkflow(options: {
	name: string;
	credential: CredentialRef;
	formId: string;
	dir: string;
	downloadWith?: 'trigger' | 'get';
	/** The Fillout Polling Trigger instead, from the beginning: publishing's poll emits. */
	polling?: boolean;
}): WorkflowDefinition {
	const names = FILES_TRIGGER_NODES;
	const byGet = options.downloadWith === 'get';
	const fillout = { authentication: 'apiKey', form: formById(options.formId) };
	const trigger = options.polling
		? {
				name: names.pollingTrigger,
				type: NODE_TYPES.pollingTrigger,
				parameters: {
					...fillout,
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					startFrom: 'beginning',
					downloadFiles: !byGet,
					fileOptions: SANDBOX_FILE_OPTIONS,
				},
			}
		: {
				name: names.trigger,
				type: NODE_TYPES.trigger,
				webhookId: randomUUID(),
				parameters: { ...fillout, downloadFiles: !byGet, fileOptions: SANDBOX_FILE_OPTIONS },
			};
	const chain: Array<
		Pick<NodeDefinition, 'name' | 'type' | 'parameters' | 'credentials' | 'webhookId'>
	> = [
		{ ...trigger, credentials: credentialsOf(options.credential) },
		...(byGet
			? [
					{
						name: names.get,
						type: NODE_TYPES.action,
						parameters: {
							...fillout,
							resource: 'submission',
							operation: 'get',
							submissionId: '={{ $json.submissionId }}',
							downloadFiles: true,
							fileOptions: SANDBOX_FILE_OPTIONS,
						},
						credentials: credentialsOf(options.credential),
					},
				]
			: []),
		{
			name: names.split,
			type: 'n8n-nodes-base.splitOut',
			parameters: {
				fieldToSplitOut: 'files',
				include: 'selectedOtherFields',
				fieldsToInclude: 'submissionId',
				options: { includeBinary: true },
			},
		},
		{
			name: names.write,
			type: 'n8n-nodes-base.readWriteFile',
			parameters: {
				operation: 'write',
				fileName: `=${options.dir}/{{ $json.submissionId }}-{{ $json.files.fileName }}`,
				dataPropertyName: '={{ $json.files.binaryProperty }}',
				options: {},
			},
		},
	];
	return {
		name: options.name,
		nodes: chain.map((node, index) => ({
			id: randomUUID(),
			typeVersion: 1,
			position: [220 * index, 0],
			...node,
		})),
		connections: Object.fromEntries(
			chain
				.slice(1)
				.map((node, index) => [
					chain[index].name,
					{ main: [[{ node: node.name, type: 'main', index: 0 }]] },
				]),
		),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The example workflow `examples/submission-files-to-folder.json` (Get Many with
 * Download Files → Split Out → Read/Write Files) for a form and a credential, writing
 * into `dir`. Its Manual Trigger is "When clicking ‘Execute workflow’".
 */
export function exampleFilesWorkflow(options: {
	credential: CredentialRef;
	formId: string;
	dir: string;
}): WorkflowDefinition {
	const workflow = JSON.parse(
		readFileSync(join(EXAMPLES_DIR, 'submission-files-to-folder.json'), 'utf8'),
	) as WorkflowDefinition;
	workflow.name = unique(workflow.name);
	for (const node of workflow.nodes) {
		if (node.type === NODE_TYPES.action) {
			expect(node.parameters.form).toMatchObject({ value: FORM_PLACEHOLDER });
			(node.parameters.form as { value: string }).value = options.formId;
			node.parameters.fileOptions = {
				...(node.parameters.fileOptions as object),
				...SANDBOX_FILE_OPTIONS,
			};
			node.credentials = credentialsOf(options.credential);
		}
		if (node.type === 'n8n-nodes-base.readWriteFile') {
			node.parameters.fileName = `=${options.dir}/{{ $json.submissionId }}-{{ $json.files.fileName }}`;
		}
	}
	return workflow;
}

/** The example workflow's Manual Trigger. */
export const EXAMPLE_FILES_START = 'When clicking ‘Execute workflow’';

/**
 * Submits files once the published trigger's webhook is registered at the sandbox
 * (publishing registers it in the background).
 */
export async function submitFilesOnceRegistered(
	sandbox: SandboxControl,
	formId: string,
	tag: string,
): Promise<SubmittedFiles> {
	await waitFor(async () => ((await sandbox.webhooksOf(formId)).length ? true : undefined), {
		timeoutMs: 30_000,
		intervalMs: 250,
		description: `a webhook for form ${formId} at the sandbox`,
	});
	return await submitFiles(sandbox, formId, tag);
}
