/**
 * Download Files against hosts that misbehave or are special: a file host that closes the
 * connection half-way through a file, and file addresses on the API's own host (fetched
 * without the credential like any other, never as an API call); and n8n's binary
 * data store refusing a file that arrived whole. The sandbox's rate limit is on, as on
 * the live service.
 */
import { BinaryDataService } from 'n8n-core';

import { fileChunks } from '../../../sandbox/files';
import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	newFileForm,
	respondWith,
	sha256,
} from './support/files';
import { formById, jsonOf, pairedIndex, resetStats, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 5 });

const getParameters = (formId: string, submissionId: string) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId,
	downloadFiles: true,
	fileOptions: SANDBOX_FILE_OPTIONS,
});

/** The hash of what the sandbox serves at an address (its content is generated from the path). */
function servedHash(url: string, size: number): string {
	return sha256(Buffer.concat([...fileChunks(new URL(url).pathname, size)]));
}

beforeEach(() => sandbox().context.files.reset());

describe('a file host that closes the connection half-way', () => {
	it('fails the item naming the item, question, file and how far it got; with Continue On Fail the others go on', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const good = `${files}/files/whole/cv.pdf?size=3000000`;
		const goodId = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: good, filename: 'cv.pdf' }] },
		});
		const cut = await respondWith(sandbox(), formId, {
			answers: {
				Résumé: [{ url: `${files}/files/whole/cv.pdf?size=3000000` }],
				Photo: [{ url: `${files}/files/cut/photo.png?size=3000000&breakAfter=1000000` }],
			},
		});
		const cutChunked = await respondWith(sandbox(), formId, {
			answers: {
				Photo: [{ url: `${files}/files/cut/scan.png?size=3000000&breakAfter=1000000&chunked=1` }],
			},
		});

		const result = await runFillout(sandbox(), getParameters(formId, '={{ $json.id }}'), {
			inputItems: [{ id: goodId }, { id: cut }, { id: cutChunked }, { id: goodId }],
			continueOnFail: true,
		});

		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2, 3]);
		const errors = jsonOf(result).map((json) => json.error);
		expect(errors[1]).toMatch(
			new RegExp(
				`^Could not download "photo\\.png" \\(question "Photo", submission ${cut}\\): the download broke off after (\\d+) of 3000000 bytes \\(ECONNRESET\\) \\[item 1\\]$`,
			),
		);
		expect(errors[2]).toMatch(
			new RegExp(
				`^Could not download "scan\\.png" \\(question "Photo", submission ${cutChunked}\\): the download broke off after (\\d+) bytes \\(ECONNRESET\\) \\[item 2\\]$`,
			),
		);
		// What the node says it read is no more than what the host sent.
		for (const error of [errors[1], errors[2]])
			expect(Number(/after (\d+)/.exec(String(error))?.[1])).toBeLessThanOrEqual(1_000_000);
		for (const index of [0, 3]) {
			expect(errors[index]).toBeUndefined();
			const binary = result.items[index].binary!.Resume_1;
			expect(sha256(await bytesOfBinary(binary))).toBe(await directHash(good));
		}
		// The host really stopped half-way: never more than a million bytes of either.
		const served = sandbox().context.files.requests.filter((r) => r.path.startsWith('/files/cut/'));
		expect(served.map((r) => r.bytesSent)).toEqual([1_000_000, 1_000_000]);
	});

	it('without Continue On Fail the execution stops with that error', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const id = await respondWith(sandbox(), formId, {
			answers: {
				Résumé: [{ url: `${files}/files/cut/cv.pdf?size=500000&breakAfter=0`, filename: 'cv.pdf' }],
			},
		});
		const result = await runFillout(sandbox(), getParameters(formId, id));
		expect(result.error?.message).toBe(
			`Could not download "cv.pdf" (question "Résumé", submission ${id}): the download broke off after 0 of 500000 bytes (ECONNRESET) [item 0]`,
		);
		expect(result.error?.name).toBe('NodeOperationError');
	});
});

describe('n8n refusing to store a file that arrived whole', () => {
	afterEach(() => jest.restoreAllMocks());

	it('says the store refused it (n8n’s words), not that the download broke off', async () => {
		// As n8n's database mode does past N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE: the file is
		// read to its end, then refused.
		jest.spyOn(BinaryDataService.prototype, 'store').mockImplementation(async (_location, data) => {
			if (!Buffer.isBuffer(data)) for await (const chunk of data) void chunk;
			throw new Error('Failed to write binary file: over the size limit');
		});
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const id = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: `${files}/files/big/cv.pdf?size=400000`, filename: 'cv.pdf' }] },
		});
		const result = await runFillout(sandbox(), getParameters(formId, id));
		expect(result.error?.message).toBe(
			`Could not download "cv.pdf" (question "Résumé", submission ${id}): n8n could not store the file (Failed to write binary file: over the size limit) [item 0]`,
		);
		expect(sandbox().context.files.requests.map((r) => r.bytesSent)).toEqual([400000]);
	});
});

describe('a file address on the API host', () => {
	it('is fetched without the key: an API endpoint or a file route that needs the key fails its item, and nothing reaches the API with the key', async () => {
		const formId = await newFileForm(sandbox());
		const cases: Array<[string, string]> = [
			// Old code sent the key here: the item's binary held the account's form list.
			[`${sandbox().origin}/v1/api/forms`, 'forms'],
			[`${sandbox().origin}/v1/api/files/own/report.pdf?size=2000`, 'report.pdf'],
		];
		for (const [url, fileName] of cases) {
			const id = await respondWith(sandbox(), formId, { answers: { Résumé: [{ url }] } });
			await resetStats(sandbox());
			const result = await runFillout(sandbox(), getParameters(formId, id));
			expect(result.error?.message).toBe(
				`Could not download "${fileName}" (question "Résumé", submission ${id}): the file host answered 400 [item 0]`,
			);
			expect(result.items.flatMap((item) => Object.keys(item.binary ?? {}))).toEqual([]);
			// The node's only request with the key is the one for the submission.
			const stats = sandbox().context.stats.snapshot().byKey[sandbox().demo.apiKey];
			expect(stats.requests).toEqual({
				'GET /v1/api/forms/:formId/submissions/:submissionId': 1,
			});
		}
		expect(sandbox().context.files.withAuthorization()).toEqual([]);
	});

	it('that redirects to another host carries the key on neither hop', async () => {
		const elsewhere = `${fileOrigin(sandbox())}/files/moved/cv.pdf?size=30000`;
		const onApiHost = `${sandbox().origin}/files/redirect/cv.pdf?to=${encodeURIComponent(elsewhere)}`;
		const formId = await newFileForm(sandbox());
		const id = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: onApiHost, filename: 'cv.pdf' }] },
		});

		const result = await runFillout(sandbox(), getParameters(formId, id));

		expect(result.error).toBeUndefined();
		expect(sandbox().context.files.requests).toEqual([
			expect.objectContaining({ host: new URL(sandbox().origin).host, authorization: false }),
			expect.objectContaining({ host: new URL(elsewhere).host, authorization: false }),
		]);
		expect(sha256(await bytesOfBinary(result.items[0].binary!.Resume_1))).toBe(
			servedHash(elsewhere, 30_000),
		);
	});
});
