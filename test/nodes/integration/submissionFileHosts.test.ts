/**
 * Download Files against hosts that misbehave or are special: a file host that closes the
 * connection half-way through a file, and a file served by the API's own host (the only
 * file request that gets the credential, paced with the API's requests); and n8n's binary
 * data store refusing a file that arrived whole. The sandbox's rate limit is on, as on
 * the live service.
 */
import { BinaryDataService } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { fileChunks } from '../../../sandbox/files';
import { bytesOfBinary, fileOrigin, newFileForm, respondWith, sha256 } from './filesSupport';
import { formById, jsonOf, pairedIndex, resetStats, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 5 });

const getParameters = (formId: string, submissionId: string) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId,
	downloadFiles: true,
});

/** The hash of a file fetched straight from the sandbox's file host. */
async function directHash(url: string): Promise<string> {
	const response = await fetch(url);
	expect(response.status).toBe(200);
	return sha256(Buffer.from(await response.arrayBuffer()));
}

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

describe('a file served by the API host itself', () => {
	it('gets the API key, only it, and is paced with the API requests (no 429 at 5 requests per second)', async () => {
		const apiFiles = `${sandbox().origin}/v1/api/files`;
		const urls = Array.from(
			{ length: 8 },
			(_, i) => `${apiFiles}/own${i}/report-${i}.pdf?size=20000`,
		);
		const elsewhere = `${fileOrigin(sandbox())}/files/other/photo.png`;
		const formId = await newFileForm(sandbox());
		const id = await respondWith(sandbox(), formId, {
			answers: {
				Résumé: urls.map((url, i) => ({ url, filename: `report-${i}.pdf` })),
				Photo: [{ url: elsewhere, filename: 'photo.png' }],
			},
		});
		await resetStats(sandbox());
		sandbox().context.rateLimiter.reset();

		const result = await runFillout(sandbox(), getParameters(formId, id));

		expect(result.error).toBeUndefined();
		const demoKey = sandbox().demo.apiKey;
		const stats = sandbox().context.stats.snapshot().byKey[demoKey];
		// One request for the submission and one per file on the API's host, none refused.
		expect(stats.requests).toEqual({
			'GET /v1/api/forms/:formId/submissions/:submissionId': 1,
			'GET /v1/api/files/:token/:name': 8,
		});
		expect(stats.rateLimited).toBe(0);
		// The sandbox's record of Authorization headers: every file request on the API's
		// host carried one; the file on another host none.
		const requests = sandbox().context.files.requests;
		const onApi = requests.filter((r) => r.path.startsWith('/v1/api/files/'));
		expect(onApi.map((r) => r.authorization)).toEqual(Array(8).fill(true));
		expect(requests.filter((r) => r.path.startsWith('/files/'))).toEqual([
			expect.objectContaining({ path: '/files/other/photo.png', authorization: false }),
		]);

		const binary = result.items[0].binary ?? {};
		expect(Object.keys(binary).sort()).toEqual(
			['Photo_1', ...urls.map((_, i) => `Resume_${i + 1}`)].sort(),
		);
		for (const [i, url] of urls.entries()) {
			expect(binary[`Resume_${i + 1}`].fileName).toBe(`report-${i}.pdf`);
			expect(sha256(await bytesOfBinary(binary[`Resume_${i + 1}`]))).toBe(servedHash(url, 20_000));
		}
		expect(sha256(await bytesOfBinary(binary.Photo_1))).toBe(await directHash(elsewhere));
	});

	it('without a credential the API host refuses the file, as any API call', async () => {
		const response = await fetch(`${sandbox().origin}/v1/api/files/own/x.pdf`);
		expect(response.status).toBe(400);
		expect(((await response.json()) as IDataObject).message).toBe(
			'API authorization header missing',
		);
	});
});
