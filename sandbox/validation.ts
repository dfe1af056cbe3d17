/**
 * Validation of query parameters (one clear message per parameter, naming the allowed values)
 * and of the create-submissions body (an array of issues in zod's shape, as the live service
 * reports them).
 */
import { badRequest, validationError, type ValidationIssue } from './errors';
import type { FormRecord } from './types';

type Path = Array<string | number>;

// ---------- dates ----------

const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))$/;

/** Epoch ms of an ISO 8601 date-time with `Z` or an offset; undefined when not one (incl. 2024-02-30). */
export function parseIsoDateTime(text: string): number | undefined {
	const m = ISO_DATE_TIME.exec(text);
	if (!m) return undefined;
	const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
	const second = m[6] ? Number(m[6]) : 0;
	const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	if (
		month < 1 ||
		month > 12 ||
		day < 1 ||
		day > daysInMonth ||
		hour > 23 ||
		minute > 59 ||
		second > 59
	)
		return undefined;
	let offsetMinutes = 0;
	if (m[8] !== 'Z') {
		const offsetHours = Number(m[10]);
		const offsetMins = Number(m[11]);
		if (offsetHours > 23 || offsetMins > 59) return undefined;
		offsetMinutes = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
	}
	return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}

// ---------- query parameters ----------

/** The single value of a query parameter; repeating one is an error rather than a silent pick. */
function single(params: URLSearchParams, name: string): string | undefined {
	const all = params.getAll(name);
	if (all.length > 1) throw badRequest(`${name} must be given at most once`);
	return all[0];
}

export function integerParam(
	params: URLSearchParams,
	name: string,
	min: number,
	max: number | undefined,
	fallback: number,
): number {
	const raw = single(params, name);
	if (raw === undefined) return fallback;
	const range = max === undefined ? `an integer >= ${min}` : `an integer between ${min} and ${max}`;
	if (!/^-?\d+$/.test(raw.trim())) throw badRequest(`${name} must be ${range}; got "${raw}"`);
	const value = Number(raw);
	if (value < min || (max !== undefined && value > max))
		throw badRequest(`${name} must be ${range}; got ${raw}`);
	return value;
}

export function enumParam<T extends string>(
	params: URLSearchParams,
	name: string,
	allowed: readonly T[],
	fallback: T,
): T {
	const raw = single(params, name);
	if (raw === undefined) return fallback;
	if (!(allowed as readonly string[]).includes(raw)) {
		throw badRequest(`${name} must be one of: ${allowed.join(', ')}; got "${raw}"`);
	}
	return raw as T;
}

export function booleanParam(params: URLSearchParams, name: string): boolean {
	return enumParam(params, name, ['true', 'false'] as const, 'false') === 'true';
}

export function dateParam(params: URLSearchParams, name: string): number | undefined {
	const raw = single(params, name);
	if (raw === undefined) return undefined;
	const ms = parseIsoDateTime(raw);
	if (ms === undefined) {
		throw badRequest(
			`${name} must be an ISO 8601 date-time with a time zone, such as 2024-05-16T23:20:05.324Z or 2024-05-16T23:20:05+02:00; got "${raw}"`,
		);
	}
	return ms;
}

export function stringParam(params: URLSearchParams, name: string): string | undefined {
	return single(params, name);
}

// ---------- create-submissions body ----------

/** zod's names for JSON types, used in its "Expected X, received Y" messages. */
function typeName(value: unknown): string {
	if (value === undefined) return 'undefined';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : 'number';
	return typeof value;
}

function typeIssue(path: Path, expected: string, value: unknown): ValidationIssue {
	const received = typeName(value);
	return {
		code: 'invalid_type',
		expected,
		received,
		path,
		message: received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}`,
	};
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isUrl(text: string): boolean {
	try {
		new URL(text);
		return true;
	} catch {
		return false;
	}
}

type FieldKind = 'string' | 'email' | 'url' | 'datetime' | 'integer';

/** Field name → [kind, required]; keys not listed are dropped, as zod strips them. */
type ObjectSchema = Record<string, [FieldKind, boolean]>;

const SCHEDULING_VALUE: ObjectSchema = {
	fullName: ['string', true],
	email: ['email', true],
	timezone: ['string', true],
	eventStartTime: ['datetime', true],
	eventEndTime: ['datetime', true],
	eventId: ['string', false],
	eventUrl: ['url', false],
	rescheduleOrCancelUrl: ['url', false],
	userId: ['integer', false],
	scheduledUserEmail: ['email', false],
	meetingNotes: ['string', false],
};

/** Live names carry the processor's brand; discountCode is not part of the create request. */
const PAYMENT_VALUE: ObjectSchema = {
	paymentId: ['string', true],
	stripeCustomerId: ['string', false],
	stripeCustomerUrl: ['url', false],
	stripePaymentUrl: ['url', false],
	totalAmount: ['integer', false],
	currency: ['string', false],
	email: ['email', false],
	status: ['string', false],
	stripeSubscriptionId: ['string', false],
};

function checkField(kind: FieldKind, value: unknown, path: Path, issues: ValidationIssue[]): void {
	if (kind === 'integer') {
		if (typeof value !== 'number') issues.push(typeIssue(path, 'number', value));
		else if (!Number.isInteger(value)) {
			issues.push({
				code: 'invalid_type',
				expected: 'integer',
				received: 'float',
				path,
				message: 'Expected integer, received float',
			});
		}
		return;
	}
	if (typeof value !== 'string') {
		issues.push(typeIssue(path, 'string', value));
		return;
	}
	if (kind === 'email' && !EMAIL.test(value)) {
		issues.push({ code: 'invalid_string', validation: 'email', path, message: 'Invalid email' });
	} else if (kind === 'url' && !isUrl(value)) {
		issues.push({ code: 'invalid_string', validation: 'url', path, message: 'Invalid url' });
	} else if (kind === 'datetime' && parseIsoDateTime(value) === undefined) {
		issues.push({
			code: 'invalid_string',
			validation: 'datetime',
			path,
			message: 'Invalid datetime',
		});
	}
}

function checkObject(
	schema: ObjectSchema,
	value: unknown,
	path: Path,
	issues: ValidationIssue[],
): Record<string, unknown> {
	if (!isObject(value)) {
		issues.push(typeIssue(path, 'object', value));
		return {};
	}
	const kept: Record<string, unknown> = {};
	for (const [key, [kind, required]] of Object.entries(schema)) {
		if (value[key] === undefined) {
			if (required)
				issues.push(typeIssue([...path, key], kind === 'integer' ? 'number' : 'string', undefined));
			continue;
		}
		checkField(kind, value[key], [...path, key], issues);
		kept[key] = value[key];
	}
	return kept;
}

/** An optional array of `{id, value}` entries whose ids must belong to `known`. */
function checkIdEntries(
	value: unknown,
	path: Path,
	issues: ValidationIssue[],
	known: ReadonlySet<string>,
	what: string,
	checkValue: (entry: Record<string, unknown>, entryPath: Path) => unknown,
): Map<string, unknown> {
	const result = new Map<string, unknown>();
	if (value === undefined) return result;
	if (!Array.isArray(value)) {
		issues.push(typeIssue(path, 'array', value));
		return result;
	}
	value.forEach((entry, index) => {
		const entryPath = [...path, index];
		if (!isObject(entry)) {
			issues.push(typeIssue(entryPath, 'object', entry));
			return;
		}
		if (typeof entry.id !== 'string') {
			issues.push(typeIssue([...entryPath, 'id'], 'string', entry.id));
			return;
		}
		if (!known.has(entry.id)) {
			issues.push({
				code: 'custom',
				path: [...entryPath, 'id'],
				message: `No ${what} with id "${entry.id}" exists on this form`,
			});
			return;
		}
		if (result.has(entry.id)) {
			issues.push({
				code: 'custom',
				path: [...entryPath, 'id'],
				message: `Duplicate ${what} id "${entry.id}"`,
			});
			return;
		}
		result.set(entry.id, checkValue(entry, entryPath));
	});
	return result;
}

export const MAX_SUBMISSIONS_PER_CREATE = 10;

export interface CreateItem {
	answers: Map<string, unknown>;
	urlParameters: Map<string, string>;
	scheduling: Map<string, Record<string, unknown>>;
	payments: Map<string, Record<string, unknown>>;
	submissionTime?: string;
	lastUpdatedAt?: string;
}

function checkCreateItem(
	form: FormRecord,
	item: unknown,
	path: Path,
	issues: ValidationIssue[],
): CreateItem | undefined {
	if (!isObject(item)) {
		issues.push(typeIssue(path, 'object', item));
		return undefined;
	}
	const ids = (fields: Array<{ id: string }>) => new Set(fields.map((f) => f.id));
	if (item.questions === undefined)
		issues.push(typeIssue([...path, 'questions'], 'array', undefined));
	const answers = checkIdEntries(
		item.questions,
		[...path, 'questions'],
		issues,
		ids(form.questions),
		'question',
		(entry) => entry.value ?? null,
	);
	const urlParameters = checkIdEntries(
		item.urlParameters,
		[...path, 'urlParameters'],
		issues,
		ids(form.urlParameters),
		'URL parameter',
		(entry, p) => {
			if (typeof entry.name !== 'string')
				issues.push(typeIssue([...p, 'name'], 'string', entry.name));
			if (typeof entry.value !== 'string')
				issues.push(typeIssue([...p, 'value'], 'string', entry.value));
			return String(entry.value);
		},
	);
	const scheduling = checkIdEntries(
		item.scheduling,
		[...path, 'scheduling'],
		issues,
		ids(form.scheduling),
		'scheduling field',
		(entry, p) => checkObject(SCHEDULING_VALUE, entry.value, [...p, 'value'], issues),
	);
	const payments = checkIdEntries(
		item.payments,
		[...path, 'payments'],
		issues,
		ids(form.payments),
		'payment field',
		(entry, p) => checkObject(PAYMENT_VALUE, entry.value, [...p, 'value'], issues),
	);
	for (const key of ['submissionTime', 'lastUpdatedAt'] as const) {
		if (item[key] !== undefined) checkField('datetime', item[key], [...path, key], issues);
	}
	return {
		answers,
		urlParameters: urlParameters as Map<string, string>,
		scheduling: scheduling as Map<string, Record<string, unknown>>,
		payments: payments as Map<string, Record<string, unknown>>,
		submissionTime: typeof item.submissionTime === 'string' ? item.submissionTime : undefined,
		lastUpdatedAt: typeof item.lastUpdatedAt === 'string' ? item.lastUpdatedAt : undefined,
	};
}

/** The items of a create request, or a 400 listing every issue found. */
export function validateCreateBody(form: FormRecord, body: unknown): CreateItem[] {
	const issues: ValidationIssue[] = [];
	if (!isObject(body)) throw validationError([typeIssue([], 'object', body)]);
	const list = body.submissions;
	if (!Array.isArray(list)) throw validationError([typeIssue(['submissions'], 'array', list)]);
	if (list.length > MAX_SUBMISSIONS_PER_CREATE) {
		issues.push({
			code: 'too_big',
			maximum: MAX_SUBMISSIONS_PER_CREATE,
			type: 'array',
			inclusive: true,
			exact: false,
			path: ['submissions'],
			message: `Array must contain at most ${MAX_SUBMISSIONS_PER_CREATE} element(s)`,
		});
	}
	const items = list.map((item, index) =>
		checkCreateItem(form, item, ['submissions', index], issues),
	);
	if (issues.length) throw validationError(issues);
	return items as CreateItem[];
}
