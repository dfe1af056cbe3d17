import {
	calendarDate,
	dateInZone,
	formatInZone,
	isEmptyDate,
	parseDateInput,
	zoneOffsetMinutes,
} from '../../../nodes/Fillout/shared/dates';

const BERLIN = 'Europe/Berlin';

describe('parseDateInput + formatInZone', () => {
	it('reads a wall time without offset in the workflow zone and writes it with the offset', () => {
		const ms = parseDateInput('2024-05-01T00:00:00', BERLIN);
		expect(ms).toBe(Date.UTC(2024, 3, 30, 22));
		expect(formatInZone(ms as number, BERLIN)).toBe('2024-05-01T00:00:00.000+02:00');
		expect(formatInZone(parseDateInput('2024-01-15T08:30:00', BERLIN) as number, BERLIN)).toBe(
			'2024-01-15T08:30:00.000+01:00',
		);
	});

	it('keeps the instant of a string with an offset or Z, and writes it in the workflow zone', () => {
		expect(parseDateInput('2024-05-01T00:00:00+05:30', BERLIN)).toBe(Date.UTC(2024, 3, 30, 18, 30));
		expect(parseDateInput('2024-05-01T00:00:00Z', 'America/New_York')).toBe(Date.UTC(2024, 4, 1));
		expect(parseDateInput('2024-05-01T00:00:00.250-0400', 'UTC')).toBe(
			Date.UTC(2024, 4, 1, 4, 0, 0, 250),
		);
		expect(formatInZone(Date.UTC(2024, 4, 1), 'America/New_York')).toBe(
			'2024-04-30T20:00:00.000-04:00',
		);
	});

	it('reads a date alone as midnight in the zone, and the editor’s space-separated form', () => {
		expect(formatInZone(parseDateInput('2024-05-01', BERLIN) as number, BERLIN)).toBe(
			'2024-05-01T00:00:00.000+02:00',
		);
		expect(formatInZone(parseDateInput('2024-05-01 13:45', 'UTC') as number, 'UTC')).toBe(
			'2024-05-01T13:45:00.000+00:00',
		);
	});

	it('reads JavaScript Dates and Luxon-like DateTimes (from expressions)', () => {
		const instant = Date.UTC(2024, 6, 4, 12);
		expect(parseDateInput(new Date(instant), BERLIN)).toBe(instant);
		expect(parseDateInput({ toMillis: () => instant, isValid: true }, BERLIN)).toBe(instant);
		expect(parseDateInput({ toMillis: () => NaN, isValid: false }, BERLIN)).toBeUndefined();
	});

	it('refuses what is not a date', () => {
		for (const bad of [
			'yesterday',
			'2024-02-30',
			'2024-13-01',
			'2024-05-01T25:00:00',
			'',
			12345,
			null,
			{},
		]) {
			expect(parseDateInput(bad, BERLIN)).toBeUndefined();
		}
		expect(parseDateInput(new Date('nope'), BERLIN)).toBeUndefined();
		expect(parseDateInput('2024-02-29', 'UTC')).toBe(Date.UTC(2024, 1, 29));
		expect(parseDateInput('2023-02-29', 'UTC')).toBeUndefined();
	});

	it('handles DST: a gap moves forward, an overlap takes the earlier instant', () => {
		// 2024-03-31 02:30 does not exist in Berlin: 03:30 CEST.
		expect(formatInZone(parseDateInput('2024-03-31T02:30:00', BERLIN) as number, BERLIN)).toBe(
			'2024-03-31T03:30:00.000+02:00',
		);
		// 2024-10-27 02:30 happens twice: the first (CEST) is taken.
		expect(formatInZone(parseDateInput('2024-10-27T02:30:00', BERLIN) as number, BERLIN)).toBe(
			'2024-10-27T02:30:00.000+02:00',
		);
		expect(zoneOffsetMinutes(Date.UTC(2024, 0, 1), 'Asia/Kolkata')).toBe(330);
		expect(zoneOffsetMinutes(Date.UTC(2024, 0, 1), 'America/St_Johns')).toBe(-210);
	});

	it('gives the calendar date in a zone', () => {
		expect(dateInZone(Date.UTC(2024, 4, 1, 23), BERLIN)).toBe('2024-05-02');
		expect(dateInZone(Date.UTC(2024, 4, 1, 23), 'UTC')).toBe('2024-05-01');
	});

	it('gives the calendar date a value is written with (DatePicker answers)', () => {
		const NEW_YORK = 'America/New_York';
		// Text: the date part as written, whatever time, offset or zone follows.
		expect(calendarDate('2024-05-01T00:00:00.000Z', NEW_YORK)).toBe('2024-05-01');
		expect(calendarDate('2024-05-01T23:30:00+02:00', 'Asia/Tokyo')).toBe('2024-05-01');
		expect(calendarDate('2024-12-31T23:59:59.999-10:00', BERLIN)).toBe('2024-12-31');
		expect(calendarDate('2024-05-01', NEW_YORK)).toBe('2024-05-01');
		expect(calendarDate('2024-05-01T10:00', NEW_YORK)).toBe('2024-05-01');
		// A Luxon DateTime: its date in its own zone (08:00 in Tokyo is 30 April in New York).
		const tokyoMorning = {
			isValid: true,
			toMillis: () => Date.UTC(2024, 3, 30, 23),
			toISODate: () => '2024-05-01',
		};
		expect(calendarDate(tokyoMorning, NEW_YORK)).toBe('2024-05-01');
		expect(calendarDate({ ...tokyoMorning, isValid: false }, NEW_YORK)).toBeUndefined();
		// Only a moment (a Date, or a DateTime-like without a date of its own): the workflow's zone.
		expect(calendarDate(new Date(Date.UTC(2024, 4, 1, 2)), NEW_YORK)).toBe('2024-04-30');
		expect(calendarDate({ toMillis: () => Date.UTC(2024, 4, 1, 2) }, BERLIN)).toBe('2024-05-01');
		// Not dates: refused, not guessed.
		for (const bad of [
			'2024-02-30T00:00:00Z',
			'2024-05-01T24:00:00',
			'05/01/2024',
			'',
			1714521600000,
		])
			expect(calendarDate(bad, BERLIN)).toBeUndefined();
		expect(calendarDate(new Date('nope'), BERLIN)).toBeUndefined();
	});

	it('recognises empty values', () => {
		expect(isEmptyDate('')).toBe(true);
		expect(isEmptyDate(undefined)).toBe(true);
		expect(isEmptyDate('2024')).toBe(false);
	});

	it('throws for an unknown time zone (reported by the caller)', () => {
		expect(() => formatInZone(0, 'Mars/Olympus')).toThrow(RangeError);
	});

	it('gives a local mean time (seconds off the minute, before 1946 in Tehran) in whole minutes', () => {
		// Tehran kept +3:25:44 until 1946: 205.7 minutes, written +03:26.
		const instant = Date.UTC(1900, 0, 1, 12);
		expect(zoneOffsetMinutes(instant, 'Asia/Tehran')).toBe(206);
		expect(formatInZone(instant, 'Asia/Tehran')).toMatch(/^1900-01-01T15:25:44\.000\+03:26$/);
	});

	it('reads and writes the year 0000 (1 BC), which Intl names year 1', () => {
		const august30 = new Date(0);
		august30.setUTCFullYear(0, 7, 30);
		august30.setUTCHours(19, 18, 0, 0);
		expect(parseDateInput('0000-08-30T19:18', 'UTC')).toBe(august30.getTime());
		expect(formatInZone(august30.getTime(), 'UTC')).toBe('0000-08-30T19:18:00.000+00:00');
	});
});
