/**
 * Download Files on submissions no well-behaved Fillout sends, in n8n-core's real engine
 * over real HTTP: a `null` in the question list beside a file question, and a file answer
 * nested 100,000 lists deep (a 200 KB body). Files are taken from the copy Simplify
 * reads, and the answer is walked without recursion: each file is still downloaded. Simplify
 * reads that copy too, so the null entry is left out of the item.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	sha256,
} from './support/files';
import {
	DEEP_MARKER,
	deepAnswerJson,
	formWithFileQuestion,
	respondWithQuestions,
	startDeepAnswerProxy,
} from './support/hostileAnswers';
import { apiKeyCredentials, formById, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 0 });

beforeEach(() => sandbox().context.files.reset());
afterEach(() => expect(sandbox().context.files.withAuthorization()).toEqual([]));

const getParameters = (formId: string, submissionId: string, simplify: boolean) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId,
	simplify,
	downloadFiles: true,
	fileOptions: SANDBOX_FILE_OPTIONS,
});

describe.each([false, true])('Submission → Get with Download Files, Simplify %s', (simplify) => {
	it('a null entry in the question list beside a file question: the file is downloaded', async () => {
		const url = `${fileOrigin(sandbox())}/files/n1/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(sandbox());
		const submissionId = await respondWithQuestions(sandbox(), formId, [
			null,
			{ ...fileQuestion, value: [{ url, filename: 'cv.pdf' }] },
		]);

		const result = await runFillout(sandbox(), getParameters(formId, submissionId, simplify));

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
		expect(sha256(await bytesOfBinary(item.binary!.Resume_1))).toBe(await directHash(url));
		expect(item.json.files).toEqual([
			{ binaryProperty: 'Resume_1', fileName: 'cv.pdf', kind: 'upload', source: 'Résumé', url },
		]);
		if (simplify) expect(item.json['Résumé']).toEqual([{ url, filename: 'cv.pdf' }]);
	});

	it('an answer nested 100,000 lists deep: no stack overflow, the file at its bottom is downloaded', async () => {
		const url = `${fileOrigin(sandbox())}/files/deep/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(sandbox());
		const submissionId = await respondWithQuestions(sandbox(), formId, [
			{ ...fileQuestion, value: DEEP_MARKER },
		]);
		const proxy = await startDeepAnswerProxy(sandbox(), deepAnswerJson(url, 'cv.pdf'));
		try {
			const result = await runFillout(sandbox(), getParameters(formId, submissionId, simplify), {
				credentials: {
					filloutFormsApi: { ...apiKeyCredentials(sandbox()).filloutFormsApi, baseUrl: proxy.url },
				},
			});

			expect(result.error).toBeUndefined();
			expect(proxy.requests.map((r) => r.path)).toEqual([
				`/v1/api/forms/${formId}/submissions/${submissionId}`,
			]);
			const [item] = result.items;
			expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
			expect(sha256(await bytesOfBinary(item.binary!.Resume_1))).toBe(await directHash(url));
			expect((item.json.files as IDataObject[])[0]).toMatchObject({ fileName: 'cv.pdf', url });
		} finally {
			await proxy.close();
		}
	});
});

describe('Submission → Get Many, Simplify on, a null entry in the question list', () => {
	it.each([false, true])(
		'Download Files %s: the item holds the other answers, no error',
		async (files) => {
			const url = `${fileOrigin(sandbox())}/files/n2/cv.pdf`;
			const { formId, fileQuestion } = await formWithFileQuestion(sandbox());
			const submissionId = await respondWithQuestions(sandbox(), formId, [
				null,
				{ ...fileQuestion, value: [{ url, filename: 'cv.pdf' }] },
			]);

			const result = await runFillout(sandbox(), {
				resource: 'submission',
				operation: 'getMany',
				form: formById(formId),
				returnAll: true,
				simplify: true,
				downloadFiles: files,
				...(files ? { fileOptions: SANDBOX_FILE_OPTIONS } : {}),
			});

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.submissionId)).toEqual([submissionId]);
			expect(result.items[0].json['Résumé']).toEqual([{ url, filename: 'cv.pdf' }]);
			expect(Object.keys(result.items[0].binary ?? {})).toEqual(files ? ['Resume_1'] : []);
		},
	);
});
