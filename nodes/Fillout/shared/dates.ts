import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';

/**
 * Dates as the editor and expressions give them: wall times are read in the workflow's
 * time zone and sent as ISO 8601 with an offset. Luxon comes with n8n (the package
 * declares no dependency); every zone is passed explicitly, since n8n sets luxon's
 * default zone to the workflow's while it evaluates expressions.
 */

const DAY_MS = 86_400_000;

/** The zone for an IANA name; a RangeError for an unknown one, which callers report. */
function zoneNamed(timeZone: string): IANAZone {
	if (!IANAZone.isValidZone(timeZone)) {
		throw new RangeError(`Invalid time zone specified: ${timeZone}`);
	}
	return IANAZone.create(timeZone);
}

/** Offset of `timeZone` from UTC at an instant, in minutes (e.g. +120 for CEST). */
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
	// Whole minutes: old local mean times are seconds off the minute.
	return Math.round(zoneNamed(timeZone).offset(epochMs));
}

/** `2024-05-01T00:00:00.000+02:00`: the instant written in the zone's local time. */
export function formatInZone(epochMs: number, timeZone: string): string {
	const local = DateTime.fromMillis(epochMs, { zone: zoneNamed(timeZone) });
	const offset = FixedOffsetZone.instance(zoneOffsetMinutes(epochMs, timeZone));
	return `${local.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS")}${offset.formatOffset(epochMs, 'short')}`;
}

/** `2024-05-01`: the calendar date of the instant in the zone. */
export function dateInZone(epochMs: number, timeZone: string): string {
	return DateTime.fromMillis(epochMs, { zone: zoneNamed(timeZone) }).toFormat('yyyy-MM-dd');
}

/**
 * The instant a wall time (given as if it were UTC) names in `timeZone`. In a DST gap
 * the wall time moves forward (02:30 on a spring-forward day becomes 03:30); in an
 * overlap the earlier instant wins. Luxon alone would pick by today's offset there.
 */
function instantOfWallTime(wallAsUtc: number, timeZone: string): number {
	// Transitions are months apart: the offsets a day before and after bracket any.
	const offsets = [wallAsUtc - DAY_MS, wallAsUtc + DAY_MS].map((near) =>
		zoneOffsetMinutes(near, timeZone),
	);
	const instants = offsets.map((offset) => wallAsUtc - offset * 60_000);
	const valid = instants.filter(
		(instant) => instant + zoneOffsetMinutes(instant, timeZone) * 60_000 === wallAsUtc,
	);
	return valid.length ? Math.min(...valid) : instants[0];
}

const ISO_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

interface DateTimeLike {
	toMillis(): number;
	toISODate?: () => unknown;
	isValid?: boolean;
}

/** A luxon DateTime from an expression (n8n's copy of luxon, so no `instanceof`). */
function isDateTimeLike(value: unknown): value is DateTimeLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
}

/** Minutes east of UTC in `Z`, `+05:30`, `-0400` or `+02`. */
function offsetMinutes(offset: string): number {
	if (offset.toUpperCase() === 'Z') return 0;
	const digits = offset.replace(':', '');
	const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
	return digits.startsWith('-') ? -minutes : minutes;
}

/** An ISO text as epoch milliseconds; without an offset, a wall time in `timeZone`. */
function parseIsoText(text: string, timeZone: string): number | undefined {
	const match = ISO_PATTERN.exec(text.trim());
	if (!match) return undefined;
	const [, year, month, day, hour, minute, second, fraction, offset] = match;
	const wall = DateTime.fromObject(
		{
			year: Number(year),
			month: Number(month),
			day: Number(day),
			hour: Number(hour ?? 0),
			minute: Number(minute ?? 0),
			second: Number(second ?? 0),
			millisecond: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
		},
		{ zone: FixedOffsetZone.utcInstance },
	);
	// Luxon accepts 24:00 as the end of a day; a form's answer does not.
	if (!wall.isValid || wall.hour !== Number(hour ?? 0)) return undefined;
	if (offset === undefined) return instantOfWallTime(wall.toMillis(), timeZone);
	return wall.toMillis() - offsetMinutes(offset) * 60_000;
}

/**
 * Reads a date as the editor or an expression gives it: an ISO string with or without
 * an offset (without one, it is a wall time in `timeZone`), a date alone (midnight),
 * a JavaScript Date or a Luxon DateTime. Returns epoch milliseconds, or undefined
 * when the value is not a readable date.
 */
export function parseDateInput(value: unknown, timeZone: string): number | undefined {
	if (value instanceof Date) {
		const ms = value.getTime();
		return Number.isNaN(ms) ? undefined : ms;
	}
	if (isDateTimeLike(value)) {
		if (value.isValid === false) return undefined;
		const ms = value.toMillis();
		return Number.isFinite(ms) ? ms : undefined;
	}
	return typeof value === 'string' ? parseIsoText(value, timeZone) : undefined;
}

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The calendar date a value is written with, for questions that hold a date alone.
 * Text keeps its own date part whatever time, offset or zone follows: people, sheets
 * and `Date.toJSON()` write a plain date as `2024-05-01T00:00:00.000Z`, and reading it
 * as an instant would move it a day in other zones. A Luxon DateTime gives its date in
 * its own zone. A JavaScript Date is only an instant: its date in `timeZone`, as n8n
 * shows a Date in expressions. Undefined when the value is not a readable date.
 */
export function calendarDate(value: unknown, timeZone: string): string | undefined {
	if (typeof value === 'string') {
		const text = value.trim();
		// The whole text must be a real date and time; only its date part is kept.
		return parseDateInput(text, 'UTC') === undefined ? undefined : text.slice(0, 10);
	}
	if (isDateTimeLike(value) && typeof value.toISODate === 'function') {
		if (value.isValid === false) return undefined;
		const date = value.toISODate();
		return typeof date === 'string' && CALENDAR_DATE.test(date) ? date : undefined;
	}
	const ms = parseDateInput(value, timeZone);
	return ms === undefined ? undefined : dateInZone(ms, timeZone);
}

/** Whether an empty editor field was left empty (no date given). */
export function isEmptyDate(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Whether `name` is a time zone this runtime knows (IANA name such as Europe/Berlin). */
export function isTimeZone(name: unknown): name is string {
	return typeof name === 'string' && name.trim() !== '' && IANAZone.isValidZone(name);
}
