import {
	contentLengthOf,
	describeFile,
	fileNameFromUrl,
	filesOfSubmission,
	isHttpUrl,
	megabytesToBytes,
	mimeTypeFromResponse,
	sanitizePropertyName,
} from '../../../nodes/Fillout/downloadFiles/files';
import type { Submission } from '../../../nodes/Fillout/shared/interfaces';

const submission = (questions: Submission['questions'], extra: object = {}): Submission => ({
	submissionId: 's1',
	submissionTime: '2024-05-01T00:00:00.000Z',
	questions,
	...extra,
});

describe('binary property names', () => {
	it('keep letters and digits of the question, drop accents, join the rest with _', () => {
		expect(sanitizePropertyName('Résumé')).toBe('Resume');
		expect(sanitizePropertyName('ID document (front)')).toBe('ID_document_front');
		expect(sanitizePropertyName('  Photo / selfie! ')).toBe('Photo_selfie');
		expect(sanitizePropertyName('写真')).toBe('');
	});

	it('number the files of each question from 1, documents after, with the prefix', () => {
		const files = filesOfSubmission(
			submission(
				[
					{
						id: 'q1',
						name: 'Résumé',
						type: 'FileUpload',
						value: [
							{ url: 'https://f.example/a/cv.pdf', filename: 'cv.pdf' },
							{ url: 'https://f.example/b/letter.docx' },
						],
					},
					{ id: 'q2', name: 'Name', type: 'ShortAnswer', value: 'https://not.a.file/x' },
					{ id: 'q3', name: 'Signature', type: 'Signature', value: 'https://f.example/s/sig.png' },
					{
						id: 'q4',
						name: '写真',
						type: 'FileUpload',
						value: { url: 'https://f.example/p/photo.jpg', name: 'me.jpg' },
					},
				],
				{
					documents: [{ id: 'd1', name: 'Invoice', url: 'https://f.example/d/Invoice%20123.pdf' }],
				},
			),
			'file_',
		);
		expect(files.map((f) => [f.binaryProperty, f.kind, f.source, f.fileName])).toEqual([
			['file_Resume_1', 'upload', 'Résumé', 'cv.pdf'],
			['file_Resume_2', 'upload', 'Résumé', 'letter.docx'],
			['file_Signature_1', 'signature', 'Signature', 'sig.png'],
			['file_q4_1', 'upload', '写真', 'me.jpg'],
			['file_document_1', 'document', 'Invoice', 'Invoice 123.pdf'],
		]);
	});

	it('stay unique: repeated question names and a question called "document"', () => {
		const files = filesOfSubmission(
			submission(
				[
					{ id: 'a', name: 'Photo', type: 'FileUpload', value: ['https://f.example/1.png'] },
					{ id: 'b', name: 'Photo', type: 'FileUpload', value: ['https://f.example/2.png'] },
					{ id: 'c', name: 'document', type: 'FileUpload', value: ['https://f.example/3.png'] },
				],
				{ documents: [{ id: 'd', name: 'Summary', url: 'https://f.example/s.pdf' }] },
			),
		);
		expect(files.map((f) => f.binaryProperty)).toEqual([
			'Photo_1',
			'Photo_2_1',
			'document_1',
			'document_1_2',
		]);
	});

	it('take a signature only when it is an address; unanswered questions give nothing', () => {
		const files = filesOfSubmission(
			submission([
				{ id: 's', name: 'Signature', type: 'Signature', value: 'data:image/png;base64,AAAA' },
				{ id: 't', name: 'Signed', type: 'Signature', value: 'Zoë Martin' },
				{ id: 'u', name: 'Upload', type: 'FileUpload', value: null },
				{ id: 'v', name: 'Upload 2', type: 'FileUpload', value: '' },
				{ id: 'w', name: 'Upload 3', type: 'FileUpload', value: [] },
			]),
		);
		expect(files).toEqual([]);
	});

	it('keep an upload whose address is not http(s), so that its item fails rather than losing it', () => {
		const [file] = filesOfSubmission(
			submission([
				{ id: 'u', name: 'CV', type: 'FileUpload', value: [{ url: 'ftp://x.example/cv.pdf' }] },
			]),
		);
		expect(file).toMatchObject({
			binaryProperty: 'CV_1',
			url: 'ftp://x.example/cv.pdf',
			fileName: 'cv.pdf',
		});
	});
});

describe('file facts', () => {
	it('a file name from an address, decoded', () => {
		expect(fileNameFromUrl('https://f.example/a/cover%20letter.docx?x=1')).toBe(
			'cover letter.docx',
		);
		expect(fileNameFromUrl('https://f.example/')).toBe('file');
		expect(fileNameFromUrl('not a url')).toBe('file');
	});

	it('only http and https are fetched', () => {
		expect(isHttpUrl('https://f.example/a')).toBe(true);
		expect(isHttpUrl('http://f.example/a')).toBe(true);
		for (const url of [
			'ftp://f.example/a',
			'file:///etc/passwd',
			'javascript:alert(1)',
			'data:,x',
			'f.example/a',
		])
			expect(isHttpUrl(url)).toBe(false);
	});

	it('the MIME type of a response, unless generic', () => {
		expect(mimeTypeFromResponse('Image/PNG; charset=binary')).toBe('image/png');
		expect(mimeTypeFromResponse('application/octet-stream')).toBeUndefined();
		expect(mimeTypeFromResponse('')).toBeUndefined();
		expect(mimeTypeFromResponse(undefined)).toBeUndefined();
		expect(mimeTypeFromResponse('nonsense')).toBeUndefined();
	});

	it('Content-Length as a number, when readable', () => {
		expect(contentLengthOf('52428800')).toBe(52428800);
		expect(contentLengthOf(['12'])).toBe(12);
		expect(contentLengthOf('-1')).toBeUndefined();
		expect(contentLengthOf('1e3x')).toBeUndefined();
		expect(contentLengthOf(undefined)).toBeUndefined();
	});

	it('megabytes are decimal, and errors name file, question or document, and submission', () => {
		expect(megabytesToBytes(100)).toBe(100_000_000);
		expect(megabytesToBytes(0.5)).toBe(500_000);
		const [upload] = filesOfSubmission(
			submission([
				{ id: 'u', name: 'CV', type: 'FileUpload', value: [{ url: 'https://f.example/cv.pdf' }] },
			]),
		);
		expect(describeFile(upload, 's1')).toBe('"cv.pdf" (question "CV", submission s1)');
		const [document] = filesOfSubmission(
			submission([], { documents: [{ id: 'd', name: 'Invoice', url: 'https://f.example/i.pdf' }] }),
		);
		expect(describeFile(document, 's1')).toBe('"i.pdf" (document "Invoice", submission s1)');
	});
});

describe('files of a submission as hostile input', () => {
	const upload = (url: string) => ({ id: 'q1', name: 'CV', type: 'FileUpload', value: [{ url }] });

	it('question entries that are not objects with an id are left out, as Simplify leaves them out; the files beside them stay', () => {
		const junk = [null, 7, 'text', [], { name: 'No id', type: 'FileUpload', value: 'https://f/x' }];
		const files = filesOfSubmission(
			submission([
				...junk,
				upload('https://f.example/cv.pdf'),
			] as unknown as Submission['questions']),
		);
		expect(files.map((f) => [f.binaryProperty, f.url])).toEqual([
			['CV_1', 'https://f.example/cv.pdf'],
		]);
	});

	it('questions that are not a list, and documents that are not objects, carry no files', () => {
		expect(filesOfSubmission(submission({ q: 1 } as unknown as Submission['questions']))).toEqual(
			[],
		);
		const documents = [
			null,
			'https://f.example/d.pdf',
			{ id: 'd1', url: 'https://f.example/e.pdf' },
		];
		expect(filesOfSubmission(submission([], { documents })).map((f) => f.url)).toEqual([
			'https://f.example/e.pdf',
		]);
	});

	it('entries with a blank address give nothing; addresses are trimmed', () => {
		const value = ['  ', { url: ' \t' }, { url: 7 }, null, { url: ' https://f.example/a.pdf ' }];
		const files = filesOfSubmission(
			submission([{ id: 'q1', name: 'CV', type: 'FileUpload', value }]),
		);
		expect(files.map((f) => [f.binaryProperty, f.url])).toEqual([
			['CV_1', 'https://f.example/a.pdf'],
		]);
	});

	it('an answer nested 100,000 lists deep does not overflow the stack: its address is found, in order with its siblings', () => {
		let deep: unknown = { url: 'https://f.example/deep.pdf', filename: 'deep.pdf' };
		for (let depth = 0; depth < 100_000; depth++) deep = [deep];
		const value = ['https://f.example/first.pdf', deep, [['https://f.example/last.pdf']]];
		const files = filesOfSubmission(
			submission([{ id: 'q1', name: 'CV', type: 'FileUpload', value }]),
		);
		expect(files.map((f) => [f.binaryProperty, f.fileName])).toEqual([
			['CV_1', 'first.pdf'],
			['CV_2', 'deep.pdf'],
			['CV_3', 'last.pdf'],
		]);
	});
});
