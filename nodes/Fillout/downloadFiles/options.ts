import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { megabytesToBytes } from './files';
import type { DownloadLimits } from './watchedDownload';

/** Download Files' parameters in the editor, and the settings read from them. */

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
		// Not on the AI tool: an agent cannot read binary data, and the files stay as links.
		displayOptions: { show: { '@tool': [false] } },
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
