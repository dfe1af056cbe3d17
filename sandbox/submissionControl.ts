/**
 * Changes to a stored submission that only tests make (PATCH /_sandbox/forms/:formId/
 * submissions/:submissionId): show one that was listed late, finish one in progress, and
 * move `lastUpdatedAt`, as respondents and Fillout's own indexing do on the live service.
 */
import { badRequest, notFound } from './errors';
import type { FormSubmissions } from './store';
import type { StoredSubmission } from './types';
import { parseIsoDateTime } from './validation';

export interface SubmissionChange {
	/** false lists a submission stored with `hidden: true`; true hides it again. */
	hidden?: boolean;
	/** 'finished' finishes an in-progress submission (its submissionTime becomes the finish time). */
	status?: 'finished';
	/** The new submissionTime when finishing (default: now). */
	submissionTime?: string;
	/** A date-time, or 'now'. */
	lastUpdatedAt?: string;
}

function instant(value: unknown, field: string, nowMs: number): number {
	if (value === 'now') return nowMs;
	const parsed = typeof value === 'string' ? parseIsoDateTime(value) : undefined;
	if (parsed === undefined)
		throw badRequest(`${field} must be "now" or an ISO 8601 date-time with a time zone`);
	return parsed;
}

export function parseSubmissionChange(body: Record<string, unknown>): SubmissionChange {
	const { hidden, status, submissionTime, lastUpdatedAt } = body;
	if (hidden !== undefined && typeof hidden !== 'boolean')
		throw badRequest('hidden must be a boolean');
	if (status !== undefined && status !== 'finished') throw badRequest('status must be "finished"');
	if (submissionTime !== undefined && status !== 'finished')
		throw badRequest('submissionTime can only be given with status "finished"');
	return {
		hidden,
		status,
		submissionTime: submissionTime as string | undefined,
		lastUpdatedAt: lastUpdatedAt as string | undefined,
	};
}

/** Applies the change; the list is re-sorted because the time may move. */
export function changeSubmission(
	list: FormSubmissions,
	submissionId: string,
	change: SubmissionChange,
	nowMs = Date.now(),
): StoredSubmission {
	const stored = list.get(submissionId);
	if (!stored) throw notFound(`Submission ${submissionId} not found`);
	const next: StoredSubmission = { ...stored, submission: { ...stored.submission } };
	if (change.hidden !== undefined) next.hidden = change.hidden || undefined;
	if (change.status === 'finished') {
		if (stored.status !== 'in_progress') throw badRequest('The submission is already finished');
		const finishedMs =
			change.submissionTime === undefined
				? nowMs
				: instant(change.submissionTime, 'submissionTime', nowMs);
		next.status = 'finished';
		next.timeMs = finishedMs;
		next.submission.submissionTime = new Date(finishedMs).toISOString();
		next.submission.lastUpdatedAt = next.submission.submissionTime;
	}
	if (change.lastUpdatedAt !== undefined) {
		const updatedMs = instant(change.lastUpdatedAt, 'lastUpdatedAt', nowMs);
		next.submission.lastUpdatedAt = new Date(updatedMs).toISOString();
	}
	list.remove(submissionId);
	list.add(next);
	return next;
}
