/**
 * Fault injection for API calls (never for OAuth or control routes). A forced status or a
 * dropped connection happens BEFORE the call is processed (a dropped create creates nothing);
 * `dropAfterProcessingNext` processes the call and then drops the connection, for testing the
 * "maybe processed" case.
 */
import { ApiError, badRequest, RATE_LIMIT_MESSAGE } from './errors';

interface Matcher {
	method?: string;
	pathPattern?: RegExp;
}

interface CountedRule extends Matcher {
	remaining: number;
}

interface FailRule extends CountedRule {
	status: number;
	body?: unknown;
}

export interface ForcedFailure {
	status: number;
	body?: unknown;
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

function parseMatcher(value: Record<string, unknown>, field: string): CountedRule {
	const { count, method, pathPattern } = value;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) {
		throw badRequest(`${field}.count must be an integer >= 1`);
	}
	if (method !== undefined && typeof method !== 'string') throw badRequest(`${field}.method must be a string such as "POST"`);
	let pattern: RegExp | undefined;
	if (pathPattern !== undefined) {
		if (typeof pathPattern !== 'string') throw badRequest(`${field}.pathPattern must be a string (a regular expression)`);
		pattern = regExpOrUndefined(pathPattern);
		if (!pattern) throw badRequest(`${field}.pathPattern is not a valid regular expression`);
	}
	return { remaining: count, method: method?.toUpperCase(), pathPattern: pattern };
}

/** A rule or an array of rules, as the control API accepts either. */
function listOf(value: unknown, field: string): Array<Record<string, unknown>> {
	const items = Array.isArray(value) ? value : [value];
	if (!items.every(isObject)) throw badRequest(`${field} must be an object or an array of objects`);
	return items as Array<Record<string, unknown>>;
}

function describeRule(rule: CountedRule) {
	return { remaining: rule.remaining, method: rule.method, pathPattern: rule.pathPattern?.source };
}

export class Faults {
	latencyMs = 0;
	private fail: FailRule[] = [];
	private drop: CountedRule[] = [];
	private dropAfter: CountedRule[] = [];

	/** Sets what the body names; fields left out keep their current rules. */
	configure(body: unknown): void {
		if (!isObject(body)) throw badRequest('Body must be a JSON object');
		const { latencyMs, failNext, dropNext, dropAfterProcessingNext } = body;
		if (latencyMs !== undefined && (typeof latencyMs !== 'number' || latencyMs < 0 || !Number.isFinite(latencyMs))) {
			throw badRequest('latencyMs must be a number >= 0');
		}
		const fail =
			failNext === undefined
				? undefined
				: listOf(failNext, 'failNext').map((rule): FailRule => {
						const status = rule.status;
						if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
							throw badRequest('failNext.status must be an HTTP status code between 200 and 599');
						}
						return { ...parseMatcher(rule, 'failNext'), status, body: rule.body };
					});
		const drop = dropNext === undefined ? undefined : listOf(dropNext, 'dropNext').map((r) => parseMatcher(r, 'dropNext'));
		const dropAfter =
			dropAfterProcessingNext === undefined
				? undefined
				: listOf(dropAfterProcessingNext, 'dropAfterProcessingNext').map((r) => parseMatcher(r, 'dropAfterProcessingNext'));
		// Validate everything first, then apply, so a bad request changes nothing.
		if (latencyMs !== undefined) this.latencyMs = latencyMs as number;
		if (fail) this.fail = fail;
		if (drop) this.drop = drop;
		if (dropAfter) this.dropAfter = dropAfter;
	}

	clear(): void {
		this.latencyMs = 0;
		this.fail = [];
		this.drop = [];
		this.dropAfter = [];
	}

	describe() {
		return {
			latencyMs: this.latencyMs,
			failNext: this.fail.map((rule) => ({ ...describeRule(rule), status: rule.status, body: rule.body })),
			dropNext: this.drop.map(describeRule),
			dropAfterProcessingNext: this.dropAfter.map(describeRule),
		};
	}

	/** Uses up one count of the first matching rule. */
	private take<R extends CountedRule>(rules: R[], method: string, path: string): R | undefined {
		const rule = rules.find(
			(r) => r.remaining > 0 && (!r.method || r.method === method) && (!r.pathPattern || r.pathPattern.test(path)),
		);
		if (!rule) return undefined;
		rule.remaining--;
		if (rule.remaining === 0) rules.splice(rules.indexOf(rule), 1);
		return rule;
	}

	takeDrop(method: string, path: string): boolean {
		return this.take(this.drop, method, path) !== undefined;
	}

	takeFailure(method: string, path: string): ForcedFailure | undefined {
		const rule = this.take(this.fail, method, path);
		return rule && { status: rule.status, body: rule.body };
	}

	takeDropAfterProcessing(method: string, path: string): boolean {
		return this.take(this.dropAfter, method, path) !== undefined;
	}
}

export function forcedFailureError(status: number): ApiError {
	return new ApiError(status, status === 429 ? RATE_LIMIT_MESSAGE : `Sandbox fault injection: forced ${status}`);
}
