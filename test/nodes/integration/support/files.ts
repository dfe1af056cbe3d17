/** Shared by the Download Files tests: a form with file questions, answers pointing at the sandbox's file host, and the bytes n8n stored. */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../../../sandbox';
import { fileOriginFor } from '../../../../sandbox/files';
import { control, newForm } from './index';

export { directHash, sha256 } from '../../../support/hash';

/** What every test that downloads the sandbox's files turns on (its host is loopback). */
export { SANDBOX_FILE_OPTIONS } from '../../../../sandbox/files';

/** Where the sandbox serves files: the other loopback name than its API's. */
export function fileOrigin(sandbox: RunningSandbox): string {
	return fileOriginFor(sandbox.origin);
}

/** A form with two upload questions, a signature and a text question. */
export async function newFileForm(sandbox: RunningSandbox): Promise<string> {
	const form = await newForm(sandbox, {
		questions: [
			{ name: 'Name', type: 'ShortAnswer' },
			{ name: 'Résumé', type: 'FileUpload' },
			{ name: 'Photo', type: 'FileUpload' },
			{ name: 'Signature', type: 'Signature' },
		],
	});
	return form.id as string;
}

/**
 * A respondent submits these answers (others unanswered), with these generated
 * documents (none unless given); delivered to the form's webhooks. Returns its id.
 */
export async function respondWith(
	sandbox: RunningSandbox,
	formId: string,
	{ answers, documents = [] }: { answers: IDataObject; documents?: IDataObject[] },
): Promise<string> {
	const answer = await control(sandbox, 'POST', `/forms/${formId}/respond`, {
		answers,
		fillUnanswered: false,
		submission: { documents },
	});
	return answer.submission.submissionId as string;
}

/** The bytes n8n stored for a binary property (the harness runs n8n's default, in-memory mode). */
export async function bytesOfBinary(binary: IBinaryData): Promise<Buffer> {
	if (binary.id) throw new Error(`Stored in n8n's ${binary.id.split(':')[0]} mode, not in memory`);
	return await Promise.resolve(Buffer.from(binary.data, 'base64'));
}
