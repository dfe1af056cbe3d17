/**
 * Download Files within n8n's poll budget, exactly: once the listing has run past the
 * start-by time (60 % of the budget), only the first submission's downloads start; the
 * poll emits it alone, with all its files, and the next poll fetches the next one. In
 * n8n-core's real PollContext against the sandbox over HTTP, with a slow listing.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	SANDBOX_FILE_OPTIONS,
	bytesOfBinary,
	directHash,
	fileOrigin,
	newFileForm,
	respondWith,
	sha256,
} from '../nodes/integration/support/files';
import { control, useSandbox } from '../nodes/integration/support';
import { idsOf, pollingTrigger } from './support';

const sandbox = useSandbox({ rateLimit: 0 });

beforeEach(() => sandbox().context.files.reset());
afterEach(async () => {
	await control(sandbox(), 'DELETE', '/faults');
	expect(sandbox().context.files.withAuthorization()).toEqual([]);
});

it('a listing past the start-by time: each poll emits exactly the oldest submission, with all its files fetched', async () => {
	const files = fileOrigin(sandbox());
	const formId = await newFileForm(sandbox());
	// Budget 5 s: downloads start until 3 s and are stopped at 4 s. Every list request takes
	// 3.1 s: past the start-by time, with 900 ms left for the first submission's two files.
	const trigger = pollingTrigger(
		sandbox(),
		formId,
		{ downloadFiles: true, fileOptions: SANDBOX_FILE_OPTIONS },
		{ pollBudgetMs: 5_000 },
	);
	await trigger.activate();
	const made: string[] = [];
	const urls = new Map<string, string[]>();
	for (let n = 0; n < 3; n++) {
		const cv = `${files}/files/budget${n}/cv.pdf`;
		const signature = `${files}/files/budget${n}/signature.png`;
		const id = await respondWith(sandbox(), formId, {
			answers: { Résumé: [{ url: cv, filename: 'cv.pdf' }], Signature: signature },
		});
		made.push(id);
		urls.set(id, [cv, signature]);
	}
	await control(sandbox(), 'POST', '/faults', { latencyMs: 3_100 });

	const perPoll: string[][] = [];
	for (let poll = 0; poll < 3; poll++) {
		const polled = await trigger.poll();
		expect(polled.error).toBeUndefined();
		perPoll.push(idsOf(polled.items));
		for (const item of polled.items ?? []) {
			const entries = item.json.files as IDataObject[];
			expect(entries.filter((entry) => entry.error !== undefined)).toEqual([]);
			expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1', 'Signature_1']);
			const [cv, signature] = urls.get(String(item.json.submissionId))!;
			expect(sha256(await bytesOfBinary(item.binary!.Resume_1))).toBe(await directHash(cv));
			expect(sha256(await bytesOfBinary(item.binary!.Signature_1))).toBe(
				await directHash(signature),
			);
		}
	}
	// Submissions made in one millisecond come in id order: compare as sets per poll.
	expect(perPoll.map((ids) => ids.length)).toEqual([1, 1, 1]);
	expect(perPoll.flat().sort()).toEqual([...made].sort());
	expect((await trigger.poll()).items).toBeNull();
}, 60_000);

it('with an answer filter: each poll emits the oldest match with its files; the others are handled, never emitted', async () => {
	const files = fileOrigin(sandbox());
	const formId = await newFileForm(sandbox());
	// Budget 10 s: downloads start until 6 s. The listing and the form's read for the
	// filter take 3.1 s each: past the start-by time, with 1.8 s for the first match's file.
	const trigger = pollingTrigger(
		sandbox(),
		formId,
		{
			downloadFiles: true,
			fileOptions: SANDBOX_FILE_OPTIONS,
			filters: { answer: { filter: { question: 'Name', condition: 'equals', value: 'match' } } },
		},
		{ pollBudgetMs: 10_000 },
	);
	await trigger.activate();
	const made: string[] = [];
	for (const [n, name] of ['other', 'match', 'other', 'match'].entries()) {
		const answer = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
			answers: { Name: name, Résumé: [{ url: `${files}/files/f${n}/cv.pdf`, filename: 'cv.pdf' }] },
			fillUnanswered: false,
			submission: {
				documents: [],
				submissionTime: new Date(Date.now() - (10 - n) * 1000).toISOString(),
			},
		});
		made.push(answer.submission.submissionId as string);
	}
	await control(sandbox(), 'POST', '/faults', { latencyMs: 3_100 });
	const perPoll: string[][] = [];
	for (let poll = 0; poll < 2; poll++) {
		const polled = await trigger.poll();
		expect(polled.error).toBeUndefined();
		perPoll.push(idsOf(polled.items));
		for (const item of polled.items ?? []) {
			expect((item.json.files as IDataObject[]).filter((entry) => entry.error)).toEqual([]);
			expect(Object.keys(item.binary ?? {})).toEqual(['Resume_1']);
		}
	}
	expect(perPoll).toEqual([[made[1]], [made[3]]]);
	await control(sandbox(), 'DELETE', '/faults');
	expect((await trigger.poll()).items).toBeNull();
}, 60_000);
