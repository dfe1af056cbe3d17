/**
 * Fault injection for API calls (never for OAuth or control routes). A forced status or a
 * dropped connection happens BEFORE the call is processed (a dropped create creates nothing);
 * `dropAfterProcessingNext` processes the call and then drops the connection, for testing the
 * "maybe processed" case, and `truncateNext` processes it and answers with fewer submissions
 * than it made.
 */
import { ApiError, badRequest, RATE_LIMIT_MESSAGE } from './errors';

interface Matcher {
	method?: string;
	pathPattern?: RegExp;
	/** Tested against the raw request body, e.g. to pick one of several creates in flight. */
	bodyPattern?: RegExp;
}

/** What a rule is matched against. */
export interface FaultCall {
	method: string;
	path: string;
	bodyText: string;
}

interface CountedRule extends Matcher {
	remaining: number;
}

interface FailRule extends CountedRule {
	status: number;
	body?: unknown;
	/** Sent as text/plain instead of a JSON body. */
	text?: string;
	/** A 429's `retry-after` value (1 when not given). */
	retryAfter?: string;
}

interface TruncateRule extends CountedRule {
	keep: number;
}

export interface ForcedFailure {
	status: number;
	body?: unknown;
	text?: string;
	retryAfter?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

function regExpOrUndefined(source: string): RegExp | undefined {
	try {
		return new RegExp(source);
	} catch {
		return undefined;
	}
}

function patternOf(value: unknown, name: string): RegExp | undefined {
	if (value === undefined) return undefined;
	if (typeof value !== 'string')
		throw badRequest(`${name} must be a string (a regular expression)`);
	const pattern = regExpOrUndefined(value);
	if (!pattern) throw badRequest(`${name} is not a valid regular expression`);
	return pattern;
}

function parseMatcher(value: Record<string, unknown>, field: string): CountedRule {
	const { count, method, pathPattern, bodyPattern } = value;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
		throw badRequest(`${field}.count must be an integer >= 1`);
	}
	if (method !== undefined && typeof method !== 'string')
		throw badRequest(`${field}.method must be a string such as "POST"`);
	return {
		remaining: count,
		method: method?.toUpperCase(),
		pathPattern: patternOf(pathPattern, `${field}.pathPattern`),
		bodyPattern: patternOf(bodyPattern, `${field}.bodyPattern`),
	};
}

/** A rule or an array of rules, as the control API accepts either. */
function listOf(value: unknown, field: string): Array<Record<string, unknown>> {
	const items = Array.isArray(value) ? value : [value];
	if (!items.every(isObject)) throw badRequest(`${field} must be an object or an array of objects`);
	return items as Array<Record<string, unknown>>;
}

function describeRule(rule: CountedRule) {
	return {
		remaining: rule.remaining,
		method: rule.method,
		pathPattern: rule.pathPattern?.source,
		bodyPattern: rule.bodyPattern?.source,
	};
}

function parseFailRule(rule: Record<string, unknown>): FailRule {
	const { status, body, text, retryAfter } = rule;
	if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
		throw badRequest('failNext.status must be an HTTP status code between 200 and 599');
	}
	if (text !== undefined && (typeof text !== 'string' || body !== undefined)) {
		throw badRequest('failNext.text must be a string, and not given together with body');
	}
	if (retryAfter !== undefined && (typeof retryAfter !== 'string' || status !== 429)) {
		throw badRequest('failNext.retryAfter must be a string, and goes with status 429 only');
	}
	return {
		...parseMatcher(rule, 'failNext'),
		status,
		body,
		text: text as string | undefined,
		retryAfter: retryAfter as string | undefined,
	};
}

function parseTruncateRule(rule: Record<string, unknown>): TruncateRule {
	const { keep } = rule;
	if (typeof keep !== 'number' || !Number.isInteger(keep) || keep < 0) {
		throw badRequest(
			'truncateNext.keep must be an integer >= 0: how many submissions the answer keeps',
		);
	}
	return { ...parseMatcher(rule, 'truncateNext'), keep };
}

export class Faults {
	latencyMs = 0;
	/** Each API call waits `latencyMs` plus up to this, at random. */
	latencyJitterMs = 0;
	private fail: FailRule[] = [];
	private drop: CountedRule[] = [];
	private dropAfter: CountedRule[] = [];
	private truncate: TruncateRule[] = [];

	/** Sets what the body names; fields left out keep their current rules. */
	configure(body: unknown): void {
		if (!isObject(body)) throw badRequest('Body must be a JSON object');
		const {
			latencyMs,
			latencyJitterMs,
			failNext,
			dropNext,
			dropAfterProcessingNext,
			truncateNext,
		} = body;
		for (const [name, value] of Object.entries({ latencyMs, latencyJitterMs })) {
			if (
				value !== undefined &&
				(typeof value !== 'number' || value < 0 || !Number.isFinite(value))
			)
				throw badRequest(`${name} must be a number >= 0`);
		}
		const fail =
			failNext === undefined ? undefined : listOf(failNext, 'failNext').map(parseFailRule);
		const drop =
			dropNext === undefined
				? undefined
				: listOf(dropNext, 'dropNext').map((r) => parseMatcher(r, 'dropNext'));
		const dropAfter =
			dropAfterProcessingNext === undefined
				? undefined
				: listOf(dropAfterProcessingNext, 'dropAfterProcessingNext').map((r) =>
						parseMatcher(r, 'dropAfterProcessingNext'),
					);
		const truncate =
			truncateNext === undefined
				? undefined
				: listOf(truncateNext, 'truncateNext').map(parseTruncateRule);
		// Validate everything first, then apply, so a bad request changes nothing.
		if (latencyMs !== undefined) this.latencyMs = latencyMs as number;
		if (latencyJitterMs !== undefined) this.latencyJitterMs = latencyJitterMs as number;
		if (fail) this.fail = fail;
		if (drop) this.drop = drop;
		if (dropAfter) this.dropAfter = dropAfter;
		if (truncate) this.truncate = truncate;
	}

	clear(): void {
		this.latencyMs = 0;
		this.latencyJitterMs = 0;
		this.fail = [];
		this.drop = [];
		this.dropAfter = [];
		this.truncate = [];
	}

	describe() {
		return {
			latencyMs: this.latencyMs,
			latencyJitterMs: this.latencyJitterMs,
			failNext: this.fail.map((rule) => ({
				...describeRule(rule),
				status: rule.status,
				body: rule.body,
				text: rule.text,
				retryAfter: rule.retryAfter,
			})),
			dropNext: this.drop.map(describeRule),
			dropAfterProcessingNext: this.dropAfter.map(describeRule),
			truncateNext: this.truncate.map((rule) => ({ ...describeRule(rule), keep: rule.keep })),
		};
	}

	/** Uses up one count of the first matching rule. */
	private take<R extends CountedRule>(rules: R[], call: FaultCall): R | undefined {
		const rule = rules.find(
			(r) =>
				r.remaining > 0 &&
				(!r.method || r.method === call.method) &&
				(!r.pathPattern || r.pathPattern.test(call.path)) &&
				(!r.bodyPattern || r.bodyPattern.test(call.bodyText)),
		);
		if (!rule) return undefined;
		rule.remaining--;
		if (rule.remaining === 0) rules.splice(rules.indexOf(rule), 1);
		return rule;
	}

	takeDrop(call: FaultCall): boolean {
		return this.take(this.drop, call) !== undefined;
	}

	takeFailure(call: FaultCall): ForcedFailure | undefined {
		const rule = this.take(this.fail, call);
		return (
			rule && { status: rule.status, body: rule.body, text: rule.text, retryAfter: rule.retryAfter }
		);
	}

	takeDropAfterProcessing(call: FaultCall): boolean {
		return this.take(this.dropAfter, call) !== undefined;
	}

	/** How many submissions the answer to this call keeps, if a rule cuts it. */
	takeTruncation(call: FaultCall): number | undefined {
		return this.take(this.truncate, call)?.keep;
	}
}

export function forcedFailureError(status: number): ApiError {
	return new ApiError(
		status,
		status === 429 ? RATE_LIMIT_MESSAGE : `Sandbox fault injection: forced ${status}`,
	);
}
