/** Errors in the live service's shape: `{statusCode, error, message}`. */

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function statusText(status: number): string {
	return STATUS_TEXT[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error');
}

export interface ErrorBody {
	statusCode: number;
	error: string;
	message: string;
}

export function errorBody(status: number, message: string): ErrorBody {
	return { statusCode: status, error: statusText(status), message };
}

export const RATE_LIMIT_MESSAGE = 'Too many requests. Try again soon.';

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}

	body(): ErrorBody {
		return errorBody(this.status, this.message);
	}
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);

/** One entry of the array a bad create body reports (zod's issue shape, as the live service). */
export interface ValidationIssue {
	code: string;
	path: Array<string | number>;
	message: string;
	[extra: string]: unknown;
}

export function validationError(issues: ValidationIssue[]): ApiError {
	return new ApiError(400, JSON.stringify(issues));
}

/** Listing in-progress submissions on an account whose plan does not include them. */
export const IN_PROGRESS_NEEDS_PAID_PLAN =
	'Listing in-progress submissions requires a paid plan. Upgrade your plan to access this feature.';
