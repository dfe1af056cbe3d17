import type { PageAnswer, PageQuery } from '../../../nodes/Fillout/reading/pages';
import type { PagerOptions } from '../../../nodes/Fillout/reading/submissionPager';
import { SubmissionPager } from '../../../nodes/Fillout/reading/submissionPager';
import type { ListAnswer, ModelRow } from './support/listModel';
import { ListModel } from './support/listModel';

/** Examples of the pager's behaviour; submissionPaging.model.test.ts checks its invariant. */

const START = Date.UTC(2024, 0, 1);

function readAll(
	service: ListModel,
	options: PagerOptions,
	betweenPages: (page: number, answer: ListAnswer) => void = () => {},
	serve: (answer: ListAnswer, page: number) => PageAnswer<ModelRow> = (answer) => answer,
): ModelRow[] {
	const pager = new SubmissionPager<ModelRow>(options);
	for (let query = pager.next(), page = 0; query; query = pager.next(), page++) {
		const answer = service.list(query);
		betweenPages(page, answer);
		pager.receive(serve(answer, page));
	}
	return pager.results();
}

const idsOf = (rows: ModelRow[]) => rows.map((row) => row.submissionId);
const range = (from: number, to: number) =>
	Array.from({ length: to - from }, (_, i) => `s${from + i}`);

describe('SubmissionPager: request counts with nothing changing', () => {
	// Only a short page ends the read: 150 and 299 need one more request, to see the end.
	it.each([
		[0, 1],
		[1, 1],
		[149, 1],
		[150, 2],
		[151, 2],
		[299, 3],
		[300, 3],
		[1234, 9],
		[10_000, 68],
	])('Return All over %i submissions costs %i request(s)', (count, requests) => {
		for (const inclusiveBounds of [false, true]) {
			const service = new ListModel({ inclusiveBounds });
			service.addMany(count, START, 1000);
			for (const sort of ['asc', 'desc'] as const) {
				service.queries.length = 0;
				const result = readAll(service, { sort });
				expect(idsOf(result)).toEqual(idsOf(service.matching({ sort })));
				expect(service.queries).toHaveLength(requests);
				// Return All reads oldest first, whatever the order asked for.
				expect(service.queries.every((query) => query.sort === 'asc')).toBe(true);
				expect(requests).toBeLessThanOrEqual(Math.ceil(count / 150) + 1);
			}
		}
	});

	it('asks for 150 per page and continues from the last time read, re-reading it first', () => {
		const service = new ListModel();
		service.addMany(400, START, 1000);
		readAll(service, { sort: 'asc' });
		expect(service.queries).toEqual([
			{ limit: 150, sort: 'asc' },
			// From s149's instant on (1 ms before it): s149 comes back first, as the anchor.
			{ limit: 150, sort: 'asc', afterDate: new Date(START + 149_000 - 1).toISOString() },
			{ limit: 150, sort: 'asc', afterDate: new Date(START + 298_000 - 1).toISOString() },
		]);
	});

	it('Limit 30 costs one request with limit=30; Limit 400 costs 3 requests', () => {
		const service = new ListModel();
		service.addMany(1000, START, 1000);
		expect(readAll(service, { sort: 'asc', maxItems: 30 })).toHaveLength(30);
		expect(service.queries).toEqual([{ limit: 30, sort: 'asc' }]);
		service.queries.length = 0;
		const result = readAll(service, { sort: 'desc', maxItems: 400 });
		expect(idsOf(result)).toEqual(range(600, 1000).reverse());
		// The last two pages re-read one submission each (the anchor): 149 + 101 new.
		expect(service.queries.map((q) => q.limit)).toEqual([150, 150, 102]);
	});

	it('keeps the user’s date filters on every page, intersected with the range', () => {
		const service = new ListModel();
		service.addMany(500, START, 1000);
		const afterDate = new Date(START + 99_500).toISOString(); // after s99
		const beforeDate = new Date(START + 400_500).toISOString(); // up to s400
		const result = readAll(service, { sort: 'asc', afterDate, beforeDate });
		expect(idsOf(result)).toEqual(range(100, 401));
		expect(service.queries.every((q) => q.beforeDate === beforeDate)).toBe(true);
		expect(service.queries[0].afterDate).toBe(afterDate);
		const desc = readAll(service, { sort: 'desc', afterDate, beforeDate });
		expect(idsOf(desc)).toEqual(range(100, 401).reverse());
	});
});

describe('SubmissionPager: ties on submissionTime', () => {
	it('reads more than 150 submissions sharing one instant by offset, twice (to compare orders)', () => {
		for (const inclusiveBounds of [false, true]) {
			const service = new ListModel({ inclusiveBounds });
			service.addMany(20, START, 1000);
			service.addMany(400, START + 50_000, 0);
			service.addMany(20, START + 100_000, 1000);
			for (const sort of ['asc', 'desc'] as const) {
				service.queries.length = 0;
				const oldestFirst = idsOf(service.matching({ sort: 'asc' }));
				expect(idsOf(readAll(service, { sort }))).toEqual(
					sort === 'asc' ? oldestFirst : oldestFirst.reverse(),
				);
				// The first page, then the instant from its start (offsets 0, 149, 298), twice.
				expect(service.queries.map((query) => query.offset ?? 0)).toEqual([
					0, 0, 149, 298, 0, 149, 298,
				]);
			}
		}
	});

	it('reads an instant of up to a page in one request, whatever order ties come in', () => {
		for (const inclusiveBounds of [false, true]) {
			const service = new ListModel({ inclusiveBounds, unstableTiesSeed: 7 });
			service.addMany(140, START, 1000);
			service.addMany(100, START + 500_000, 0); // positions 140..239 share one time
			service.addMany(100, START + 600_000, 1000);
			const result = readAll(service, { sort: 'asc' });
			expect(new Set(idsOf(result))).toEqual(new Set(range(0, 340)));
			expect(result).toHaveLength(340);
			// The second page starts at that instant (offset 0), so it holds all 100 of it.
			expect(service.queries[1]).toEqual({
				limit: 150,
				sort: 'asc',
				afterDate: new Date(START + 500_000 - 1).toISOString(),
			});
		}
	});

	it('fails, saying so, when more ties than a page come in an order that changes', () => {
		const service = new ListModel({ unstableTiesSeed: 3 });
		service.addMany(400, START, 0);
		expect(() => readAll(service, { sort: 'asc' })).toThrow(
			/^More submissions share the time 2024-01-01T00:00:00.000Z \(or follow it with no readable time\) than fit in one page \(150\), and Fillout gave them in a different order from one request to the next \(s\d+ came before s\d+, then after it\)\. No exact read of that instant is possible by paging/,
		);
	});

	it('reads a tie cut at a page boundary whole', () => {
		const service = new ListModel();
		service.addMany(148, START, 1000);
		service.addMany(5, START + 500_000, 0); // positions 148..152 share one time
		service.addMany(10, START + 600_000, 1000);
		expect(idsOf(readAll(service, { sort: 'asc' }))).toEqual(range(0, 163));
	});
});

describe('SubmissionPager: submissions added and deleted while paging', () => {
	it('300 submissions, #149 and #150 share a time, one arrives during the read: none skipped', () => {
		for (const inclusiveBounds of [false, true]) {
			const service = new ListModel({ inclusiveBounds });
			service.addMany(149, START, 1000); // #0..#148
			service.addMany(2, START + 149_000, 0); // #149 ends the first page, #150 starts the next
			service.addMany(149, START + 150_000, 1000);
			const result = readAll(service, { sort: 'asc' }, (page) => {
				if (page === 0) service.add(START + 10_000_000); // a respondent submits
			});
			expect(idsOf(result)).toEqual(range(0, 301));
		}
	});

	it('700 submissions on one instant, one deleted during the read: the other 699 once', () => {
		for (const inclusiveBounds of [false, true]) {
			for (const sort of ['asc', 'desc'] as const) {
				for (let page = 0; page < 5; page++) {
					for (const victim of ['s0', 's42', 's200', 's400', 's699']) {
						const service = new ListModel({ inclusiveBounds });
						service.addMany(700, START, 0);
						const result = readAll(service, { sort }, (at) => {
							if (at === page) service.remove(victim);
						});
						// A victim read before it was deleted is returned too.
						const others = range(0, 700).filter((id) => id !== victim);
						expect(idsOf(result).filter((id) => id !== victim)).toEqual(
							sort === 'asc' ? others : others.reverse(),
						);
					}
				}
			}
		}
	});

	it('an edit that moves submissions already read does not make a page look continuous', () => {
		const service = new ListModel();
		service.addMany(6, START, 0); // s0..s5 share one instant
		const result = readAll(service, { sort: 'asc', pageSize: 3 }, (page) => {
			// After [s0 s1 s2] and [s2 s3 s4], s0 and s1 are edited: they move to the present.
			if (page === 1) for (const id of ['s0', 's1']) service.restamp(id, START + 60_000);
		});
		// The page at offset 4 now holds s0 and s1 again, past s5: it must not count.
		expect(new Set(idsOf(result))).toEqual(new Set(range(0, 6)));
		expect(result).toHaveLength(6);
	});

	it('the same, where times cannot be read and paging goes by offset alone', () => {
		const service = new ListModel();
		for (let i = 0; i < 6; i++) service.add(START + i * 1000, 'not a time');
		const result = readAll(service, { sort: 'asc', pageSize: 3 }, (page) => {
			if (page === 1) for (const id of ['s0', 's1']) service.restamp(id, START + 60_000);
		});
		expect(new Set(idsOf(result))).toEqual(new Set(range(0, 6)));
		expect(result).toHaveLength(6);
	});

	it('deleting the anchor (the last submission read) does not skip the next one', () => {
		const service = new ListModel();
		service.addMany(400, START, 0);
		const deleted: string[] = [];
		const result = readAll(service, { sort: 'asc' }, (page, answer) => {
			const anchor = answer.responses[answer.responses.length - 1].submissionId;
			if (page < 3 && service.remove(anchor)) deleted.push(anchor);
		});
		expect(deleted).toEqual(['s149', 's299', 's298']);
		// s149 was read before it was deleted, so it is returned too; s298 as well.
		expect(idsOf(result)).toEqual(range(0, 400).filter((id) => id !== 's299'));
	});
});

describe('SubmissionPager: the count taken apart from the page', () => {
	/** Reads with `between(request)` run after the count of that request, before its page. */
	function readRacing(service: ListModel, pageSize: number, between: (request: number) => void) {
		const pager = new SubmissionPager<ModelRow>({ sort: 'asc', pageSize });
		for (let query = pager.next(), request = 0; query; query = pager.next(), request++) {
			const at = request;
			pager.receive(service.list(query, () => between(at)));
		}
		return idsOf(pager.results());
	}

	it('count 3, a back-dated import, then LIMIT 3 lists imported, a, b: c is still read', () => {
		const service = new ListModel();
		service.addMany(3, START + 10_000, 1000); // s0 (a), s1 (b), s2 (c)
		const ids = readRacing(service, 3, (request) => {
			if (request === 0) service.add(START); // s3, back-dated before a
		});
		expect(ids).toEqual(['s3', 's0', 's1', 's2']);
		expect(service.queries).toHaveLength(2);
	});

	it.each([
		[150, 0, 500],
		[299, 1, 200_500],
	])(
		'a form of %i, an import back-dated into request %i’s range: the last one is still read',
		(count, request, offsetMs) => {
			const service = new ListModel();
			service.addMany(count, START, 1000);
			const ids = readRacing(service, 150, (at) => {
				if (at === request) service.add(START + offsetMs);
			});
			expect(ids).toEqual(idsOf(service.matching({ sort: 'asc' })));
			expect(ids).toContain(`s${count - 1}`);
			expect(service.queries.length).toBeLessThanOrEqual(Math.ceil(count / 150) + 1);
		},
	);

	it('a deletion between the count and the page: one request more, nothing lost', () => {
		const service = new ListModel();
		service.addMany(200, START, 1000);
		const ids = readRacing(service, 150, (request) => {
			// The second page's range starts at s149: it counts 51, then lists 50.
			if (request === 1) service.remove('s180');
		});
		expect(ids).toEqual(range(0, 200).filter((id) => id !== 's180'));
		expect(service.queries).toHaveLength(3);
	});
});

describe('SubmissionPager: what the service returns is checked', () => {
	it('a short page below the count is read on from, and the rest comes back', () => {
		const service = new ListModel();
		service.addMany(400, START, 1000);
		// The second page comes back 40 short of the 150 asked for (the count says more).
		const result = readAll(service, { sort: 'asc' }, undefined, (answer, page) =>
			page === 1 ? { ...answer, responses: answer.responses.slice(0, 110) } : answer,
		);
		expect(idsOf(result)).toEqual(range(0, 400));
	});

	it('fails, saying what Fillout returned, when the count keeps claiming more than it lists', () => {
		const service = new ListModel();
		service.addMany(200, START, 1000);
		expect(() =>
			readAll(service, { sort: 'asc' }, undefined, (answer) => ({
				...answer,
				totalResponses: answer.totalResponses + 1,
			})),
		).toThrow(
			'Fillout counted 2 submissions in the range after 2024-01-01T00:03:18.999Z but listed only 1 (offset 0, 1 returned where 150 were asked for), 5 times in a row; the read stopped rather than return an incomplete list. Try again; if this persists, narrow the date filters.',
		);
	});

	it('a busy form (one in, the newest read deleted between the count and the page, 6 times) reads on: a short page below the count that brings new ones is no failure', () => {
		const service = new ListModel();
		service.addMany(200, START, 1000);
		let now = START + 1_000_000;
		let newestRead = '';
		const pager = new SubmissionPager<ModelRow>({ sort: 'asc' });
		for (let query = pager.next(), request = 0; query; query = pager.next(), request++) {
			const busy = request >= 1 && request <= 6;
			if (busy) service.add((now += 1000));
			const answer = service.list(query, () => busy && service.remove(newestRead));
			// Each busy page lists one less than its count, and one not read before.
			if (busy) expect(answer.responses.length).toBe(answer.totalResponses - 1);
			newestRead = answer.responses[answer.responses.length - 1].submissionId;
			pager.receive(answer);
		}
		// Those deleted were read before they were.
		expect(idsOf(pager.results())).toEqual(range(0, 206));
		expect(service.queries).toHaveLength(8);
	});

	it('short pages below the count now and then, each followed by one that brings a new submission, are no failure', () => {
		const service = new ListModel();
		service.addMany(200, START, 1000);
		let now = START + 1_000_000;
		// For 10 pages the count is one over; a respondent submits after every other page.
		const result = readAll(
			service,
			{ sort: 'asc' },
			(page) => page < 10 && page % 2 === 0 && service.add((now += 1000)),
			(answer, page) =>
				page >= 1 && page <= 10 ? { ...answer, totalResponses: answer.totalResponses + 1 } : answer,
		);
		expect(idsOf(result)).toEqual(range(0, 205));
		expect(service.queries).toHaveLength(12);
	});

	it('reads submissions whose time cannot be read, in the service’s order', () => {
		const service = new ListModel();
		for (let i = 0; i < 400; i++) {
			service.add(START + i * 1000, i % 149 === 148 ? 'not a time' : undefined);
		}
		const result = readAll(service, { sort: 'asc' });
		expect(idsOf(result)).toEqual(range(0, 400));
		expect(service.queries.length).toBeLessThanOrEqual(4);
	});

	it('fails after three reads of an instant when its listings keep skipping one', () => {
		const service = new ListModel();
		service.addMany(300, START, 0);
		// Every page that would hold s100 holds the next one instead (positions count it).
		const skipping = (query: PageQuery) => {
			const answer = service.list({ ...query, limit: query.limit + 1 });
			const responses = answer.responses.filter((row) => row.submissionId !== 's100');
			return { ...answer, responses: responses.slice(0, query.limit) };
		};
		const pager = new SubmissionPager<ModelRow>({ sort: 'asc', pageSize: 100 });
		expect(() => {
			for (let query = pager.next(); query; query = pager.next()) pager.receive(skipping(query));
		}).toThrow(/\(1 of them could not be read\)\. No exact read of that instant is possible/);
		// The instant read three times, by offset; the last page of each shows 300 positions.
		expect(service.queries.map((query) => query.offset ?? 0)).toEqual([
			0, 99, 198, 297, 0, 99, 198, 297, 0, 99, 198, 297,
		]);
	});

	it('treats a missing totalResponses as unknown and stops at the short page', () => {
		const service = new ListModel();
		service.addMany(200, START, 1000);
		const result = readAll(service, { sort: 'asc' }, undefined, ({ responses }) => ({ responses }));
		expect(result).toHaveLength(200);
		expect(service.queries).toHaveLength(2);
	});

	it('stops with an error when a service keeps returning the same full page', () => {
		const stuck = Array.from({ length: 150 }, (_, i) => ({
			submissionId: `x${i}`,
			submissionTime: new Date(START).toISOString(),
		}));
		const pager = new SubmissionPager({ sort: 'asc' });
		let requests = 0;
		expect(() => {
			for (let query = pager.next(); query; query = pager.next()) {
				requests++;
				pager.receive({ responses: stuck, totalResponses: 1_000_000 });
			}
		}).toThrow(/^Fillout answered 30 requests in a row with no submission not already read/);
		expect(requests).toBe(31);
	});
});
