/** Where the ranges of a split Return All start (submissionReader.ts). */

import {
	instantStart,
	isoOf,
	timeOf,
	type PageAnswer,
	type PageQuery,
	type PagedSubmission,
} from './pages';
import type { PagerOptions } from './submissionPager';

/** A page at an offset, read to find where a range starts. */
export interface Probe<T extends PagedSubmission> {
	query: PageQuery;
	answer?: PageAnswer<T>;
}

export interface RangeStart<T> {
	/** Undefined for the first range: from the user's own start. */
	timeMs?: number;
	/** The query its first page answers, and that page. */
	query: PageQuery;
	responses: T[];
}

/**
 * The first page, then each probe's first submission that is later than the one before
 * it (an instant's first), in increasing order, none later than a second before the
 * present. A probe that shows no such submission is not used.
 */
export function rangeStarts<T extends PagedSubmission>(
	[first, ...probes]: ReadonlyArray<Probe<T>>,
	options: PagerOptions,
	presentMs: number,
): Array<RangeStart<T>> {
	const starts: Array<RangeStart<T>> = [
		{ query: first.query, responses: responsesOf(first.answer) },
	];
	let lastMs = -Infinity;
	for (const probe of probes) {
		const responses = responsesOf(probe.answer);
		const at = instantStart(responses);
		if (at === -1) continue;
		const timeMs = timeOf(responses[at])!;
		if (timeMs <= lastMs || timeMs > presentMs - 1000) continue;
		lastMs = timeMs;
		const query: PageQuery = {
			limit: probe.query.limit - at,
			sort: 'asc',
			afterDate: afterDateOf(timeMs, options.afterDate),
			...(options.beforeDate === undefined ? {} : { beforeDate: options.beforeDate }),
		};
		starts.push({ timeMs, query, responses: responses.slice(at) });
	}
	return starts;
}

/** "From `startMs` on", sent as 1 ms before it, narrowed by the user's own filter. */
export function afterDateOf(startMs: number | undefined, userAfter?: string): string | undefined {
	if (startMs === undefined) return userAfter;
	return Date.parse(userAfter ?? '') >= startMs - 1 ? userAfter : isoOf(startMs - 1);
}

export function responsesOf<T extends PagedSubmission>(answer: PageAnswer<T> | undefined): T[] {
	return Array.isArray(answer?.responses) ? answer.responses : [];
}

/**
 * Where the probes read: ranges of whole pages of `step` new submissions, as equal as can
 * be, the newer ones taking the spare pages: taking turns, the newest then sends its short
 * last page after every other range's last, and ends last without a page more. Each is
 * 2 short of its pages: a range starts one after its offset (the first submission shows
 * no instant's start), and its last page lists the next range's first too.
 */
export function probeOffsets(count: number, ranges: number, step: number): number[] {
	const pages = Math.ceil(count / step);
	const base = Math.floor(pages / ranges);
	const firstLarger = ranges - (pages - base * ranges);
	const offsets: number[] = [];
	let offset = 0;
	for (let k = 0; k < ranges - 1; k++) {
		offset += (base + (k >= firstLarger ? 1 : 0)) * step - 2;
		offsets.push(offset);
	}
	return offsets;
}
