import type { IDataObject } from 'n8n-workflow';

import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	newFileForm,
	respondWith,
	sha256,
} from './support/files';
import { formById, jsonOf, pairedIndex, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 0 });

const getParameters = (formId: string, submissionId: string, extra: IDataObject = {}) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId,
	downloadFiles: true,
	...extra,
	fileOptions: { ...SANDBOX_FILE_OPTIONS, ...(extra.fileOptions as IDataObject | undefined) },
});

beforeEach(() => sandbox().context.files.reset());
afterEach(() => expect(sandbox().context.files.withAuthorization()).toEqual([]));

describe('Download Files: what it fetches', () => {
	it('turns every upload, signature address and document into binary data with its name, MIME type and bytes', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const urls = {
			cv: `${files}/files/a1/cv.pdf`,
			letter: `${files}/files/a2/cover%20letter.docx?chunked=1`,
			photo: `${files}/files/p1/photo.png?size=2000000`,
			signature: `${files}/files/s1/signature.png?size=5`,
			invoice: `${files}/files/d1/invoice.pdf`,
		};
		const submissionId = await respondWith(sandbox(), formId, {
			answers: {
				Name: 'Zoë',
				Résumé: [
					{ url: urls.cv, filename: 'cv.pdf' },
					{ url: urls.letter, filename: 'cover letter.docx' },
				],
				Photo: [{ url: urls.photo, filename: 'photo.png' }],
				Signature: urls.signature,
			},
			documents: [{ id: 'doc1', name: 'Invoice', url: urls.invoice }],
		});

		const result = await runFillout(sandbox(), getParameters(formId, submissionId));
		expect(result.error).toBeUndefined();
		const [item] = result.items;
		const binary = item.binary ?? {};
		expect(Object.keys(binary).sort()).toEqual(
			['Photo_1', 'Resume_1', 'Resume_2', 'Signature_1', 'document_1'].sort(),
		);
		const expected: Record<string, [string, string, string]> = {
			Resume_1: [urls.cv, 'cv.pdf', 'application/pdf'],
			Resume_2: [
				urls.letter,
				'cover letter.docx',
				'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
			],
			Photo_1: [urls.photo, 'photo.png', 'image/png'],
			Signature_1: [urls.signature, 'signature.png', 'image/png'],
			document_1: [urls.invoice, 'invoice.pdf', 'application/pdf'],
		};
		for (const [property, [url, fileName, mimeType]] of Object.entries(expected)) {
			expect({ property, fileName: binary[property].fileName }).toEqual({ property, fileName });
			expect(binary[property].mimeType).toBe(mimeType);
			expect(sha256(await bytesOfBinary(binary[property]))).toBe(await directHash(url));
		}
		expect((await bytesOfBinary(binary.Photo_1)).length).toBe(2_000_000);
		expect(item.json.Name).toBe('Zoë');
		expect(item.json.files).toEqual([
			{
				binaryProperty: 'Resume_1',
				fileName: 'cv.pdf',
				kind: 'upload',
				source: 'Résumé',
				url: urls.cv,
			},
			{
				binaryProperty: 'Resume_2',
				fileName: 'cover letter.docx',
				kind: 'upload',
				source: 'Résumé',
				url: urls.letter,
			},
			{
				binaryProperty: 'Photo_1',
				fileName: 'photo.png',
				kind: 'upload',
				source: 'Photo',
				url: urls.photo,
			},
			{
				binaryProperty: 'Signature_1',
				fileName: 'signature.png',
				kind: 'signature',
				source: 'Signature',
				url: urls.signature,
			},
			{
				binaryProperty: 'document_1',
				fileName: 'invoice.pdf',
				kind: 'document',
				source: 'Invoice',
				url: urls.invoice,
			},
		]);
	});

	it('downloads the files of every submission of Get Many, raw or simplified, with a prefix', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const urls = [1, 2, 3].map((n) => `${files}/files/many${n}/file-${n}.txt`);
		for (const url of urls)
			await respondWith(sandbox(), formId, { answers: { Résumé: [{ url }] } });
		for (const simplify of [true, false]) {
			const result = await runFillout(sandbox(), {
				resource: 'submission',
				operation: 'getMany',
				form: formById(formId),
				returnAll: true,
				simplify,
				downloadFiles: true,
				fileOptions: { ...SANDBOX_FILE_OPTIONS, binaryPropertyPrefix: 'file_' },
			});
			expect(result.items).toHaveLength(3);
			// Submissions made in the same millisecond tie, and ties come in no fixed order.
			const names = result.items.map((item) => item.binary?.file_Resume_1?.fileName);
			expect([...names].sort()).toEqual(['file-1.txt', 'file-2.txt', 'file-3.txt']);
			for (const item of result.items) {
				expect(Object.keys(item.binary ?? {})).toEqual(['file_Resume_1']);
				const binary = item.binary!.file_Resume_1;
				expect(binary.mimeType).toBe('text/plain');
				const url = urls.find((candidate) => candidate.endsWith(`/${binary.fileName}`))!;
				expect(sha256(await bytesOfBinary(binary))).toBe(await directHash(url));
				expect((item.json.files as IDataObject[])[0].binaryProperty).toBe('file_Resume_1');
			}
			if (!simplify) expect(result.items[0].json.questions).toBeDefined();
		}
	});

	it('changes nothing with the option off', async () => {
		const formId = await newFileForm(sandbox());
		const submissionId = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: `${fileOrigin(sandbox())}/files/off/cv.pdf` }] },
		});
		const off = await runFillout(sandbox(), {
			...getParameters(formId, submissionId),
			downloadFiles: false,
		});
		expect(off.items[0].binary).toBeUndefined();
		expect(off.items[0].json).not.toHaveProperty('files');
		expect(sandbox().context.files.requests).toEqual([]);
	});
});

describe('Download Files: redirects, failures and limits', () => {
	it('follows a redirect to another host without a credential, and gives up after 5', async () => {
		const files = fileOrigin(sandbox());
		const target = `${sandbox().origin}/files/r1/moved.pdf`; // the API's own host
		const redirect = `${files}/files/redirect/moved.pdf?to=${encodeURIComponent(target)}`;
		let loop = `${files}/files/a/end.pdf`;
		for (let i = 0; i < 6; i++)
			loop = `${files}/files/redirect/x.pdf?to=${encodeURIComponent(loop)}`;
		const formId = await newFileForm(sandbox());
		const ok = await respondWith(sandbox(), formId, { answers: { Résumé: [{ url: redirect }] } });
		const result = await runFillout(sandbox(), getParameters(formId, ok));
		expect(result.error).toBeUndefined();
		expect(sha256(await bytesOfBinary(result.items[0].binary!.Resume_1))).toBe(
			await directHash(target),
		);
		expect(sandbox().context.files.requests.map((r) => r.host)).toEqual([
			new URL(files).host,
			new URL(sandbox().origin).host,
			new URL(sandbox().origin).host, // the test's own fetch
		]);

		const tooMany = await respondWith(sandbox(), formId, { answers: { Photo: [{ url: loop }] } });
		const failed = await runFillout(sandbox(), getParameters(formId, tooMany));
		expect(failed.error?.message).toBe(
			`Could not download "x.pdf" (question "Photo", submission ${tooMany}): more than 5 redirects [item 0]`,
		);
	});

	it('fails the item naming the item, question and file for a 404, a silent host, a file too large or an address that is not http(s)', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const cases: Array<[IDataObject, IDataObject, string]> = [
			[
				{ Résumé: [{ url: `${files}/files/missing/cv.pdf`, filename: 'cv.pdf' }] },
				{},
				'"cv.pdf" (question "Résumé", SUB): the file host answered 404',
			],
			[
				{ Photo: [{ url: `${files}/files/slow/p.png?delayMs=3000` }] },
				{ timeoutSeconds: 1 },
				'"p.png" (question "Photo", SUB): the file host did not answer in time',
			],
			[
				{ Photo: [{ url: `${files}/files/big/p.png?size=3000000` }] },
				{ maxFileSizeMb: 2 },
				'"p.png" (question "Photo", SUB): the file is larger than the Max File Size (2 MB)',
			],
			[
				{ Photo: [{ url: `${files}/files/big/p.png?size=3000000&chunked=1` }] },
				{ maxFileSizeMb: 2 },
				'"p.png" (question "Photo", SUB): the file is larger than the Max File Size (2 MB)',
			],
			[
				{ Résumé: [{ url: 'ftp://files.example.com/cv.pdf' }] },
				{},
				'"cv.pdf" (question "Résumé", SUB): "ftp://files.example.com/cv.pdf" is not an http(s) address',
			],
		];
		for (const [answers, fileOptions, words] of cases) {
			const id = await respondWith(sandbox(), formId, { answers });
			const result = await runFillout(sandbox(), getParameters(formId, id, { fileOptions }));
			expect(result.error?.message).toBe(
				`Could not download ${words.replace('SUB', `submission ${id}`)} [item 0]`,
			);
		}
	});

	it('refuses a file over Max File Size without reading it all, with or without Content-Length', async () => {
		const size = 50_000_000;
		const formId = await newFileForm(sandbox());
		for (const chunked of ['0', '1']) {
			sandbox().context.files.reset();
			const url = `${fileOrigin(sandbox())}/files/big${chunked}/data.bin?size=${size}&chunked=${chunked}`;
			const id = await respondWith(sandbox(), formId, { answers: { Photo: [{ url }] } });
			const result = await runFillout(
				sandbox(),
				getParameters(formId, id, { fileOptions: { maxFileSizeMb: 1 } }),
			);
			expect(result.error?.message).toContain('the file is larger than the Max File Size (1 MB)');
			const [served] = sandbox().context.files.requests;
			// What the sockets buffer may be sent; nowhere near the whole file.
			expect(served.bytesSent).toBeLessThan(size / 5);
		}
	});

	it('with Continue On Fail, an item whose file fails becomes an error item and the others go on', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const good = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: `${files}/files/g/cv.pdf` }] },
		});
		const bad = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: `${files}/files/missing/cv.pdf` }] },
		});
		const result = await runFillout(sandbox(), getParameters(formId, '={{ $json.id }}'), {
			inputItems: [{ id: good }, { id: bad }, { id: good }],
			continueOnFail: true,
		});
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2]);
		expect(result.items[1].json.error).toBe(
			`Could not download "cv.pdf" (question "Résumé", submission ${bad}): the file host answered 404 [item 1]`,
		);
		expect(Object.keys(result.items[0].binary ?? {})).toEqual(['Resume_1']);
		expect(Object.keys(result.items[2].binary ?? {})).toEqual(['Resume_1']);
		expect(jsonOf(result)[2].submissionId).toBe(good);
	});

	it('streams a file of 50 MB and more, byte for byte', async () => {
		const url = `${fileOrigin(sandbox())}/files/huge/archive.bin?size=${52_428_800 + 7}`;
		const formId = await newFileForm(sandbox());
		const id = await respondWith(sandbox(), formId, { answers: { Résumé: [{ url }] } });
		const result = await runFillout(sandbox(), getParameters(formId, id));
		expect(result.error).toBeUndefined();
		const bytes = await bytesOfBinary(result.items[0].binary!.Resume_1);
		expect(bytes.length).toBe(52_428_807);
		expect(result.items[0].binary!.Resume_1.mimeType).toBe('application/octet-stream');
		expect(sha256(bytes)).toBe(await directHash(url));
	}, 60_000);
});
