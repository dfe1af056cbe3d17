import type { Submission } from '../shared/interfaces';
import { uniqueKeys } from '../shared/simplify';
import { readableSubmission } from '../shared/submissionItem';

/**
 * The files a submission carries, and the names they get as binary properties. Pure:
 * the download itself is in download.ts.
 */

export type FileKind = 'upload' | 'signature' | 'document';

export interface SubmissionFile {
	kind: FileKind;
	/** The question's name, or the document's name. */
	source: string;
	/** The question's id, or the document's id. */
	sourceId?: string;
	url: string;
	fileName: string;
	/** The binary property that holds it, e.g. `Resume_1`. */
	binaryProperty: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The last path segment of an address, decoded, or `file` when there is none. */
export function fileNameFromUrl(url: string): string {
	try {
		const last = new URL(url).pathname.split('/').pop() ?? '';
		const decoded = decodeURIComponent(last);
		return decoded.trim() === '' ? 'file' : decoded;
	} catch {
		return 'file';
	}
}

interface FileAddress {
	url: string;
	fileName?: string;
}

/** The address in one entry of a FileUpload-like value: an address, or `{url, filename}`. */
function addressOf(value: unknown): FileAddress | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : { url: value.trim() };
	if (!isObject(value) || typeof value.url !== 'string' || value.url.trim() === '')
		return undefined;
	const name = [value.filename, value.fileName, value.name].find(
		(candidate): candidate is string => typeof candidate === 'string' && candidate !== '',
	);
	return { url: value.url.trim(), fileName: name };
}

/**
 * Addresses in a FileUpload-like value (an entry, or lists of them), in order. Walked
 * without recursion: an answer is hostile input, and one nested 100,000 lists deep
 * would overflow the stack.
 */
function addressesIn(value: unknown): FileAddress[] {
	const found: FileAddress[] = [];
	const pending: unknown[] = [value];
	while (pending.length > 0) {
		const next = pending.pop();
		if (Array.isArray(next)) for (let i = next.length - 1; i >= 0; i--) pending.push(next[i]);
		else {
			const address = addressOf(next);
			if (address) found.push(address);
		}
	}
	return found;
}

/** Only http(s) addresses are fetched. */
export function isHttpUrl(url: string): boolean {
	try {
		const { protocol } = new URL(url);
		return protocol === 'http:' || protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * A name that is safe as a binary property and still reads like the question:
 * accents dropped (`Résumé` → `Resume`), every run of other characters → `_`.
 */
export function sanitizePropertyName(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/[^A-Za-z0-9]+/g, '_')
		.replace(/^_+|_+$/g, '');
}

const UPLOAD_TYPES = new Set(['FileUpload', 'AudioRecording']);

interface FoundFile {
	kind: FileKind;
	source: string;
	sourceId?: string;
	/** The question's unique key (repeated names numbered), or `document`. */
	label: string;
	address: FileAddress;
}

/** Questions and documents in order, each with its label (unique per submission). */
function foundFiles(submission: Submission): FoundFile[] {
	// The copy Simplify reads: question entries that are not objects with an id are left out.
	const questions = readableSubmission(submission).questions ?? [];
	const documents = Array.isArray(submission.documents) ? submission.documents : [];
	const labels = uniqueKeys(questions.map((q) => String(q.name ?? q.id)));
	const found: FoundFile[] = [];
	questions.forEach((question, index) => {
		const kind: FileKind | undefined = UPLOAD_TYPES.has(String(question.type))
			? 'upload'
			: question.type === 'Signature'
				? 'signature'
				: undefined;
		if (!kind) return;
		// A signature is a file only when it is an address (not drawn data or typed text).
		const addresses = addressesIn(question.value).filter(
			(a) => kind === 'upload' || isHttpUrl(a.url),
		);
		for (const address of addresses) {
			found.push({
				kind,
				source: String(question.name ?? question.id),
				sourceId: String(question.id),
				label: labels[index],
				address,
			});
		}
	});
	documents.forEach((document) => {
		// A document's name is its title ("Invoice"); the file name comes from its address.
		for (const { url } of addressesIn(isObject(document) ? document : undefined)) {
			found.push({
				kind: 'document',
				source: String((document as { name?: unknown }).name ?? 'document'),
				sourceId: (document as { id?: unknown }).id as string | undefined,
				label: 'document',
				address: { url },
			});
		}
	});
	return found;
}

/**
 * Every file of a submission with its binary property name: `<prefix><question>_<n>`,
 * n counting from 1 per question; generated documents are `<prefix>document_<n>`.
 * Names that still collide get `_2`, `_3`…
 */
export function filesOfSubmission(submission: Submission, prefix = ''): SubmissionFile[] {
	const counts = new Map<string, number>();
	const bases = foundFiles(submission).map((file) => {
		const base = file.kind === 'document' ? 'document' : sanitizePropertyName(file.label);
		const stem = `${prefix}${base === '' ? sanitizePropertyName(file.sourceId ?? '') || 'file' : base}`;
		const counter = file.kind === 'document' ? '' : file.label;
		const n = (counts.get(counter) ?? 0) + 1;
		counts.set(counter, n);
		return { file, name: `${stem}_${n}` };
	});
	const names = uniqueKeys(bases.map((b) => b.name)).map((name) =>
		name.replace(/ \((\d+)\)$/, '_$1'),
	);
	return bases.map(({ file }, i) => ({
		kind: file.kind,
		source: file.source,
		...(file.sourceId !== undefined ? { sourceId: file.sourceId } : {}),
		url: file.address.url,
		fileName: file.address.fileName ?? fileNameFromUrl(file.address.url),
		binaryProperty: names[i],
	}));
}

const GENERIC_TYPES = new Set([
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
]);

/**
 * The MIME type to store: the response's Content-Type without parameters, unless it is
 * missing or generic; then undefined, and n8n derives it from the file name.
 */
export function mimeTypeFromResponse(contentType: unknown): string | undefined {
	if (typeof contentType !== 'string') return undefined;
	const type = contentType.split(';')[0].trim().toLowerCase();
	return type === '' || GENERIC_TYPES.has(type) || !type.includes('/') ? undefined : type;
}

/** A Content-Length header as a byte count, or undefined when absent or unreadable. */
export function contentLengthOf(value: unknown): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const n = Number(text);
	return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Megabytes as users type them (decimal, as file managers show them) to bytes. */
export function megabytesToBytes(megabytes: number): number {
	return Math.floor(megabytes * 1_000_000);
}

/** What names a file in an error: its name, where it comes from and its submission. */
export function describeFile(file: SubmissionFile, submissionId: string): string {
	const where =
		file.kind === 'document' ? `document "${file.source}"` : `question "${file.source}"`;
	return `"${file.fileName}" (${where}, submission ${submissionId})`;
}
