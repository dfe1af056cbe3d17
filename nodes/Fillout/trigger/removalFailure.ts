import type { ServiceFailure } from '../transport/errorMessages';
import { describeFailure } from '../transport/errorMessages';

/**
 * What a failed `/webhook/delete` means for the recorded webhook. Fillout cannot list
 * webhooks and answers 400 to many errors, so only the kind of answer tells:
 * - `retry`: no answer, 408, 429 or 5xx. Fillout may remove it later: keep the record
 *   and fail, so that the next activation or deactivation tries again.
 * - `credentials`: a refusal that names the credentials (401, 403, or a message about
 *   the key or token). Only a check of the credentials tells whether it is really about
 *   them or about a webhook of another account.
 * - `forget`: any other 4xx. Fillout will not remove this id (gone, another account's,
 *   or unknown to it); keeping the record would fail every later activation.
 */
export type RemovalFailure = 'retry' | 'credentials' | 'forget';

export function classifyRemovalFailure(failure: ServiceFailure): RemovalFailure {
	const { statusCode } = failure;
	if (statusCode === undefined || statusCode === 408 || statusCode === 429 || statusCode >= 500) {
		return 'retry';
	}
	if (describeFailure(failure).kind === 'credentials') return 'credentials';
	return statusCode >= 400 ? 'forget' : 'retry';
}
