/**
 * Shared by the tests of Download Files on hostile submissions (the Fillout node, both
 * triggers): a submission whose question list holds a `null` beside a file question, and
 * an answer nested 100,000 lists deep. The sandbox stores and serves the first as is; the
 * second cannot be written by JSON.stringify (it overflows past ~4,000 levels), so the
 * sandbox stores a marker and a proxy in front of it puts the deep JSON text in its place.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../../../sandbox';
import { startRecordingServer, type RecordingServer } from '../../../harness';
import { control, newForm } from './index';

export const DEEP_LEVELS = 100_000;

/** What the sandbox stores where the deep answer goes; the proxy replaces it (quotes included). */
export const DEEP_MARKER = '__deep_answer__';

/** `[[[…{"url": url, "filename": name}…]]]`, `levels` lists deep, as JSON text (~200 KB). */
export function deepAnswerJson(url: string, fileName: string, levels = DEEP_LEVELS): string {
	const inner = JSON.stringify({ url, filename: fileName });
	return `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
}

/** A form with a text and a file question: its id and the file question as a submission lists it. */
export async function formWithFileQuestion(
	sandbox: RunningSandbox,
): Promise<{ formId: string; fileQuestion: IDataObject }> {
	const form = await newForm(sandbox, {
		questions: [
			{ name: 'Name', type: 'ShortAnswer' },
			{ name: 'Résumé', type: 'FileUpload' },
		],
	});
	const question = (form.questions as IDataObject[]).find((q) => q.type === 'FileUpload')!;
	return {
		formId: form.id as string,
		fileQuestion: { id: question.id, name: question.name, type: 'FileUpload' },
	};
}

/**
 * A submission whose `questions` are exactly these (junk included), without documents;
 * stored in the sandbox, listed and delivered to the form's webhooks as is. Its id.
 */
export async function respondWithQuestions(
	sandbox: RunningSandbox,
	formId: string,
	questions: unknown[],
): Promise<string> {
	const answer = await control(sandbox, 'POST', `/forms/${formId}/respond`, {
		fillUnanswered: false,
		submission: { questions, documents: [] },
	});
	return answer.submission.submissionId as string;
}

const HOP_HEADERS = new Set(['connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/**
 * Fillout's API as the sandbox serves it, with `"<DEEP_MARKER>"` in every answer replaced
 * by `deepJson`; every other header (the rate limit's, `date`) and status passes through.
 */
export async function startDeepAnswerProxy(
	sandbox: RunningSandbox,
	deepJson: string,
): Promise<RecordingServer> {
	return await startRecordingServer(async (request) => {
		const response = await fetch(`${sandbox.origin}${request.url}`, {
			method: request.method,
			headers: { authorization: String(request.headers.authorization ?? '') },
			body: request.method === 'GET' ? undefined : request.body,
		});
		const headers: Record<string, string> = {};
		response.headers.forEach((value, name) => {
			if (!HOP_HEADERS.has(name)) headers[name] = value;
		});
		const text = await response.text();
		return {
			status: response.status,
			headers,
			body: text.split(JSON.stringify(DEEP_MARKER)).join(deepJson),
		};
	});
}
