import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { SubmissionFile } from './files';
import { describeFile, filesOfSubmission, megabytesToBytes } from './files';
import type { Submission } from '../shared/interfaces';
import type { DownloadLimits, FileContext } from './download';
import { downloadFile } from './download';
import { itemProblem } from '../shared/nodeErrors';

/**
 * "Download Files": every file a submission carries becomes a binary property of its
 * item, and the item's JSON lists them under `files`. Used by Submission → Get and
 * Get Many and by the triggers.
 */

/** The key the file list takes in an item; question names never take it while downloading. */
export const FILES_KEY = 'files';

/** Downloads run a few at a time; they are not API calls and are not paced as such. */
export const FILE_DOWNLOADS_AT_ONCE = 4;

export const DEFAULT_MAX_FILE_SIZE_MB = 100;
export const DEFAULT_FILE_TIMEOUT_SECONDS = 120;

export const downloadFilesParameters: INodeProperties[] = [
	{
		displayName: 'Download Files',
		name: 'downloadFiles',
		type: 'boolean',
		default: false,
		description:
			'Whether to download uploaded files, signatures and generated documents as binary data (one binary property per file, named after its question)',
	},
	{
		displayName: 'File Options',
		name: 'fileOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { downloadFiles: [true] } },
		options: [
			{
				displayName: 'Binary Property Prefix',
				name: 'binaryPropertyPrefix',
				type: 'string',
				default: '',
				placeholder: 'e.g. file_',
				description:
					'Put before every binary property name: with "file_", the first file of the question "Résumé" is "file_Resume_1"',
			},
			{
				displayName: 'Max File Size (MB)',
				name: 'maxFileSizeMb',
				type: 'number',
				typeOptions: { minValue: 0.001, numberPrecision: 3 },
				default: DEFAULT_MAX_FILE_SIZE_MB,
				description: 'A larger file fails its item before it is read',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeoutSeconds',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_FILE_TIMEOUT_SECONDS,
				description:
					'How long a file host may stay silent (before answering, or while sending) before the download fails',
			},
			{
				displayName: 'Allow Private Network Addresses',
				name: 'allowPrivateAddresses',
				type: 'boolean',
				default: false,
				description:
					'Whether to fetch files from localhost and private network addresses (10.x, 192.168.x, fd00::…), e.g. from a Fillout hosted on your own network. Off, such a file fails its item. Link-local and cloud metadata addresses (169.254.169.254) are never fetched.',
			},
		],
	},
];

export interface FileSettings {
	prefix: string;
	limits: DownloadLimits;
}

/** The settings, or undefined when Download Files is off. `read` reads one node parameter. */
export function fileSettingsOf(
	read: (name: string, fallback: unknown) => unknown,
): FileSettings | undefined {
	if (read('downloadFiles', false) !== true) return undefined;
	const options = (read('fileOptions', {}) ?? {}) as IDataObject;
	const maxMb = Number(options.maxFileSizeMb ?? DEFAULT_MAX_FILE_SIZE_MB);
	const seconds = Number(options.timeoutSeconds ?? DEFAULT_FILE_TIMEOUT_SECONDS);
	return {
		prefix: typeof options.binaryPropertyPrefix === 'string' ? options.binaryPropertyPrefix : '',
		limits: {
			maxBytes: megabytesToBytes(maxMb > 0 ? maxMb : DEFAULT_MAX_FILE_SIZE_MB),
			timeoutMs: (seconds > 0 ? seconds : DEFAULT_FILE_TIMEOUT_SECONDS) * 1000,
			allowPrivateAddresses: options.allowPrivateAddresses === true,
		},
	};
}

/**
 * Runs the tasks, at most `atOnce` at a time. At the first failure no task starts, the
 * running ones are stopped (`stop` aborts), and once they have ended it rejects with it.
 */
async function inPool(
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
	await inPool(tasks, FILE_DOWNLOADS_AT_ONCE);
	return items.slice(0, firstUnfetched).map(({ json, binary }) => {
		// In the files' order, whichever download finished first.
		const ordered = (json[FILES_KEY] as IDataObject[])
			.map((entry) => String(entry.binaryProperty))
			.filter((name) => binary[name] !== undefined);
		if (!ordered.length) return { json };
		return { json, binary: Object.fromEntries(ordered.map((name) => [name, binary[name]])) };
	});
}
