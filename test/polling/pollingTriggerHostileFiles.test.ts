/**
 * The Fillout Polling Trigger with Download Files on submissions no well-behaved Fillout
 * sends, in n8n-core's real PollContext over real HTTP: a `null` in the question list
 * beside a file question (the sandbox lists it as stored), and a file answer nested
 * 100,000 lists deep (a proxy in front of the sandbox puts it in the listing). Before,
 * either failed the poll, and every later one, for good.
 */
import { createPollHarness } from '../harness';
import { FilloutPollingTrigger } from '../../nodes/Fillout/FilloutPollingTrigger.node';
import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	sha256,
} from '../nodes/integration/support/files';
import {
	DEEP_MARKER,
	deepAnswerJson,
	formWithFileQuestion,
	respondWithQuestions,
	startDeepAnswerProxy,
} from '../nodes/integration/support/hostileAnswers';
import { apiKeyCredentials, formById, useSandbox } from '../nodes/integration/support';
import { idsOf, pollingTrigger, submit } from './support';

const sandbox = useSandbox({ rateLimit: 0 });

beforeEach(() => sandbox().context.files.reset());
afterEach(() => expect(sandbox().context.files.withAuthorization()).toEqual([]));

const PARAMETERS = { downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS };

describe.each([true, false])('Download Files on the polling trigger, Simplify %s', (simplify) => {
	it('a null entry in the question list beside a file question: emitted once with its file; the next submission follows', async () => {
		const url = `${fileOrigin(sandbox())}/files/pn/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(sandbox());
		const trigger = pollingTrigger(sandbox(), formId, { ...PARAMETERS, simplify });
		await trigger.activate();
		const odd = await respondWithQuestions(sandbox(), formId, [
			null,
			{ ...fileQuestion, value: [{ url, filename: 'cv.pdf' }] },
		]);

		const polled = await trigger.poll();

		expect(polled.error).toBeUndefined();
		expect(idsOf(polled.items)).toEqual([odd]);
		const [item] = polled.items ?? [];
		expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
		expect(sha256(await bytesOfBinary(item.binary!.Resume_1))).toBe(await directHash(url));
		expect(item.json.files).toEqual([
			{ binaryProperty: 'Resume_1', fileName: 'cv.pdf', kind: 'upload', source: 'Résumé', url },
		]);
		const next = await submit(sandbox(), formId);
		expect(idsOf((await trigger.poll()).items)).toEqual([next]);
	});

	it('an answer nested 100,000 lists deep: emitted once with the file at its bottom', async () => {
		const url = `${fileOrigin(sandbox())}/files/pd/cv.pdf`;
		const { formId, fileQuestion } = await formWithFileQuestion(sandbox());
		const proxy = await startDeepAnswerProxy(sandbox(), deepAnswerJson(url, 'cv.pdf'));
		try {
			const credentials = {
				filloutFormsApi: { ...apiKeyCredentials(sandbox()).filloutFormsApi, baseUrl: proxy.url },
			};
			const trigger = createPollHarness({
				nodeType: FilloutPollingTrigger,
				credentials,
				timezone: 'UTC',
				parameters: { form: formById(formId), ...PARAMETERS, simplify },
			});
			await trigger.activate();
			const deep = await respondWithQuestions(sandbox(), formId, [
				{ ...fileQuestion, value: DEEP_MARKER },
			]);

			const polled = await trigger.poll();

			expect(polled.error).toBeUndefined();
			expect(idsOf(polled.items)).toEqual([deep]);
			const [item] = polled.items ?? [];
			expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
			expect(sha256(await bytesOfBinary(item.binary!.Resume_1))).toBe(await directHash(url));
			expect(item.json.files).toEqual([
				{ binaryProperty: 'Resume_1', fileName: 'cv.pdf', kind: 'upload', source: 'Résumé', url },
			]);
			expect((await trigger.poll()).items).toBeNull();
			// The listing went through the proxy, with the deep answer in it.
			expect(proxy.requests.some((r) => r.path === `/v1/api/forms/${formId}/submissions`)).toBe(
				true,
			);
		} finally {
			await proxy.close();
		}
	});
});
