import type { IDataObject } from 'n8n-workflow';

import type { Submission, SubmissionPage } from '../helpers/interfaces';
import { type PagerOptions } from './submissionPager';
import { SubmissionReader, type ReaderRequest } from './submissionReader';
import { filloutRequest, type FilloutContext, type FilloutRequest } from '../transport';

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
): Promise<Submission[]> {
	const read = await readSubmissionsUntil(ctx, formId, pagerOptions, fixedQuery, { itemIndex });
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
}

/**
 * As `readSubmissions`, but may stop early (see `ReadLimits`): what was read is then a
 * prefix, in order, of the whole listing. Return All keeps several pages in flight
 * (SubmissionReader); each request waits only for the pacer.
 */
export async function readSubmissionsUntil(
	ctx: FilloutContext,
	formId: string,
	pagerOptions: PagerOptions,
	fixedQuery: IDataObject,
	limits: ReadLimits,
): Promise<PartialRead> {
	const reader = new SubmissionReader<Submission>(pagerOptions);
	const { stopAtMs, mayStop = () => true } = limits;
	const inFlight = new Set<Promise<void>>();
	let failure: { error: unknown } | undefined;
	const send = ({ id, query }: ReaderRequest) => {
		let servedAtMs: number | undefined;
		const onHeaders: FilloutRequest['onHeaders'] = (header) => {
			servedAtMs = Date.parse(header('date') ?? '');
			limits.onHeaders?.(header);
		};
		const sent = filloutRequest<SubmissionPage>(ctx, {
			method: 'GET',
			path: `/forms/${encodeURIComponent(formId)}/submissions`,
			qs: { ...fixedQuery, ...query },
			context: { formId },
			itemIndex: limits.itemIndex,
			onHeaders,
		})
			.then((page) => {
				if (failure) return;
				const served = Number.isFinite(servedAtMs) ? servedAtMs : Date.now();
				reader.receive(id, page, served);
			})
			.catch((error: unknown) => {
				failure ??= { error };
			})
			.finally(() => inFlight.delete(sent));
		inFlight.add(sent);
	};
	while (!reader.finished) {
		if (stopAtMs !== undefined && Date.now() >= stopAtMs && mayStop(reader.prefix())) {
			await Promise.all(inFlight);
			return { submissions: reader.prefix(), complete: false };
		}
		if (!failure) reader.ready().forEach(send);
		if (inFlight.size === 0) break;
		await Promise.race(inFlight);
		if (failure && inFlight.size === 0) break;
	}
	if (failure) throw failure.error;
	if (!reader.finished) throw new Error('The read of submissions stopped with pages left to read');
	return { submissions: reader.results(), complete: true };
}
