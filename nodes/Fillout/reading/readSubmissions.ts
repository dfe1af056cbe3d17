import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Submission, SubmissionPage } from '../shared/interfaces';
import { FILLOUT_REQUESTS_PER_WINDOW as REQUESTS_PER_SECOND } from '../transport/pacing';
import { filloutRequest, type FilloutContext, type FilloutRequest } from '../transport';
import { MAX_PAGE_SIZE, type PageQuery } from './pages';
import type { PagerOptions } from './submissionPager';
import { SubmissionReader, type ReaderRequest } from './submissionReader';

/**
 * Every submission of a form the pager's options select, each once, in order
 * (docs/reading-submissions.md says why that holds while the form changes).
 * `fixedQuery` goes with every page: status, search, includeEditLink, includePreview.
 */
export async function readSubmissions(
	ctx: FilloutContext,
	formId: string,
	pagerOptions: PagerOptions,
	fixedQuery: IDataObject = {},
	itemIndex?: number,
	onPage?: ReadLimits['onPage'],
): Promise<Submission[]> {
	const read = await readSubmissionsUntil(ctx, formId, pagerOptions, fixedQuery, {
		itemIndex,
		onPage,
	});
	return read.submissions;
}

export interface PartialRead {
	submissions: Submission[];
	/** False when the read stopped at `stopAtMs` with pages left unread. */
	complete: boolean;
}

export interface ReadLimits {
	itemIndex?: number;
	/** Past this time, stop before the next page if `mayStop` agrees with what was read. */
	stopAtMs?: number;
	mayStop?: (readSoFar: Submission[]) => boolean;
	/** Reads each page's answer headers. */
	onHeaders?: FilloutRequest['onHeaders'];
	/** Sees each page's answer (Get Many as a tool reads Fillout's count from it). */
	onPage?: (answer: SubmissionPage) => void;
}

interface PageLimits extends ReadLimits {
	signal: AbortSignal;
}

/**
 * As `readSubmissions`, but may stop early (see `ReadLimits`): what was read is then a
 * prefix, in order, of the whole listing. Return All keeps up to Fillout's limit of pages
 * in flight (SubmissionReader), the oldest range first: the pacer is then the only wait.
 */
export async function readSubmissionsUntil(
	ctx: FilloutContext,
	formId: string,
	pagerOptions: PagerOptions,
	fixedQuery: IDataObject,
	limits: ReadLimits,
): Promise<PartialRead> {
	const { stopAtMs, mayStop = () => true } = limits;
	// Split only a read that can end before its stop time: ranges side by side read the
	// listing's start more slowly, and a read that stops keeps only that start.
	const reader = new SubmissionReader<Submission>(
		pagerOptions,
		(count) => stopAtMs === undefined || Date.now() + secondsToRead(count) * 1000 < stopAtMs,
	);
	// A read that stops early takes its pages still waiting for their turn out of the line.
	const stop = new AbortController();
	const page = pageSender(ctx, formId, fixedQuery, { ...limits, signal: stop.signal });
	const inFlight = new Set<Promise<void>>();
	let failure: { error: unknown } | undefined;
	const send = (request: ReaderRequest) => {
		const sent = page(request.query)
			.then(({ answer, servedAtMs }) => {
				if (failure) return;
				reader.receive(request.id, answer, servedAtMs);
			})
			.catch((error: unknown) => {
				failure ??= { error };
			})
			.finally(() => inFlight.delete(sent));
		inFlight.add(sent);
	};
	while (!reader.finished && !failure) {
		if (stopAtMs !== undefined && Date.now() >= stopAtMs && mayStop(reader.prefix())) {
			// Pages still on their way are not waited for: their answers go nowhere.
			stop.abort();
			return { submissions: reader.prefix(), complete: false };
		}
		// A request in flight holds its place at the pacer: one more than the limit would wait.
		while (inFlight.size < REQUESTS_PER_SECOND) {
			const request = reader.next();
			if (!request) break;
			send(request);
		}
		if (inFlight.size === 0) throw new Error('The read of submissions stopped with pages left');
		// Wake at the stop time too, not only at the next answer: pages waiting for their turn
		// then leave the line on time.
		const untilStopMs = stopAtMs === undefined ? 0 : stopAtMs - Date.now();
		await Promise.race(untilStopMs > 0 ? [...inFlight, sleep(untilStopMs)] : inFlight);
	}
	await Promise.all(inFlight);
	if (failure) throw failure.error;
	return { submissions: reader.results(), complete: true };
}

/** Seconds Fillout's rate needs for the pages of `count` submissions. */
function secondsToRead(count: number): number {
	return Math.ceil(count / (MAX_PAGE_SIZE - 1)) / REQUESTS_PER_SECOND;
}

/** Sends one list request; `servedAtMs` is Fillout's `date` header, or n8n's clock without one. */
function pageSender(
	ctx: FilloutContext,
	formId: string,
	fixedQuery: IDataObject,
	limits: PageLimits,
) {
	return async (query: PageQuery) => {
		let servedAtMs = NaN;
		const answer = await filloutRequest<SubmissionPage>(ctx, {
			method: 'GET',
			path: `/forms/${encodeURIComponent(formId)}/submissions`,
			qs: { ...fixedQuery, ...query },
			context: { formId },
			itemIndex: limits.itemIndex,
			signal: limits.signal,
			onHeaders: (header) => {
				servedAtMs = Date.parse(header('date') ?? '');
				limits.onHeaders?.(header);
			},
		});
		limits.onPage?.(answer);
		return { answer, servedAtMs: Number.isFinite(servedAtMs) ? servedAtMs : Date.now() };
	};
}
