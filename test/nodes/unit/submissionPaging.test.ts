import type { PageQuery, PagedSubmission } from '../../../nodes/Fillout/helpers/submissionPaging';
import { SubmissionPager } from '../../../nodes/Fillout/helpers/submissionPaging';

/**
 * A stand-in for Fillout's list endpoint over an in-memory table: filters by date
 * (strict or inclusive bounds), sorts by time (ties in insertion order), then offset
 * and limit, and counts the matching rows.
 */
class FakeService {
	rows: PagedSubmission[] = [];
	requests: PageQuery[] = [];
	private nextId = 0;

	constructor(private readonly inclusiveBounds = false) {}

	add(timeMs: number): PagedSubmission {
		const row = {
			submissionId: `s${this.nextId++}`,
			submissionTime: new Date(timeMs).toISOString(),
		};
		this.rows.push(row);
		return row;
	}

	addMany(count: number, startMs: number, stepMs: number): void {
		for (let i = 0; i < count; i++) this.add(startMs + i * stepMs);
	}

	remove(id: string): void {
		this.rows = this.rows.filter((row) => row.submissionId !== id);
	}

	list(query: PageQuery) {
		this.requests.push(query);
		const t = (row: PagedSubmission) => Date.parse(row.submissionTime);
		const after = query.afterDate === undefined ? undefined : Date.parse(query.afterDate);
		const before = query.beforeDate === undefined ? undefined : Date.parse(query.beforeDate);
		const matching = this.rows
			.map((row, order) => ({ row, order }))
			.filter(({ row }) =>
				after === undefined ? true : this.inclusiveBounds ? t(row) >= after : t(row) > after,
			)
			.filter(({ row }) =>
				before === undefined ? true : this.inclusiveBounds ? t(row) <= before : t(row) < before,
			)
			.sort((a, b) =>
				query.sort === 'desc'
					? t(b.row) - t(a.row) || a.order - b.order
					: t(a.row) - t(b.row) || a.order - b.order,
			)
			.map(({ row }) => row);
		const offset = query.offset ?? 0;
		expect(query.limit).toBeGreaterThanOrEqual(1);
		expect(query.limit).toBeLessThanOrEqual(150);
		return {
			responses: matching.slice(offset, offset + query.limit),
			totalResponses: matching.length,
		};
	}
}

function readAll(
	service: FakeService,
	options: ConstructorParameters<typeof SubmissionPager>[0],
	betweenPages: (page: number) => void = () => {},
): PagedSubmission[] {
	const pager = new SubmissionPager<PagedSubmission>(options);
	for (let query = pager.next(), page = 0; query; query = pager.next(), page++) {
		const answer = service.list(query);
		betweenPages(page);
		pager.receive(answer);
	}
	return pager.results();
}

const START = Date.UTC(2024, 0, 1);

describe('SubmissionPager: request counts with nothing changing', () => {
	it.each([
		[0, 1],
		[1, 1],
		[149, 1],
		[150, 1],
		[151, 2],
		[300, 2],
		[301, 3],
		[1234, 9],
		[1500, 10],
	])('Return All over %i submissions costs %i request(s)', (count, requests) => {
		for (const inclusive of [false, true]) {
			const service = new FakeService(inclusive);
			service.addMany(count, START, 1000);
			for (const sort of ['asc', 'desc'] as const) {
				service.requests = [];
				const result = readAll(service, { sort });
				expect(result).toHaveLength(count);
				expect(new Set(result.map((r) => r.submissionId)).size).toBe(count);
				const times = result.map((r) => Date.parse(r.submissionTime));
				expect(times).toEqual([...times].sort((a, b) => (sort === 'asc' ? a - b : b - a)));
				// An inclusive service shows itself on the second page, which then re-reads one.
				const extra = inclusive && count > 150 && count % 150 === 0 ? 1 : 0;
				expect(service.requests.length).toBeLessThanOrEqual(requests + extra);
				if (!inclusive) expect(service.requests.length).toBe(requests);
			}
		}
	});

	it('asks for 150 per page and continues from the last time read, not by offset', () => {
		const service = new FakeService();
		service.addMany(400, START, 1000);
		readAll(service, { sort: 'asc' });
		expect(service.requests.map((q) => q.limit)).toEqual([150, 150, 150]);
		expect(service.requests.every((q) => q.offset === undefined)).toBe(true);
		expect(service.requests[0].afterDate).toBeUndefined();
		// From s149's time on (strict bound 1 ms before it): s149 comes back as the sentinel.
		expect(service.requests[1].afterDate).toBe(new Date(START + 149_000 - 1).toISOString());
		expect(service.requests[2].afterDate).toBe(new Date(START + 298_000 - 1).toISOString());
	});

	it('continues strictly after the last time where a re-read would cost a request', () => {
		const service = new FakeService();
		service.addMany(300, START, 1000);
		readAll(service, { sort: 'asc' });
		expect(service.requests).toEqual([
			{ limit: 150, sort: 'asc' },
			{ limit: 150, sort: 'asc', afterDate: new Date(START + 149_000).toISOString() },
		]);
	});

	it('Limit 30 costs one request with limit=30; Limit 400 costs 3 requests', () => {
		const service = new FakeService();
		service.addMany(1000, START, 1000);
		expect(readAll(service, { sort: 'asc', maxItems: 30 })).toHaveLength(30);
		expect(service.requests).toEqual([{ limit: 30, sort: 'asc' }]);
		service.requests = [];
		const result = readAll(service, { sort: 'desc', maxItems: 400 });
		expect(result).toHaveLength(400);
		expect(result[0].submissionId).toBe('s999');
		// The last two pages re-read one submission each (the sentinel): 149 + 101 new.
		expect(service.requests.map((q) => q.limit)).toEqual([150, 150, 102]);
	});

	it('keeps the user’s date filters on every page, intersected with the cursor', () => {
		const service = new FakeService();
		service.addMany(500, START, 1000);
		const afterDate = new Date(START + 99_500).toISOString(); // after s99
		const beforeDate = new Date(START + 400_500).toISOString(); // up to s400
		const result = readAll(service, { sort: 'asc', afterDate, beforeDate });
		expect(result.map((r) => r.submissionId)).toEqual(
			Array.from({ length: 301 }, (_, i) => `s${100 + i}`),
		);
		expect(service.requests.every((q) => q.beforeDate === beforeDate)).toBe(true);
		expect(service.requests[0].afterDate).toBe(afterDate);
		const desc = readAll(service, { sort: 'desc', afterDate, beforeDate });
		expect(desc.map((r) => r.submissionId)).toEqual(result.map((r) => r.submissionId).reverse());
	});
});

describe('SubmissionPager: ties on submissionTime', () => {
	it('reads more than 150 submissions sharing one instant (offset within the instant)', () => {
		for (const inclusive of [false, true]) {
			const service = new FakeService(inclusive);
			service.addMany(20, START, 1000);
			service.addMany(400, START + 50_000, 0);
			service.addMany(20, START + 100_000, 1000);
			for (const sort of ['asc', 'desc'] as const) {
				service.requests = [];
				const result = readAll(service, { sort });
				expect(new Set(result.map((r) => r.submissionId)).size).toBe(440);
				expect(result).toHaveLength(440);
				expect(service.requests.length).toBeLessThan(10);
			}
		}
	});

	it('notices a tie cut at a page boundary and reads the rest of that instant', () => {
		const service = new FakeService();
		service.addMany(148, START, 1000);
		service.addMany(5, START + 500_000, 0); // positions 148..152 share one time
		service.addMany(10, START + 600_000, 1000);
		const result = readAll(service, { sort: 'asc' });
		expect(new Set(result.map((r) => r.submissionId)).size).toBe(163);
		expect(result).toHaveLength(163);
	});
});

describe('SubmissionPager: submissions added and deleted while paging', () => {
	/** Deterministic pseudo-random numbers, so a failure can be replayed. */
	function prng(seed: number) {
		let state = seed >>> 0;
		return () => {
			state = (state * 1664525 + 1013904223) >>> 0;
			return state / 2 ** 32;
		};
	}

	it.each(Array.from({ length: 24 }, (_, i) => i + 1))(
		'no duplicates and no losses of submissions that existed throughout (seed %i)',
		(seed) => {
			const random = prng(seed);
			for (const inclusive of [false, true]) {
				for (const sort of ['asc', 'desc'] as const) {
					const service = new FakeService(inclusive);
					// Some instants shared by several submissions, most unique.
					for (let i = 0; i < 900; i++) service.add(START + Math.floor(i / (1 + (i % 4))) * 1000);
					const initial = service.rows.map((r) => r.submissionId);
					const deleted = new Set<string>();
					let now = START + 10_000_000;
					const result = readAll(service, { sort }, () => {
						for (let k = 0; k < 15; k++) {
							const victim = service.rows[Math.floor(random() * service.rows.length)];
							if (victim) {
								deleted.add(victim.submissionId);
								service.remove(victim.submissionId);
							}
							service.add((now += 1000));
						}
					});
					const ids = result.map((r) => r.submissionId);
					expect(new Set(ids).size).toBe(ids.length);
					const got = new Set(ids);
					const lost = initial.filter((id) => !deleted.has(id) && !got.has(id));
					expect(lost).toEqual([]);
				}
			}
		},
	);

	it('deleting the last submission read on a page does not skip the next one', () => {
		const service = new FakeService();
		service.addMany(400, START, 1000);
		const result = readAll(service, { sort: 'asc' }, (page) => {
			if (page === 0) service.remove('s149');
			if (page === 1) service.remove('s0');
		});
		const ids = new Set(result.map((r) => r.submissionId));
		for (let i = 1; i < 400; i++) if (i !== 149) expect(ids.has(`s${i}`)).toBe(true);
	});

	it('deleting inside a large instant while it is read restarts that instant, losing nothing', () => {
		const service = new FakeService();
		service.addMany(400, START, 0);
		const result = readAll(service, { sort: 'asc' }, (page) => {
			if (page === 0) service.remove('s3');
		});
		const ids = new Set(result.map((r) => r.submissionId));
		for (let i = 0; i < 400; i++) if (i !== 3) expect(ids.has(`s${i}`)).toBe(true);
	});
});

describe('SubmissionPager: termination', () => {
	it('stops with an error when a service keeps returning the same full page', () => {
		const stuck = Array.from({ length: 150 }, (_, i) => ({
			submissionId: `x${i}`,
			submissionTime: new Date(START).toISOString(),
		}));
		const pager = new SubmissionPager<PagedSubmission>({ sort: 'asc' });
		expect(() => {
			for (let query = pager.next(); query; query = pager.next()) {
				pager.receive({ responses: stuck, totalResponses: 1_000_000 });
			}
		}).toThrow(/did not finish|no progress|kept changing/);
	});

	it('treats a missing totalResponses as unknown and stops at the short page', () => {
		const service = new FakeService();
		service.addMany(200, START, 1000);
		const pager = new SubmissionPager<PagedSubmission>({ sort: 'asc' });
		let requests = 0;
		for (let query = pager.next(); query; query = pager.next()) {
			requests++;
			pager.receive({ responses: service.list(query).responses });
		}
		expect(pager.results()).toHaveLength(200);
		expect(requests).toBe(2);
	});

	it('refuses a submission without a readable time', () => {
		const pager = new SubmissionPager<PagedSubmission>({ sort: 'asc' });
		pager.next();
		expect(() =>
			pager.receive({
				responses: [{ submissionId: 'a', submissionTime: 'soon' }],
				totalResponses: 1,
			}),
		).toThrow(/unreadable submissionTime/);
	});
});
