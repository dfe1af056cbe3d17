import type { IDataObject } from 'n8n-workflow';

import type { Submission, SubmissionPage } from './interfaces';
import { SubmissionPager, type PagerOptions } from '../helpers/submissionPaging';
import { filloutRequest, type FilloutContext, type FilloutRequest } from '../transport';

/**
 * Every submission of a form the pager's options select, each once, in order
 * (helpers/submissionPaging.ts says why that holds while the form changes).
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
 * prefix, in order, of the whole listing.
 */
export async function readSubmissionsUntil(
	ctx: FilloutContext,
	formId: string,
	pagerOptions: PagerOptions,
	fixedQuery: IDataObject,
	limits: ReadLimits,
): Promise<PartialRead> {
	const pager = new SubmissionPager<Submission>(pagerOptions);
	const { stopAtMs, mayStop = () => true } = limits;
	for (let query = pager.next(); query; query = pager.next()) {
		if (stopAtMs !== undefined && Date.now() >= stopAtMs && mayStop(pager.results())) {
			return { submissions: pager.results(), complete: false };
		}
		const page = await filloutRequest<SubmissionPage>(ctx, {
			method: 'GET',
			path: `/forms/${encodeURIComponent(formId)}/submissions`,
			qs: { ...fixedQuery, ...query },
			context: { formId },
			itemIndex: limits.itemIndex,
			onHeaders: limits.onHeaders,
		});
		pager.receive(page);
	}
	return { submissions: pager.results(), complete: true };
}
