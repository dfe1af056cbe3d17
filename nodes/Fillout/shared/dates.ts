/**
 * Dates without luxon (the package has no runtime dependencies): wall times typed in
 * the editor are read in the workflow's time zone, and sent as ISO 8601 with an offset.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		// Throws a RangeError for an unknown zone, which callers report.
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

interface WallTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
}

function wallTimeAt(epochMs: number, timeZone: string): WallTime {
	const parts: Record<string, number> = {};
	for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	return {
		year: parts.year,
		month: parts.month,
		day: parts.day,
		hour: parts.hour,
		minute: parts.minute,
		second: parts.second,
		millisecond: ((epochMs % 1000) + 1000) % 1000,
	};
}

function wallTimeAsUtc(wall: WallTime): number {
	const ms = Date.UTC(
		wall.year,
		wall.month - 1,
		wall.day,
		wall.hour,
		wall.minute,
		wall.second,
		wall.millisecond,
	);
	// Date.UTC maps years 0–99 to 1900–1999.
	return wall.year < 100 ? new Date(ms).setUTCFullYear(wall.year) : ms;
}

/** Offset of `timeZone` from UTC at an instant, in minutes (e.g. +120 for CEST). */
export function zoneOffsetMinutes(epochMs: number, timeZone: string): number {
	return Math.round((wallTimeAsUtc(wallTimeAt(epochMs, timeZone)) - epochMs) / 60000);
}

/**
 * The instant a wall time names in `timeZone`. In a DST gap the wall time moves
 * forward (02:30 on a spring-forward day becomes 03:30); in an overlap the earlier
 * instant wins, as Luxon does.
 */
function instantOfWallTime(wall: WallTime, timeZone: string): number {
	const asUtc = wallTimeAsUtc(wall);
	const day = 86400000;
	// Transitions are months apart, so the offsets a day before and after bracket any.
	const offsetBefore = zoneOffsetMinutes(asUtc - day, timeZone);
	const offsetAfter = zoneOffsetMinutes(asUtc + day, timeZone);
	const candidates = [asUtc - offsetBefore * 60000, asUtc - offsetAfter * 60000];
	const valid = candidates.filter(
		(instant) => wallTimeAsUtc(wallTimeAt(instant, timeZone)) === asUtc,
	);
	return valid.length ? Math.min(...valid) : candidates[0];
}

function pad(value: number, length = 2): string {
	return String(Math.abs(value)).padStart(length, '0');
}

function formatOffset(minutes: number): string {
	const sign = minutes < 0 ? '-' : '+';
	return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}

/** `2024-05-01T00:00:00.000+02:00`: the instant written in the zone's local time. */
export function formatInZone(epochMs: number, timeZone: string): string {
	const wall = wallTimeAt(epochMs, timeZone);
	const date = `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
	const time = `${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}.${pad(wall.millisecond, 3)}`;
	return `${date}T${time}${formatOffset(zoneOffsetMinutes(epochMs, timeZone))}`;
}

/** `2024-05-01`: the calendar date of the instant in the zone. */
export function dateInZone(epochMs: number, timeZone: string): string {
	const wall = wallTimeAt(epochMs, timeZone);
	return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

const ISO_PATTERN =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

interface DateTimeLike {
	toMillis(): number;
	toISODate?: () => unknown;
	isValid?: boolean;
}

function isDateTimeLike(value: unknown): value is DateTimeLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
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
	if (typeof value !== 'string') return undefined;

	const match = ISO_PATTERN.exec(value.trim());
	if (!match) return undefined;
	const [, year, month, day, hour, minute, second, fraction, offset] = match;
	const wall: WallTime = {
		year: Number(year),
		month: Number(month),
		day: Number(day),
		hour: Number(hour ?? 0),
		minute: Number(minute ?? 0),
		second: Number(second ?? 0),
		millisecond: fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0,
	};
	if (!isRealWallTime(wall)) return undefined;

	if (offset === undefined) return instantOfWallTime(wall, timeZone);
	const utc = wallTimeAsUtc(wall);
	if (offset.toUpperCase() === 'Z') return utc;
	const digits = offset.replace(':', '');
	const offsetMinutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
	return utc - (digits.startsWith('-') ? -offsetMinutes : offsetMinutes) * 60000;
}

function isRealWallTime(wall: WallTime): boolean {
	if (wall.month < 1 || wall.month > 12 || wall.day < 1) return false;
	if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) return false;
	const daysInMonth = new Date(Date.UTC(2000, wall.month, 0)).getUTCDate();
	const leap = wall.year % 4 === 0 && (wall.year % 100 !== 0 || wall.year % 400 === 0);
	return wall.day <= (wall.month === 2 && !leap ? 28 : daysInMonth);
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
	if (typeof name !== 'string' || name.trim() === '') return false;
	try {
		formatterFor(name);
		return true;
	} catch {
		return false;
	}
}
