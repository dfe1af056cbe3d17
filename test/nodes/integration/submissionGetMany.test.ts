import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	control,
	demoFormId,
	formById,
	generate,
	jsonOf,
	listAllSubmissions,
	listDirect,
	newForm,
	runFillout,
	useSandbox,
} from './support';
import { sleep } from '../../../sandbox/timers';

const sandbox = useSandbox();

async function formWith(
	count: number,
	stepMs = 60_000,
	startTime = '2024-03-01T00:00:00.000Z',
): Promise<string> {
	const form = await newForm(sandbox());
	if (count > 0) await generate(sandbox(), form.id, { count, stepMs, startTime });
	return form.id;
}

async function getMany(formId: string, extra: INodeParameters = {}) {
	const { result, listRequests } = await listAllSubmissions(sandbox(), formId, extra);
	return { result, listRequests };
}

describe('Submission → Get Many: Return All costs at most ceil(N / 150) + 2 requests', () => {
	// The read ends at a page shorter than asked: 150 and 299 take one request more to see it.
	// 1,234 is read in ranges side by side: when the newest range's last page is answered
	// before an older one's, it reads once more (it must end last).
	it.each([
		[0, 1, 1],
		[1, 1, 1],
		[150, 2, 2],
		[151, 2, 2],
		[299, 3, 3],
		[1234, 9, 11],
	])(
		'%i submissions → %i to %i request(s), each submission once, in order',
		async (count, least, most) => {
			const formId = await formWith(count);
			const { result, listRequests } = await getMany(formId);
			expect(result.error).toBeUndefined();
			const ids = jsonOf(result).map((s) => s.submissionId);
			expect(ids).toHaveLength(count);
			expect(new Set(ids).size).toBe(count);
			const times = jsonOf(result).map((s) => Date.parse(String(s.submissionTime)));
			expect(times).toEqual([...times].sort((a, b) => a - b));
			expect(listRequests).toBeGreaterThanOrEqual(least);
			expect(listRequests).toBeLessThanOrEqual(most);
			expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
				true,
			);
		},
	);

	it('reads 400 submissions that share one timestamp (by offset, twice, to compare orders)', async () => {
		const formId = await formWith(400, 0);
		await generate(sandbox(), formId, { count: 10, stepMs: 1000 });
		const { result, listRequests } = await getMany(formId);
		const ids = jsonOf(result).map((s) => s.submissionId);
		expect(new Set(ids).size).toBe(410);
		expect(ids).toHaveLength(410);
		expect(listRequests).toBe(6);
	});

	it('sorts newest first and pages the same way', async () => {
		const formId = await formWith(320);
		const { result, listRequests } = await getMany(formId, { filters: { sort: 'desc' } });
		const direct = await listDirect(sandbox(), formId, { sort: 'desc', limit: '1' });
		expect(jsonOf(result)[0].submissionId).toBe(direct.responses[0].submissionId);
		const times = jsonOf(result).map((s) => Date.parse(String(s.submissionTime)));
		expect(times).toEqual([...times].sort((a, b) => b - a));
		expect(new Set(jsonOf(result).map((s) => s.submissionId)).size).toBe(320);
		expect(listRequests).toBe(3);
	});
});

describe('Submission → Get Many: pages in flight', () => {
	afterEach(async () => {
		await control(sandbox(), 'DELETE', '/faults');
	});

	it('Return All of 3,000 at 300 ms per request keeps up to 5 pages in flight, each submission once, in order', async () => {
		const formId = await formWith(3_000);
		await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
		await control(sandbox(), 'POST', '/stats/reset');
		// The pacer is the process's: earlier tests' requests hold places for 1,010 ms.
		await sleep(1_100);
		const { result, listRequests } = await getMany(formId);
		const stats = await control(sandbox(), 'GET', '/stats');
		expect(result.error).toBeUndefined();
		const ids = jsonOf(result).map((s) => s.submissionId);
		expect(new Set(ids).size).toBe(3_000);
		const times = jsonOf(result).map((s) => Date.parse(String(s.submissionTime)));
		expect(times).toEqual([...times].sort((a, b) => a - b));
		// Up to Fillout's 5 in flight: 4 probes go at once when the first page comes back
		// (its place is still held), and later pages in groups as places come free.
		expect(stats.mostAtOnce).toBeGreaterThanOrEqual(4);
		expect(stats.mostAtOnce).toBeLessThanOrEqual(5);
		expect(listRequests).toBeLessThanOrEqual(Math.ceil(3_000 / 150) + 2);
	});

	it('a Limit read stays one request, one at a time', async () => {
		const formId = await formWith(3_000);
		await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
		await control(sandbox(), 'POST', '/stats/reset');
		const { result, listRequests } = await getMany(formId, { returnAll: false, limit: 10 });
		const stats = await control(sandbox(), 'GET', '/stats');
		expect(jsonOf(result)).toHaveLength(10);
		expect(listRequests).toBe(1);
		expect(stats.mostAtOnce).toBe(1);
	});
});

describe('Submission → Get Many: Limit', () => {
	it('stops as soon as it has enough: Limit 30 is one request', async () => {
		const formId = await formWith(500);
		const { result, listRequests } = await getMany(formId, { returnAll: false, limit: 30 });
		expect(result.items).toHaveLength(30);
		expect(listRequests).toBe(1);
		const { result: more, listRequests: moreRequests } = await getMany(formId, {
			returnAll: false,
			limit: 400,
		});
		expect(more.items).toHaveLength(400);
		expect(new Set(jsonOf(more).map((s) => s.submissionId)).size).toBe(400);
		expect(moreRequests).toBe(3);
	});
});

const answerOf = (submission: IDataObject, name: string) =>
	(submission.questions as IDataObject[]).find((question) => question.name === name)?.value;

describe('Submission → Get Many: dates and parameters', () => {
	it('reads dates in the workflow’s time zone and sends them with an offset', async () => {
		// One submission per hour from 2024-03-01T00:00Z.
		const formId = await formWith(48, 3_600_000);
		const run = async (timezone: string, filters: INodeParameters) =>
			jsonOf(
				await runFillout(
					sandbox(),
					{
						resource: 'submission',
						operation: 'getMany',
						form: formById(formId),
						returnAll: true,
						simplify: false,
						filters,
					},
					{ timezone },
				),
			).map((s) => String(s.submissionTime));
		// Midnight in Berlin is 23:00Z the day before: strictly after it starts at 00:00Z.
		const berlin = await run('Europe/Berlin', {
			afterDate: '2024-03-01T23:30:00',
			beforeDate: '2024-03-02T02:30:00',
		});
		const utc = await run('UTC', {
			afterDate: '2024-03-01T23:30:00',
			beforeDate: '2024-03-02T02:30:00',
		});
		expect(utc).toEqual([
			'2024-03-02T00:00:00.000Z',
			'2024-03-02T01:00:00.000Z',
			'2024-03-02T02:00:00.000Z',
		]);
		expect(berlin).toEqual([
			'2024-03-01T23:00:00.000Z',
			'2024-03-02T00:00:00.000Z',
			'2024-03-02T01:00:00.000Z',
		]);
		// Luxon DateTimes from expressions keep their instant.
		expect(
			await run('UTC', {
				afterDate: "={{ DateTime.fromISO('2024-03-01T23:30:00', { zone: 'Europe/Berlin' }) }}",
				beforeDate: "={{ DateTime.fromISO('2024-03-02T02:30:00', { zone: 'Europe/Berlin' }) }}",
			}),
		).toEqual(berlin);
		// An explicit offset wins over the workflow zone.
		expect(
			await run('Asia/Tokyo', {
				afterDate: '2024-03-01T23:30:00Z',
				beforeDate: '2024-03-02T02:30:00+00:00',
			}),
		).toEqual(utc);
	});

	it('reports an unreadable date naming the item and the field', async () => {
		const formId = await formWith(3);
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'getMany',
			form: formById(formId),
			returnAll: true,
			filters: { afterDate: 'next tuesday' },
		});
		expect(result.error?.message).toBe(
			'"Submitted After" is not a readable date: "next tuesday" [item 0]',
		);
		expect(result.items).toEqual([]);
	});

	it('passes on the service’s message for an invalid parameter', async () => {
		const formId = await formWith(3);
		const message = 'status must be one of: finished, in_progress; got "done"';
		await control(sandbox(), 'POST', '/faults', {
			failNext: {
				count: 1,
				status: 400,
				method: 'GET',
				body: { statusCode: 400, error: 'Bad Request', message },
			},
		});
		const { result, listRequests } = await getMany(formId);
		expect(result.error?.message).toBe(`Fillout rejected the request: ${message}`);
		// A 400 is not retried.
		expect(listRequests).toBe(1);
	});
});

describe('Submission → Get Many: filters, links, previews and Simplify', () => {
	it('filters by status, search text, and adds edit links and previews', async () => {
		const form = await newForm(sandbox(), {
			questions: [
				{ name: 'Name', type: 'ShortAnswer' },
				{ name: 'Note', type: 'LongAnswer' },
			],
		});
		const respond = async (body: IDataObject) =>
			await control(sandbox(), 'POST', `/forms/${form.id}/respond`, body);
		const first = await respond({
			answers: { Name: 'Zoë Unique-Needle', Note: 'x' },
			submission: { submissionTime: '2024-04-01T10:00:00.000Z' },
		});
		const second = await respond({
			answers: { Name: 'Bob', Note: 'y' },
			submission: { submissionTime: '2024-04-01T11:00:00.000Z' },
		});
		await respond({ answers: { Name: 'Half done' }, status: 'in_progress' });
		await respond({ answers: { Name: 'Preview person' }, preview: true });

		const names = async (filters: INodeParameters, options: INodeParameters = {}) => {
			const result = await runFillout(sandbox(), {
				resource: 'submission',
				operation: 'getMany',
				form: formById(form.id),
				returnAll: true,
				filters,
				options,
			});
			expect(result.error).toBeUndefined();
			return jsonOf(result);
		};
		expect((await names({})).map((s) => s.Name)).toEqual(['Zoë Unique-Needle', 'Bob']);
		expect((await names({ status: 'in_progress' })).map((s) => s.Name)).toEqual(['Half done']);
		expect((await names({ search: 'unique-needle' })).map((s) => s.Name)).toEqual([
			'Zoë Unique-Needle',
		]);
		expect((await names({}, { includePreview: true })).map((s) => s.Name)).toContain(
			'Preview person',
		);
		// Each finished submission with the link to edit it (the sandbox's format).
		const withLinks = await names({}, { includeEditLink: true });
		expect(withLinks.map((s) => [s.Name, s.editLink])).toEqual(
			[first, second].map(({ submission }) => [
				answerOf(submission, 'Name'),
				`${sandbox().origin}/t/${form.id}?session=${submission.submissionId}`,
			]),
		);
		expect((await names({})).every((s) => !('editLink' in s))).toBe(true);
	});

	it('simplifies by question name: repeated names numbered, unknown types left out', async () => {
		const formId = await demoFormId(sandbox(), 'Customer Feedback');
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'getMany',
			form: formById(formId),
			returnAll: false,
			limit: 5,
		});
		const [first] = jsonOf(result);
		expect(Object.keys(first)).toEqual(
			expect.arrayContaining([
				'submissionId',
				'submissionTime',
				'Your name',
				'Email',
				'Email (2)',
				'Team size',
			]),
		);
		expect(Object.keys(first)).not.toContain('3D product scan');
		expect(first.calculations).toEqual(expect.objectContaining({ Respondent: expect.anything() }));
		expect(typeof (first.calculations as IDataObject)['Satisfaction score']).toBe('number');
		// Simplify off returns exactly what the API returned.
		const raw = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'getMany',
			form: formById(formId),
			returnAll: false,
			limit: 5,
			simplify: false,
		});
		const direct = await listDirect(sandbox(), formId, { limit: '5' });
		expect(jsonOf(raw)).toEqual(direct.responses);
	});
});

describe('Submission → Get Many while submissions arrive and are deleted', () => {
	it.each(['asc', 'desc'])(
		'returns no duplicates and loses none that existed throughout (%s)',
		async (sort) => {
			const formId = (await newForm(sandbox())).id as string;
			const initial: string[] = [];
			// Mostly distinct times, and some instants shared by many submissions.
			for (const batch of [
				{ count: 700, stepMs: 60_000, startTime: '2023-01-01T00:00:00.000Z' },
				{ count: 40, stepMs: 0 },
				{ count: 200, stepMs: 1 },
			]) {
				initial.push(...((await generate(sandbox(), formId, batch)).submissionIds as string[]));
			}
			expect(initial).toHaveLength(940);

			const deleted = new Set<string>();
			let running = true;
			let changes = 0;
			const churn = (async () => {
				let k = 0;
				while (running) {
					// Two deletions (anywhere, often among those already read) per arrival.
					for (const victim of [initial[(k++ * 7919) % 940], initial[(k++ * 7919) % 940]]) {
						if (deleted.has(victim)) continue;
						deleted.add(victim);
						await control(sandbox(), 'DELETE', `/forms/${formId}/submissions/${victim}`);
					}
					await control(sandbox(), 'POST', `/forms/${formId}/respond`, {});
					changes++;
					await sleep(15);
				}
			})();
			const { result } = await getMany(formId, { filters: { sort } });
			running = false;
			await churn;

			expect(result.error).toBeUndefined();
			const ids = jsonOf(result).map((s) => String(s.submissionId));
			expect(new Set(ids).size).toBe(ids.length);
			const got = new Set(ids);
			expect(initial.filter((id) => !deleted.has(id) && !got.has(id))).toEqual([]);
			// The changes really happened while the pages were read.
			expect(changes).toBeGreaterThan(10);
			expect(deleted.size).toBeGreaterThan(10);
		},
	);
});
