/**
 * The Fillout Polling Trigger with Download Files, in n8n-core's real PollContext against
 * the sandbox over HTTP: the files of each emitted submission arrive as binary data, byte
 * for byte; a file that cannot be fetched is noted on its item and never stops the cursor;
 * Fetch Test Event brings the files too. No file request carries the credential.
 */
import { sleep, type IDataObject } from 'n8n-workflow';

import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	newFileForm,
	respondWith,
	sha256,
} from '../nodes/integration/support/files';
import { startFileHost } from '../nodes/integration/support/fileHost';
import { control, useSandbox } from '../nodes/integration/support';
import * as reading from '../../nodes/Fillout/reading/readSubmissions';
import { countingRequests, idsOf, pollingTrigger } from './support';

const sandbox = useSandbox();

beforeEach(() => sandbox().context.files.reset());
afterEach(() => expect(sandbox().context.files.withAuthorization()).toEqual([]));

function answersWithFiles(resumeUrl: string, signatureUrl: string): IDataObject {
	return {
		Name: 'Ana',
		Résumé: [{ url: resumeUrl, filename: 'cv.pdf' }],
		Signature: signatureUrl,
	};
}

describe('Download Files on the polling trigger', () => {
	it('emits each new submission once with its uploads, signature and documents as binary data', async () => {
		const files = fileOrigin(sandbox());
		const urls = {
			cv: `${files}/files/p1/cv.pdf?size=2000000`,
			signature: `${files}/files/p2/signature.png`,
			summary: `${files}/files/p3/summary.pdf`,
		};
		const formId = await newFileForm(sandbox());
		const trigger = pollingTrigger(sandbox(), formId, {
			downloadFiles: true,
			fileOptions: SANDBOX_FILE_OPTIONS,
		});
		await trigger.activate();
		const submissionId = await respondWith(sandbox(), formId, {
			answers: answersWithFiles(urls.cv, urls.signature),
			documents: [{ id: 'd1', name: 'Summary', url: urls.summary }],
		});

		const polled = await trigger.poll();
		expect(idsOf(polled.items)).toEqual([submissionId]);
		const [item] = polled.items ?? [];
		expect(item.json).toMatchObject({ Name: 'Ana', status: 'finished', formId });
		const expected: Record<string, [string, string, string]> = {
			Resume_1: [urls.cv, 'cv.pdf', 'application/pdf'],
			Signature_1: [urls.signature, 'signature.png', 'image/png'],
			document_1: [urls.summary, 'summary.pdf', 'application/pdf'],
		};
		expect(Object.keys(item.binary ?? {})).toEqual(Object.keys(expected));
		for (const [property, [url, fileName, mimeType]] of Object.entries(expected)) {
			const binary = item.binary![property];
			expect([binary.fileName, binary.mimeType]).toEqual([fileName, mimeType]);
			expect(sha256(await bytesOfBinary(binary))).toBe(await directHash(url));
		}
		expect((item.json.files as IDataObject[]).map((file) => file.binaryProperty)).toEqual(
			Object.keys(expected),
		);

		const idle = await countingRequests(sandbox(), () => trigger.poll());
		expect(idle.result).toEqual({ items: null });
		expect([idle.list, idle.metadata]).toEqual([1, 0]);
	});

	it('a file that cannot be fetched is noted on its item; the cursor moves on and the next submission comes', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const trigger = pollingTrigger(sandbox(), formId, {
			downloadFiles: true,
			fileOptions: SANDBOX_FILE_OPTIONS,
		});
		await trigger.activate();
		const broken = await respondWith(sandbox(), formId, {
			answers: answersWithFiles(`${files}/files/missing/cv.pdf`, `${files}/files/q/signature.png`),
		});

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		expect(idsOf(first.items)).toEqual([broken]);
		const [item] = first.items ?? [];
		expect(Object.keys(item.binary ?? {})).toEqual(['Signature_1']);
		expect((item.json.files as IDataObject[])[0]).toMatchObject({
			binaryProperty: 'Resume_1',
			error: `Could not download "cv.pdf" (question "Résumé", submission ${broken}): the file host answered 404`,
		});

		const next = await respondWith(sandbox(), formId, {
			answers: answersWithFiles(`${files}/files/r/cv.pdf`, `${files}/files/r/signature.png`),
		});
		const second = await trigger.poll();
		expect(idsOf(second.items)).toEqual([next]);
		expect(Object.keys(second.items?.[0].binary ?? {})).toEqual(['Resume_1', 'Signature_1']);
	});
});

describe("Download Files on the polling trigger within n8n's poll budget", () => {
	it("files that take longer than n8n's poll budget: each poll emits the oldest submissions with all their files, the next goes on", async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		// Downloads start until 0.6 × 4 s and end at 0.8 × 4 s. Each file takes 300 ms, four at
		// a time (two submissions): the rounds that start by 2.4 s end long before 3.2 s, and
		// 20 submissions need ten rounds, more than one poll holds.
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS },
			{ pollBudgetMs: 4_000 },
		);
		await trigger.activate();
		const made: string[] = [];
		for (let n = 0; n < 20; n++) {
			const url = (name: string) => `${files}/files/slow${n}/${name}?delayMs=300`;
			made.push(
				await respondWith(sandbox(), formId, {
					answers: answersWithFiles(url('cv.pdf'), url('signature.png')),
				}),
			);
		}
		const perPoll: string[][] = [];
		while (perPoll.flat().length < made.length && perPoll.length < 10) {
			const polled = await trigger.poll();
			expect(polled.error).toBeUndefined();
			for (const item of polled.items ?? []) {
				expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1', 'Signature_1']);
				expect((item.json.files as IDataObject[]).filter((file) => file.error)).toEqual([]);
			}
			perPoll.push(idsOf(polled.items));
		}
		// Each once (submissions made in one millisecond come in id order, not in the order made).
		expect([...perPoll.flat()].sort()).toEqual([...made].sort());
		expect(perPoll.filter((ids) => ids.length > 0).length).toBeGreaterThan(1);
		expect((await trigger.poll()).items).toBeNull();
	});

	it("a file still downloading at 80 % of n8n's poll budget is stopped and noted; the submission is emitted and its file not fetched again", async () => {
		const host = await startFileHost();
		try {
			const formId = await newFileForm(sandbox());
			const trigger = pollingTrigger(
				sandbox(),
				formId,
				{ downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS },
				{ pollBudgetMs: 2_000 },
			);
			await trigger.activate();
			// 20 KB dripped over 6 s: it cannot arrive within a 2 s budget. (Stopped at 1.6 s, the
			// poll has 400 ms to end in: 200 ms, at a 1 s budget, was too thin for a busy host.)
			const slow = `${host.origin}/drip/cv.pdf?size=20000&overMs=6000`;
			const id = await respondWith(sandbox(), formId, {
				answers: answersWithFiles(slow, `${fileOrigin(sandbox())}/files/d/signature.png`),
			});

			const started = Date.now();
			const polled = await trigger.poll();
			expect(Date.now() - started).toBeLessThan(2_000);
			expect(idsOf(polled.items)).toEqual([id]);
			const [item] = polled.items ?? [];
			expect(Object.keys(item.binary ?? {})).toEqual(['Signature_1']);
			expect((item.json.files as IDataObject[])[0]).toMatchObject({
				binaryProperty: 'Resume_1',
				error: `Could not download "cv.pdf" (question "Résumé", submission ${id}): not downloaded within the poll's time (n8n's poll budget)`,
			});
			expect(await host.openAfter(500)).toEqual([]);
			expect(host.requests[0].bytesSent).toBeLessThan(20_000);

			expect((await trigger.poll()).items).toBeNull();
			expect(host.requests).toHaveLength(1);
		} finally {
			await host.close();
		}
	});

	it('one id in both lists (in progress at the first read, finished by the listing): a cut by files emits each finished one once, none dropped', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		// Downloads start until 0.6 × 4 s and are stopped at 0.8 × 4 s. Four run at a time: A's,
		// the finished X's two and B's start at once and outlast 2.4 s, so the in-progress X's
		// do not start: the items end before it.
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS, inProgress: 'once' },
			{ pollBudgetMs: 4_000 },
		);
		await trigger.activate();
		const url = (token: string, name: string) => `${files}/files/${token}/${name}?delayMs=3500`;
		const respond = async (answers: IDataObject, status?: 'in_progress') =>
			(
				await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
					answers,
					fillUnanswered: false,
					status,
					submission: { documents: [] },
				})
			).submission as IDataObject;
		const x = await respond(
			answersWithFiles(url('x', 'cv.pdf'), url('x', 'sig.png')),
			'in_progress',
		);
		const a = await respond({ Résumé: [{ url: url('a', 'cv.pdf'), filename: 'cv.pdf' }] });
		await sleep(20);
		const b = await respond({ Résumé: [{ url: url('b', 'cv.pdf'), filename: 'cv.pdf' }] });
		// X is submitted between the in-progress read and the listing, dated between A and B.
		const xFinishedAt = new Date(Date.parse(a.submissionTime as string) + 10).toISOString();
		const read = jest.spyOn(reading, 'readSubmissions');
		read.mockImplementation(async (...args) => {
			const listed = await reading.readSubmissionsUntil(
				args[0],
				args[1],
				args[2],
				args[3] ?? {},
				{},
			);
			if (args[3]?.status === 'in_progress') {
				read.mockRestore();
				await control(sandbox(), 'PATCH', `/forms/${formId}/submissions/${x.submissionId}`, {
					status: 'finished',
					submissionTime: xFinishedAt,
				});
			}
			return listed.submissions;
		});

		const first = await trigger.poll();
		expect(first.error).toBeUndefined();
		const second = await trigger.poll();
		const emitted = [...(first.items ?? []), ...(second.items ?? [])];
		expect(emitted.map((item) => [item.json.submissionId, item.json.status])).toEqual([
			[a.submissionId, 'finished'],
			[x.submissionId, 'finished'],
			[b.submissionId, 'finished'],
		]);
		expect(idsOf(first.items)).toEqual([a.submissionId, x.submissionId, b.submissionId]);
	});

	it('a listing slower than 60 % of the budget still emits the first submission of each poll, its files fetched or noted', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const trigger = pollingTrigger(
			sandbox(),
			formId,
			{ downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS },
			{ pollBudgetMs: 400 },
		);
		await trigger.activate();
		const made: string[] = [];
		for (let n = 0; n < 3; n++) {
			const url = (name: string) => `${files}/files/late${n}/${name}`;
			made.push(
				await respondWith(sandbox(), formId, {
					answers: answersWithFiles(url('cv.pdf'), url('signature.png')),
				}),
			);
		}
		// Every list request takes 300 ms: past 0.6 × 400 ms before any download could start.
		// (n8n abandons a poll at 800 ms here: at 200 and 150 ms the margin was thin for a busy host.)
		await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
		try {
			const emitted: string[] = [];
			for (let poll = 0; poll < 6 && emitted.length < made.length; poll++) {
				const polled = await trigger.poll();
				expect(polled.error).toBeUndefined();
				emitted.push(...idsOf(polled.items));
				for (const item of polled.items ?? []) {
					const entries = item.json.files as IDataObject[];
					for (const entry of entries)
						expect(Object.keys(item.binary ?? {}).includes(String(entry.binaryProperty))).toBe(
							entry.error === undefined,
						);
				}
			}
			expect(emitted).toEqual(made);
		} finally {
			await control(sandbox(), 'POST', '/faults', { latencyMs: 0 });
		}
	});
});

describe('Download Files on the polling trigger: private addresses, test events, the option off', () => {
	it('a file at a private network address is noted on its item and not requested, with the option off', async () => {
		const host = await startFileHost();
		try {
			const formId = await newFileForm(sandbox());
			const trigger = pollingTrigger(sandbox(), formId, { downloadFiles: true });
			await trigger.activate();
			const id = await respondWith(sandbox(), formId, {
				answers: answersWithFiles(
					`${host.origin}/drip/cv.pdf?size=100`,
					'http://169.254.169.254/latest/meta-data/signature.png',
				),
			});
			const [item] = (await trigger.poll()).items ?? [];
			expect(item.json.submissionId).toBe(id);
			expect(item.binary).toBeUndefined();
			expect((item.json.files as IDataObject[]).map((file) => file.error)).toEqual([
				`Could not download "cv.pdf" (question "Résumé", submission ${id}): the address points at 127.0.0.1 (a loopback address); turn on "Allow Private Network Addresses" under File Options to fetch files from your own network`,
				`Could not download "signature.png" (question "Signature", submission ${id}): the address points at 169.254.169.254 (a link-local or cloud metadata address), which is never fetched`,
			]);
			expect(host.requests).toEqual([]);
		} finally {
			await host.close();
		}
	});

	it('Fetch Test Event brings the newest submission with its files and leaves the cursor', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const trigger = pollingTrigger(sandbox(), formId, {
			downloadFiles: true,
			fileOptions: SANDBOX_FILE_OPTIONS,
		});
		await trigger.activate();
		const submissionId = await respondWith(sandbox(), formId, {
			answers: answersWithFiles(`${files}/files/m/cv.pdf`, `${files}/files/m/signature.png`),
		});

		const test = await trigger.fetchTestEvent();
		expect(idsOf(test.items)).toEqual([submissionId]);
		expect(Object.keys(test.items?.[0].binary ?? {})).toEqual(['Resume_1', 'Signature_1']);
		expect(idsOf((await trigger.poll()).items)).toEqual([submissionId]);
	});

	it('with the option off, items carry no binary data and no file list', async () => {
		const files = fileOrigin(sandbox());
		const formId = await newFileForm(sandbox());
		const trigger = pollingTrigger(sandbox(), formId);
		await trigger.activate();
		await respondWith(sandbox(), formId, {
			answers: answersWithFiles(`${files}/files/o/cv.pdf`, `${files}/files/o/signature.png`),
		});
		const [item] = (await trigger.poll()).items ?? [];
		expect(item.binary).toBeUndefined();
		expect(item.json).not.toHaveProperty('files');
		expect(sandbox().context.files.requests).toEqual([]);
	});
});
