import type { IBinaryKeyData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Submission } from '../shared/interfaces';
import { itemProblem } from '../shared/nodeErrors';
import type { FileContext } from './download';
import { downloadFile } from './download';
import type { SubmissionFile } from './files';
import { describeFile, filesOfSubmission } from './files';
import type { FileSettings } from './options';

/**
 * "Download Files": every file a submission carries becomes a binary property of its
 * item, and the item's JSON lists them under `files`. Used by Submission → Get and
 * Get Many and by both triggers. Here: the items; options.ts: the parameters;
 * files.ts: which files and their names; download.ts: one download and its address
 * checks; watchedDownload.ts: its stall, deadline and cancel watch.
 */

export { downloadFilesParameters, fileSettingsOf, type FileSettings } from './options';

/** The key the file list takes in an item; question names never take it while downloading. */
export const FILES_KEY = 'files';

/** Downloads run a few at a time; they are not API calls and are not paced as such. */
export const FILE_DOWNLOADS_AT_ONCE = 4;

/**
 * Runs the tasks, at most `atOnce` at a time. At the first failure no task starts, the
 * running ones are stopped (`stop` aborts), and once they have ended it rejects with it.
 */
async function runPooled(
	tasks: Array<(stop: AbortSignal) => Promise<void>>,
	atOnce: number,
): Promise<void> {
	const stop = new AbortController();
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (next < tasks.length && !failure) {
			await tasks[next++](stop.signal).catch((error: unknown) => {
				failure ??= { error };
				stop.abort();
			});
		}
	};
	await Promise.all(Array.from({ length: Math.min(atOnce, tasks.length) }, worker));
	if (failure) throw failure.error;
}

function fileEntry(file: SubmissionFile): IDataObject {
	const { kind, source, url, fileName, binaryProperty } = file;
	return { binaryProperty, fileName, kind, source, url };
}

export interface FileFailureMode {
	/** Names the input item in errors (action node); none in triggers. */
	itemIndex?: number;
	/**
	 * `fail`: a file that cannot be fetched fails the item. `record` (triggers): the
	 * item goes on without it, and its `files` entry carries the `error`.
	 */
	onFailure: 'fail' | 'record';
	/**
	 * The polling trigger's share of n8n's poll budget. No download starts once the clock
	 * passes `startByMs`, but those of the first `exceptFirst` submissions; the items then
	 * end before the first submission with a file not started. A download still running
	 * at `endAtMs` is stopped and noted as not downloaded in time.
	 */
	deadline?: { startByMs: number; endAtMs: number; exceptFirst: number };
}

/**
 * The output items for these submissions (`jsons[i]` is the item of `submissions[i]`,
 * simplified or not) with their files downloaded as binary data. One call for any
 * operation or trigger that outputs submissions. With `mode.deadline`, fewer items than
 * submissions may come back: a prefix, each with all its files.
 */
export async function itemsWithFiles(
	ctx: FileContext,
	submissions: readonly Submission[],
	jsons: readonly IDataObject[],
	settings: FileSettings,
	mode: FileFailureMode,
): Promise<INodeExecutionData[]> {
	const items = jsons.map((json): INodeExecutionData & { binary: IBinaryKeyData } => ({
		json: { ...json },
		binary: {},
	}));
	let firstUnfetched = submissions.length;
	const limits = { ...settings.limits, endAtMs: mode.deadline?.endAtMs };
	const tasks = submissions.flatMap((submission, i) => {
		const files = filesOfSubmission(submission, settings.prefix);
		const entries = files.map(fileEntry);
		items[i].json[FILES_KEY] = entries;
		return files.map((file, f) => async (stop: AbortSignal) => {
			const { deadline } = mode;
			if (deadline && i >= deadline.exceptFirst && Date.now() >= deadline.startByMs) {
				firstUnfetched = Math.min(firstUnfetched, i);
				return;
			}
			try {
				items[i].binary[file.binaryProperty] = await downloadFile(ctx, file, limits, stop);
			} catch (error) {
				const reason = error instanceof Error ? error.message : String(error);
				const message = `Could not download ${describeFile(file, submission.submissionId)}: ${reason}`;
				if (mode.onFailure === 'record') entries[f].error = message;
				else throw itemProblem(ctx, message, mode.itemIndex);
			}
		});
	});
	await runPooled(tasks, FILE_DOWNLOADS_AT_ONCE);
	return items.slice(0, firstUnfetched).map(({ json, binary }) => {
		// In the files' order, whichever download finished first.
		const ordered = (json[FILES_KEY] as IDataObject[])
			.map((entry) => String(entry.binaryProperty))
			.filter((name) => binary[name] !== undefined);
		if (!ordered.length) return { json };
		return { json, binary: Object.fromEntries(ordered.map((name) => [name, binary[name]])) };
	});
}
