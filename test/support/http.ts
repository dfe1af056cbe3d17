/** Minimal HTTP over fetch for tests (sandbox, end-to-end, benchmarks): no redirects followed, JSON or text back. */

/** Parsed JSON: callers read into it and assert on what they find. */
export type Json = ReturnType<typeof JSON.parse>;

export interface HttpOptions {
	headers?: Record<string, string>;
	/** Sent as JSON. */
	json?: unknown;
	/** Sent as application/x-www-form-urlencoded. */
	form?: Record<string, string>;
	/** Sent as is. */
	raw?: string;
	/** Abort after this many milliseconds (default 30 s). */
	timeoutMs?: number;
}

export interface HttpResult<T = Json> {
	status: number;
	headers: Headers;
	/** Parsed JSON when the answer is JSON, else the text. */
	body: T;
	text: string;
}

export async function http<T = Json>(
	method: string,
	url: string,
	options: HttpOptions = {},
): Promise<HttpResult<T>> {
	const headers: Record<string, string> = { ...options.headers };
	let body: string | undefined;
	if (options.json !== undefined) {
		headers['content-type'] ??= 'application/json';
		body = JSON.stringify(options.json);
	} else if (options.form) {
		headers['content-type'] ??= 'application/x-www-form-urlencoded';
		body = new URLSearchParams(options.form).toString();
	} else if (options.raw !== undefined) {
		body = options.raw;
	}
	const response = await fetch(url, {
		method,
		headers,
		body,
		redirect: 'manual',
		signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
	});
	const text = await response.text();
	const isJson = (response.headers.get('content-type') ?? '').includes('json');
	let parsed: unknown = text;
	if (isJson && text !== '') {
		try {
			parsed = JSON.parse(text);
		} catch {
			parsed = text;
		}
	}
	return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Thrown for an answer with an unexpected status; carries it and the body's start. */
export class HttpError extends Error {
	constructor(
		readonly method: string,
		readonly url: string,
		readonly status: number,
		readonly text: string,
	) {
		super(`${method} ${url} answered ${status}: ${text.slice(0, 500)}`);
		this.name = 'HttpError';
	}
}

/** The same call, throwing HttpError unless the status is 2xx. */
export async function httpOk<T = Json>(
	method: string,
	url: string,
	options: HttpOptions = {},
): Promise<HttpResult<T>> {
	const result = await http<T>(method, url, options);
	if (result.status < 200 || result.status >= 300) {
		throw new HttpError(method, url, result.status, result.text);
	}
	return result;
}
