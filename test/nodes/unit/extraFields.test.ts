import {
	paymentValue,
	requestDate,
	schedulingValue,
} from '../../../nodes/Fillout/actions/submission/create/extraFields';

const booking = {
	fullName: 'Ana López',
	email: 'ana@example.com',
	timezone: 'Europe/Madrid',
	eventStartTime: '2024-06-01T10:00:00',
	eventEndTime: '2024-06-01T10:30:00+02:00',
};

describe('schedulingValue', () => {
	it('accepts a complete booking (object or JSON) and writes its times with an offset', () => {
		for (const value of [booking, JSON.stringify(booking)]) {
			expect(schedulingValue(value, 'Europe/Madrid')).toEqual({
				ok: true,
				value: {
					...booking,
					eventStartTime: '2024-06-01T10:00:00.000+02:00',
					eventEndTime: '2024-06-01T10:30:00.000+02:00',
				},
			});
		}
	});

	it('reads times without an offset in the booking’s own time zone when it names one', () => {
		const inTokyo = { ...booking, timezone: 'Asia/Tokyo' };
		expect(schedulingValue(inTokyo, 'Europe/Berlin')).toEqual({
			ok: true,
			value: {
				...inTokyo,
				eventStartTime: '2024-06-01T10:00:00.000+09:00',
				eventEndTime: '2024-06-01T17:30:00.000+09:00',
			},
		});
		const unknownZone = { ...booking, timezone: 'Mars/Base' };
		expect(schedulingValue(unknownZone, 'UTC')).toEqual(
			expect.objectContaining({
				value: expect.objectContaining({ eventStartTime: '2024-06-01T10:00:00.000+00:00' }),
			}),
		);
	});

	it('names what is wrong', () => {
		expect(schedulingValue('{', 'UTC')).toEqual({ ok: false, message: 'is not valid JSON' });
		expect(schedulingValue('[]', 'UTC')).toEqual({ ok: false, message: 'must be a JSON object' });
		expect(schedulingValue({ ...booking, email: 'nope' }, 'UTC')).toEqual({
			ok: false,
			message: '"email" is not an email address',
		});
		const withoutName: Record<string, unknown> = { ...booking };
		delete withoutName.fullName;
		expect(schedulingValue(withoutName, 'UTC')).toEqual({
			ok: false,
			message: '"fullName" is required',
		});
		expect(schedulingValue({ ...booking, eventEndTime: 'later' }, 'UTC').ok).toBe(false);
		expect(schedulingValue({ ...booking, userId: 1.5 }, 'UTC')).toEqual({
			ok: false,
			message: '"userId" must be a whole number',
		});
		expect(schedulingValue({ ...booking, eventUrl: 'ftp://x' }, 'UTC').ok).toBe(false);
	});
});

describe('paymentValue', () => {
	it('checks the documented fields and passes processor fields through', () => {
		const payment = {
			paymentId: 'pi_1',
			totalAmount: 1999,
			currency: 'eur',
			stripeCustomerId: 'cus_9',
		};
		expect(paymentValue(payment, 'UTC')).toEqual({ ok: true, value: payment });
		expect(paymentValue({ totalAmount: 1 }, 'UTC')).toEqual({
			ok: false,
			message: '"paymentId" is required',
		});
		expect(paymentValue({ paymentId: 'p', totalAmount: 19.99 }, 'UTC').ok).toBe(false);
		expect(paymentValue({ paymentId: 'p', discountCode: 'X' }, 'UTC').ok).toBe(false);
	});
});

describe('requestDate', () => {
	it('writes a date with the zone’s offset or says it is unreadable', () => {
		expect(requestDate('2024-01-02T03:04:05', 'Asia/Tokyo')).toEqual({
			ok: true,
			value: '2024-01-02T03:04:05.000+09:00',
		});
		expect(requestDate('never', 'UTC')).toEqual({
			ok: false,
			message: 'is not a readable date and time',
		});
	});
});
