import type { PagerOptions } from '../../../nodes/Fillout/reading/submissionPager';
import {
	MAX_RANGES,
	SubmissionReader,
	type ReaderRequest,
} from '../../../nodes/Fillout/reading/submissionReader';
import type { ModelRow } from './support/listModel';
import { ListModel, prng } from './support/listModel';

/**
 * Examples of the parallel reader (Return All with pages in flight);
 * submissionPaging.model.test.ts checks its invariant under churn.
 */

const START = Date.UTC(2024, 0, 1);

/** Sends every query as soon as the reader gives it; answers the oldest in flight first. */
function readInFlight(
	service: ListModel,
	options: PagerOptions,
	served: number | ((answered: number) => number) = START + 86_400_000,
	beforeAnswer: (answered: number) => void = () => {},
) {
	const reader = new SubmissionReader<ModelRow>(options);
	const inFlight: ReaderRequest[] = [];
	let mostInFlight = 0;
	let answered = 0;
	while (!reader.finished) {
		inFlight.push(...reader.ready());
		mostInFlight = Math.max(mostInFlight, inFlight.length);
		const request = inFlight.shift();
		if (!request) throw new Error('The reader waits with nothing in flight');
		const servedAt = typeof served === 'number' ? served : served(answered);
		beforeAnswer(answered++);
		reader.receive(request.id, service.list(request.query), servedAt);
	}
	return { rows: reader.results(), reader, requests: service.queries.length, mostInFlight };
}

const idsOf = (rows: ModelRow[]) => rows.map((row) => row.submissionId);

/** As readSubmissions: up to `count` requests, in the order `next()` gives them. */
function nextRequests(reader: SubmissionReader<ModelRow>, count: number): ReaderRequest[] {
	const requests: ReaderRequest[] = [];
	while (requests.length < count) {
		const request = reader.next();
		if (!request) break;
		requests.push(request);
	}
	return requests;
}

describe('SubmissionReader: Return All with pages in flight', () => {
	it.each([
		[149, 1],
		[150, 2],
		[1_234, 9],
		[10_000, 68],
		[22_000, 149],
	])('%i submissions, nothing changing: each once, in order, within ceil(N / 150) + 2', (n) => {
		const service = new ListModel();
		service.addMany(n, START, 1000);
		const { rows, requests, mostInFlight } = readInFlight(service, { sort: 'asc' });
		expect(idsOf(rows)).toEqual(Array.from({ length: n }, (_, i) => `s${i}`));
		expect(requests).toBeLessThanOrEqual(Math.ceil(n / 150) + 2);
		if (n >= 10_000) expect(mostInFlight).toBe(MAX_RANGES);
	});

	it('10,000 in ranges of 8 or 9 pages, taking turns so they end together, the newest last', () => {
		const service = new ListModel();
		service.addMany(10_000, START, 1000);
		const reader = new SubmissionReader<ModelRow>({ sort: 'asc' });
		// As readSubmissions: 5 in flight, in the order next() gives; the oldest answered first.
		const inFlight: ReaderRequest[] = [];
		const sentTo: number[] = [];
		while (!reader.finished) {
			for (const request of nextRequests(reader, 5 - inFlight.length)) {
				sentTo.push(request.rank % MAX_RANGES);
				inFlight.push(request);
			}
			const request = inFlight.shift()!;
			reader.receive(request.id, service.list(request.query), START + 86_400_000);
		}
		const pagesOf = Array.from(
			{ length: MAX_RANGES },
			(_, k) => sentTo.filter((r) => r === k).length,
		);
		expect(pagesOf).toEqual([8, 8, 8, 8, 9, 9, 9, 9]);
		// Each range's last page is among the last 16 of 68: none reads alone for long.
		const lastOf = pagesOf.map((_, k) => sentTo.lastIndexOf(k));
		expect(Math.min(...lastOf)).toBeGreaterThanOrEqual(sentTo.length - 16);
		expect(Math.max(...lastOf)).toBe(lastOf[MAX_RANGES - 1]);
	});

	it('answers back in a jittered order (1 s ± 10 %): taking turns, the newest range seldom reads a page more', () => {
		// The newest range must end last: when its short page comes back before another
		// range's last, it reads once more. Lowest rank first keeps the ranges in step, so
		// that happens in 12 of these 40 seeded reads (sent in the order asked: 22).
		const readsWithPageMore = Array.from({ length: 40 }, (_, seed) => {
			const service = new ListModel();
			service.addMany(10_000, START, 1000);
			const random = prng(seed);
			const reader = new SubmissionReader<ModelRow>({ sort: 'asc' });
			const inFlight: Array<{ request: ReaderRequest; answeredAt: number }> = [];
			let now = 0;
			while (!reader.finished) {
				for (const request of nextRequests(reader, 5 - inFlight.length))
					inFlight.push({ request, answeredAt: now + 1000 + random() * 100 });
				inFlight.sort((a, b) => a.answeredAt - b.answeredAt);
				const { request, answeredAt } = inFlight.shift()!;
				now = answeredAt;
				reader.receive(request.id, service.list(request.query), START + 86_400_000);
			}
			expect(idsOf(reader.results())).toEqual(Array.from({ length: 10_000 }, (_, i) => `s${i}`));
			return service.queries.length > 68;
		}).filter(Boolean).length;
		expect(readsWithPageMore).toBeLessThanOrEqual(15);
	});

	it('reads a range as soon as its own probe and the next are in', () => {
		const service = new ListModel();
		service.addMany(10_000, START, 1000);
		const served = START + 86_400_000;
		const reader = new SubmissionReader<ModelRow>({ sort: 'asc' });
		const [first] = reader.ready();
		reader.receive(first.id, service.list(first.query), served);
		const probes = reader.ready();
		expect(probes.map((probe) => probe.query.offset)).toEqual([
			1190, 2380, 3570, 4760, 6099, 7438, 8777,
		]);
		expect(reader.ready()).toEqual([]);
		// The 2nd probe answered first: nothing yet; then the 1st: ranges 0 and 1 read on.
		reader.receive(probes[1].id, service.list(probes[1].query), served);
		expect(reader.ready()).toEqual([]);
		reader.receive(probes[0].id, service.list(probes[0].query), served);
		const next = reader.ready();
		expect(next.map((request) => request.rank % MAX_RANGES)).toEqual([0, 1]);
		expect(next.every((request) => request.query.beforeDate !== undefined)).toBe(true);
		expect(reader.finished).toBe(false);
	});

	it('a range ending on an instant of 300 ties does not read it (inclusive bounds list it): no request more than strict bounds', () => {
		// 10,000 by the second, but positions 1,191 to 1,490 share one instant: the first
		// probe (offset 1,190) shows its start, so the second range starts there.
		const boundary = START + 1_191_000;
		const requestsWith = (inclusiveBounds: boolean): number => {
			const service = new ListModel({ inclusiveBounds });
			for (let i = 0; i < 10_000; i++)
				service.add(i > 1_190 && i <= 1_490 ? boundary : START + i * 1000);
			const { rows, reader } = readInFlight(service, { sort: 'asc' });
			expect(idsOf(rows)).toEqual(Array.from({ length: 10_000 }, (_, i) => `s${i}`));
			const starts = (reader as unknown as { ranges: Array<{ startMs?: number }> }).ranges;
			expect(starts[1].startMs).toBe(boundary);
			// No page of the first range (before the boundary) starts at the boundary's instant.
			const intoBoundary = service.queries.filter(
				(query) =>
					query.beforeDate === new Date(boundary).toISOString() &&
					query.afterDate === new Date(boundary - 1).toISOString(),
			);
			expect(intoBoundary).toEqual([]);
			return service.queries.length;
		};
		// 68 for 10,000, and the instant's second read by its own range (inclusive: 79 before).
		expect(requestsWith(false)).toBe(73);
		expect(requestsWith(true)).toBe(73);
	});

	it('a range asks for times before the next range’s start, not a millisecond less: one at 1 ms before it is read', () => {
		for (const inclusiveBounds of [false, true]) {
			const service = new ListModel({ inclusiveBounds });
			// As above, with s1190 moved to 1 ms before the second range's start.
			const boundary = START + 1_191_000;
			for (let i = 0; i < 10_000; i++) {
				service.add(i === 1_190 ? boundary - 1 : START + i * 1000);
			}
			const { rows, reader } = readInFlight(service, { sort: 'asc' });
			const starts = (reader as unknown as { ranges: Array<{ startMs?: number }> }).ranges;
			expect(starts[1].startMs).toBe(boundary);
			expect(idsOf(rows)).toEqual(Array.from({ length: 10_000 }, (_, i) => `s${i}`));
		}
	});

	it('10,000 newest first: the same submissions, reversed', () => {
		const service = new ListModel();
		service.addMany(10_000, START, 1000);
		const { rows } = readInFlight(service, { sort: 'desc' });
		expect(idsOf(rows)).toEqual(Array.from({ length: 10_000 }, (_, i) => `s${9_999 - i}`));
	});

	it('a Limit read stays one request: Limit 10 asks for 10, newest first', () => {
		const service = new ListModel();
		service.addMany(5_000, START, 1000);
		const { rows, requests } = readInFlight(service, { sort: 'desc', maxItems: 10 });
		expect(requests).toBe(1);
		expect(service.queries[0]).toEqual({ limit: 10, sort: 'desc' });
		expect(idsOf(rows)).toEqual(Array.from({ length: 10 }, (_, i) => `s${4_999 - i}`));
	});

	it('splits by time at instants: 3,000 submissions in pairs sharing a time, none lost or twice', () => {
		const service = new ListModel();
		for (let i = 0; i < 3_000; i++) service.add(START + Math.floor(i / 2) * 1000);
		const { rows } = readInFlight(service, { sort: 'asc' });
		expect(idsOf(rows)).toEqual(Array.from({ length: 3_000 }, (_, i) => `s${i}`));
	});

	it('keeps the user’s date filters on every request', () => {
		const service = new ListModel();
		service.addMany(3_000, START, 1000);
		const afterDate = new Date(START + 499_500).toISOString();
		const beforeDate = new Date(START + 2_500_500).toISOString();
		const { rows } = readInFlight(service, { sort: 'asc', afterDate, beforeDate });
		expect(idsOf(rows)).toEqual(Array.from({ length: 2_001 }, (_, i) => `s${500 + i}`));
		for (const query of service.queries) {
			expect(Date.parse(query.afterDate!)).toBeGreaterThanOrEqual(Date.parse(afterDate));
			expect(Date.parse(query.beforeDate!)).toBeLessThanOrEqual(Date.parse(beforeDate));
		}
	});

	it('an edit moving an unread submission to the present during the read still brings it, once', () => {
		const service = new ListModel();
		service.addMany(3_000, START, 1000);
		let now = START + 10_000_000;
		// After the probes, move s10 (in the first range, not read yet) to the present.
		const { rows } = readInFlight(service, { sort: 'asc' }, now, (answered) => {
			if (answered === 6) service.restamp('s10', (now += 1000));
		});
		expect(idsOf(rows).filter((id) => id === 's10')).toEqual(['s10']);
		expect(rows).toHaveLength(3_000);
	});

	it('the newest range ends last: an edit after it read its end, while an older range reads on, is still read', () => {
		const service = new ListModel();
		service.addMany(3_000, START, 1000);
		let now = START + 10_000_000;
		const reader = new SubmissionReader<ModelRow>({ sort: 'asc' });
		const inFlight: ReaderRequest[] = [];
		let edited = false;
		while (!reader.finished) {
			inFlight.push(...reader.ready());
			// The newest range's pages first: it reaches its end while the others have pages left.
			const rangeOf = (request: ReaderRequest) => request.rank % MAX_RANGES;
			inFlight.sort((a, b) => rangeOf(b) - rangeOf(a));
			const request = inFlight.shift()!;
			if (
				!edited &&
				rangeOf(request) === 0 &&
				request.query.offset === undefined &&
				request.query.beforeDate
			) {
				// s200 is in the oldest range (s0 to s445), past its first page: an edit moves it to the present.
				service.restamp('s200', (now += 1000));
				edited = true;
			}
			reader.receive(request.id, service.list(request.query), now);
		}
		expect(edited).toBe(true);
		const ids = idsOf(reader.results());
		expect(ids.filter((id) => id === 's200')).toEqual(['s200']);
		expect(ids).toHaveLength(3_000);
	});

	it('does not start a range after the present: future-dated submissions stay in the newest range', () => {
		const service = new ListModel();
		service.addMany(2_000, START, 1000);
		const present = START + 1_000_000;
		const { rows, reader } = readInFlight(service, { sort: 'asc' }, present);
		expect(rows).toHaveLength(2_000);
		// Every range after the first starts before the present (a second of margin).
		const starts = (reader as unknown as { ranges: Array<{ startMs?: number }> }).ranges
			.map((range) => range.startMs)
			.filter((ms) => ms !== undefined);
		expect(starts.length).toBeGreaterThan(0);
		for (const ms of starts) expect(ms!).toBeLessThanOrEqual(present - 1000);
	});

	it("judges range starts by the first page's present, whatever later answers say", () => {
		const service = new ListModel();
		service.addMany(2_000, START, 1000);
		const present = START + 1_000_000;
		// The first answer says `present`; every later one a later present.
		const served = (n: number) => (n === 0 ? present : present + 5_000_000);
		const { rows, reader } = readInFlight(service, { sort: 'asc' }, served);
		expect(rows).toHaveLength(2_000);
		const starts = (reader as unknown as { ranges: Array<{ startMs?: number }> }).ranges
			.map((range) => range.startMs)
			.filter((ms) => ms !== undefined);
		expect(starts.length).toBeGreaterThan(0);
		for (const ms of starts) expect(ms!).toBeLessThanOrEqual(present - 1000);
	});

	it('stopped early, gives a prefix of the listing: whole ranges, then what was read of the next', () => {
		const service = new ListModel();
		service.addMany(5_000, START, 1000);
		const reader = new SubmissionReader<ModelRow>({ sort: 'asc' });
		const inFlight: ReaderRequest[] = [];
		for (let step = 0; step < 30; step++) {
			inFlight.push(...reader.ready());
			// Answers out of order: later ranges get ahead of earlier ones.
			const [request] = inFlight.splice((step * 5) % inFlight.length, 1);
			reader.receive(request.id, service.list(request.query), START + 86_400_000);
		}
		const prefix = idsOf(reader.prefix());
		expect(prefix.length).toBeGreaterThan(300);
		expect(prefix).toEqual(Array.from({ length: prefix.length }, (_, i) => `s${i}`));
	});
});

describe('SubmissionReader with an answer filter (keep)', () => {
	const odd = (row: unknown) => Number((row as ModelRow).submissionId.slice(1)) % 2 === 1;

	it('returns only the kept ones, and so does its prefix while it is still finding ranges', () => {
		const service = new ListModel();
		service.addMany(1_000, START, 1000);
		const { rows } = readInFlight(service, { sort: 'asc', keep: odd });
		expect(rows).toHaveLength(500);
		expect(rows.every(odd)).toBe(true);
		const fresh = new ListModel();
		fresh.addMany(1_000, START, 1000);
		const again = new SubmissionReader<ModelRow>({ sort: 'asc', keep: odd });
		const [page] = again.ready();
		again.receive(page.id, fresh.list(page.query), START + 86_400_000);
		// The first page (150) is the listing's start: its kept half.
		expect(idsOf(again.prefix())).toEqual(
			fresh.rows
				.slice(0, 150)
				.filter(odd)
				.map((row) => row.submissionId),
		);
	});

	it('a Limit read counts kept ones only, reading whole pages', () => {
		const service = new ListModel();
		service.addMany(1_000, START, 1000);
		const { rows, requests } = readInFlight(service, { sort: 'desc', maxItems: 100, keep: odd });
		expect(rows).toHaveLength(100);
		expect(rows.every(odd)).toBe(true);
		expect(service.queries[0].limit).toBe(150);
		expect(requests).toBe(2);
	});
});
