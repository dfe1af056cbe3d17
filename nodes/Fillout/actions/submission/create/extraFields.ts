import type { IDataObject } from 'n8n-workflow';

import type { Checked } from './answers';
import { formatInZone, isTimeZone, parseDateInput } from '../../../shared/dates';

/**
 * Checks the scheduling and payment values given for Create (as JSON), so that a
 * mistake is reported for its item and field instead of failing the whole batch.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function asObject(value: unknown): Checked<IDataObject> {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			return { ok: false, message: 'is not valid JSON' };
		}
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		return { ok: false, message: 'must be a JSON object' };
	}
	return { ok: true, value: { ...(parsed as IDataObject) } };
}

function isUrl(text: string): boolean {
	try {
		return /^https?:$/.test(new URL(text).protocol);
	} catch {
		return false;
	}
}

type Rule = 'string' | 'email' | 'url' | 'dateTime' | 'integer';

function checkRule(rule: Rule, key: string, value: unknown, timeZone: string): Checked<unknown> {
	if (rule === 'integer') {
		return typeof value === 'number' && Number.isInteger(value)
			? { ok: true, value }
			: { ok: false, message: `"${key}" must be a whole number` };
	}
	if (rule === 'dateTime') {
		const ms = parseDateInput(value, timeZone);
		return ms === undefined
			? { ok: false, message: `"${key}" is not a readable date and time` }
			: { ok: true, value: formatInZone(ms, timeZone) };
	}
	if (typeof value !== 'string') return { ok: false, message: `"${key}" must be text` };
	if (rule === 'email' && !EMAIL.test(value))
		return { ok: false, message: `"${key}" is not an email address` };
	if (rule === 'url' && !isUrl(value))
		return { ok: false, message: `"${key}" is not an http(s) address` };
	return { ok: true, value };
}

function checkObject(
	value: unknown,
	rules: Record<string, [Rule, boolean]>,
	timeZone: string,
	forbidden: Record<string, string> = {},
): Checked<IDataObject> {
	const object = asObject(value);
	if (!object.ok) return object;
	const result = object.value;
	for (const [key, reason] of Object.entries(forbidden)) {
		if (result[key] !== undefined) return { ok: false, message: `"${key}" ${reason}` };
	}
	for (const [key, [rule, required]] of Object.entries(rules)) {
		if (result[key] === undefined || result[key] === null) {
			if (required) return { ok: false, message: `"${key}" is required` };
			continue;
		}
		const checked = checkRule(rule, key, result[key], timeZone);
		if (!checked.ok) return checked;
		result[key] = checked.value as IDataObject[string];
	}
	return { ok: true, value: result };
}

/**
 * A booking: who, when, where. Times without an offset are read in the booking's own
 * `timezone` when it is a known zone, else in the workflow's; they are sent with an offset.
 */
export function schedulingValue(value: unknown, timeZone: string): Checked<IDataObject> {
	const object = asObject(value);
	if (!object.ok) return object;
	const bookingZone = isTimeZone(object.value.timezone) ? object.value.timezone : timeZone;
	return checkObject(
		value,
		{
			fullName: ['string', true],
			email: ['email', true],
			timezone: ['string', true],
			eventStartTime: ['dateTime', true],
			eventEndTime: ['dateTime', true],
			eventId: ['string', false],
			eventUrl: ['url', false],
			rescheduleOrCancelUrl: ['url', false],
			userId: ['integer', false],
			scheduledUserEmail: ['email', false],
			meetingNotes: ['string', false],
		},
		bookingZone,
	);
}

/**
 * A payment. Only the documented fields are checked; the processor-named ones
 * (`stripeCustomerId`, …) pass through untouched.
 */
export function paymentValue(value: unknown, timeZone: string): Checked<IDataObject> {
	return checkObject(
		value,
		{
			paymentId: ['string', true],
			totalAmount: ['integer', false],
			currency: ['string', false],
			email: ['email', false],
			status: ['string', false],
		},
		timeZone,
		{ discountCode: 'cannot be set when creating a submission (Fillout fills it in)' },
	);
}

/** A date field of the request (submission time, last updated), with an offset. */
export function requestDate(value: unknown, timeZone: string): Checked<string> {
	const ms = parseDateInput(value, timeZone);
	return ms === undefined
		? { ok: false, message: 'is not a readable date and time' }
		: { ok: true, value: formatInZone(ms, timeZone) };
}
