/**
 * Download Files against a file host that goes quiet, in n8n-core's real engine over
 * real HTTP (support/fileHost.ts): the Timeout applies to the body, not only to the
 * headers, and every way a download ends early (stall, cancel, the store giving up, a
 * sibling file failing) closes the connection to the file host.
 */
import { BinaryDataService } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { startFileHost, type FileHost } from './support/fileHost';
import { SANDBOX_FILE_OPTIONS, newFileForm, respondWith } from './support/files';
import { formById, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 0 });
let host: FileHost;

beforeEach(async () => (host = await startFileHost()));
afterEach(async () => {
	jest.restoreAllMocks();
	await host.close();
});

const getParameters = (formId: string, submissionId: string, fileOptions: IDataObject = {}) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId,
	downloadFiles: true,
	fileOptions: { ...SANDBOX_FILE_OPTIONS, ...fileOptions },
});

async function submissionWith(answers: IDataObject): Promise<[string, string]> {
	const formId = await newFileForm(sandbox());
	return [formId, await respondWith(sandbox(), formId, { answers })];
}

describe('a file host that sends the headers and 64 KiB, then stays silent', () => {
	it.each([
		['with a declared length', '&length=1000000'],
		['without one (chunked)', ''],
	])(
		'%s: the download fails after the Timeout and the connection is closed',
		async (_, length) => {
			const url = `${host.origin}/stall/cv.pdf?bytes=65536${length}`;
			const [formId, id] = await submissionWith({ Résumé: [{ url, filename: 'cv.pdf' }] });
			const started = Date.now();
			const result = await runFillout(sandbox(), getParameters(formId, id, { timeoutSeconds: 2 }));
			const tookMs = Date.now() - started;

			expect(result.error?.message).toBe(
				`Could not download "cv.pdf" (question "Résumé", submission ${id}): the file host stopped sending [item 0]`,
			);
			expect(tookMs).toBeGreaterThanOrEqual(2_000);
			expect(tookMs).toBeLessThan(8_000);
			expect(await host.openAfter(1_000)).toEqual([]);
		},
		20_000,
	);
});

describe('the Timeout', () => {
	it('counts for each redirect on its own: two hops of 0.7 s each pass a Timeout of 1 s', async () => {
		const file = `${host.origin}/drip/cv.pdf?size=1000&overMs=100`;
		const second = `${host.origin}/redirect/b?delayMs=700&to=${encodeURIComponent(file)}`;
		const first = `${host.origin}/redirect/a?delayMs=700&to=${encodeURIComponent(second)}`;
		const [formId, id] = await submissionWith({ Résumé: [{ url: first, filename: 'cv.pdf' }] });
		const result = await runFillout(sandbox(), getParameters(formId, id, { timeoutSeconds: 1 }));
		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.Resume_1.fileName).toBe('cv.pdf');
		expect(host.requests.map((r) => r.path.split('?')[0])).toEqual([
			'/redirect/a',
			'/redirect/b',
			'/drip/cv.pdf',
		]);
	}, 20_000);
});

describe('the Timeout counts from the last byte, not from the start of the file', () => {
	it('a slow but steady host: 20 KB trickled over 2.5 s, a chunk every 125 ms, passes a Timeout of 1 s', async () => {
		const url = `${host.origin}/drip/cv.pdf?size=20000&overMs=2500`;
		const [formId, id] = await submissionWith({ Résumé: [{ url, filename: 'cv.pdf' }] });
		const started = Date.now();
		const result = await runFillout(sandbox(), getParameters(formId, id, { timeoutSeconds: 1 }));
		expect(result.error).toBeUndefined();
		// The file took more than twice the Timeout, in gaps shorter than it.
		expect(Date.now() - started).toBeGreaterThan(2_000);
		const stored = result.items[0].binary?.Resume_1;
		expect(Buffer.from(stored?.data ?? '', 'base64')).toEqual(Buffer.alloc(20_000, 2));
		expect(host.requests.map((r) => r.bytesSent)).toEqual([20_000]);
	}, 20_000);
});

describe('the connection to the file host is closed', () => {
	it('when n8n cancels the execution mid-file (the default Timeout of 120 s not reached)', async () => {
		const url = `${host.origin}/stall/cv.pdf?bytes=65536&length=1000000`;
		const [formId, id] = await submissionWith({ Résumé: [{ url, filename: 'cv.pdf' }] });
		const started = Date.now();
		const result = await runFillout(sandbox(), getParameters(formId, id), {
			cancelWhen: host.sending(),
		});
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(result.items.flatMap((item) => Object.keys(item.binary ?? {}))).toEqual([]);
		expect(await host.openAfter(1_000)).toEqual([]);
	}, 20_000);

	it("at once when n8n's binary data store gives up before the end of the file", async () => {
		jest
			.spyOn(BinaryDataService.prototype, 'store')
			.mockRejectedValue(new Error('No space left on device'));
		const url = `${host.origin}/drip/cv.pdf?size=200000&overMs=10000`;
		const [formId, id] = await submissionWith({ Résumé: [{ url, filename: 'cv.pdf' }] });
		const result = await runFillout(sandbox(), getParameters(formId, id));
		expect(result.error?.message).toBe(
			`Could not download "cv.pdf" (question "Résumé", submission ${id}): n8n could not store the file (No space left on device) [item 0]`,
		);
		expect(await host.openAfter(1_000)).toEqual([]);
		expect(host.requests[0].bytesSent).toBeLessThan(200_000);
	}, 20_000);

	it('when the declared length is over Max File Size: the item fails before the body is read', async () => {
		const url = `${host.origin}/stall/big.pdf?bytes=1000&length=5000000`;
		const [formId, id] = await submissionWith({ Photo: [{ url, filename: 'big.pdf' }] });
		const result = await runFillout(sandbox(), getParameters(formId, id, { maxFileSizeMb: 1 }));
		expect(result.error?.message).toBe(
			`Could not download "big.pdf" (question "Photo", submission ${id}): the file is larger than the Max File Size (1 MB) [item 0]`,
		);
		expect(await host.openAfter(1_000)).toEqual([]);
	}, 20_000);

	it('when another file of the item fails: the item fails at once, the other download stops', async () => {
		const [formId, id] = await submissionWith({
			Résumé: [{ url: `${host.origin}/drip/cv.pdf?size=200000&overMs=10000`, filename: 'cv.pdf' }],
			Photo: [{ url: `${host.origin}/missing/photo.png`, filename: 'photo.png' }],
		});
		const started = Date.now();
		const result = await runFillout(sandbox(), getParameters(formId, id));
		expect(result.error?.message).toBe(
			`Could not download "photo.png" (question "Photo", submission ${id}): the file host answered 404 [item 0]`,
		);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(await host.openAfter(1_000)).toEqual([]);
	}, 20_000);
});
