import type { IDataObject } from 'n8n-workflow';

import type { Submission, SubmissionPage } from '../helpers/interfaces';
import { SubmissionPager, type PagerOptions } from '../helpers/submissionPaging';
import { filloutRequest, type FilloutContext } from '../transport';

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
	const pager = new SubmissionPager<Submission>(pagerOptions);
	for (let query = pager.next(); query; query = pager.next()) {
		const page = await filloutRequest<SubmissionPage>(ctx, {
			method: 'GET',
			path: `/forms/${encodeURIComponent(formId)}/submissions`,
			qs: { ...fixedQuery, ...query },
			context: { formId },
			itemIndex,
		});
		pager.receive(page);
	}
	return pager.results();
}
