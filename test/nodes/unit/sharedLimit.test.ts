import {
	MIN_ALLOWANCE,
	readLimitSignal,
	SharedAccountGauge,
	type LimitSignal,
} from '../../../nodes/Fillout/helpers/sharedLimit';

const answer = (remaining: number, rateLimited = false): LimitSignal => ({
	remaining,
	resetMs: 1000,
	rateLimited,
});

describe('readLimitSignal', () => {
	it('reads remaining and reset (seconds) and marks a 429', () => {
		const headers: Record<string, string> = { 'ratelimit-remaining': '2', 'ratelimit-reset': '1' };
		expect(readLimitSignal((name) => headers[name], 200)).toEqual({
			remaining: 2,
			resetMs: 1000,
			rateLimited: false,
		});
		expect(readLimitSignal(() => undefined, 429)).toEqual({
			remaining: undefined,
			resetMs: undefined,
			rateLimited: true,
		});
	});

	it('leaves out unreadable values', () => {
		const headers: Record<string, string> = { 'ratelimit-remaining': 'x', 'ratelimit-reset': '-1' };
		expect(readLimitSignal((name) => headers[name], 200)).toMatchObject({
			remaining: undefined,
			resetMs: undefined,
		});
	});
});

describe('SharedAccountGauge', () => {
	it('alone on the account, it never slows a process down (the pacer does that)', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0.5);
		let now = 0;
		for (let window = 0; window < 5; window++) {
			for (let remaining = 4; remaining >= 0; remaining--) {
				expect(gauge.earliestStart(now)).toBe(now);
				gauge.started(now);
				gauge.observe(answer(remaining), now, now + 90);
				now += 100;
			}
			now += 600;
		}
		expect(gauge.currentAllowance).toBe(5);
	});

	it('a full window shared with others: halves the allowance and holds until the window ends', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.started(0);
		gauge.observe(answer(3), 0, 100); // 2 used, 1 ours: someone else is sending
		gauge.started(100);
		gauge.observe(answer(0), 100, 200); // full
		expect(gauge.currentAllowance).toBe(2.5);
		// The window opened before our first answer (100), so it has ended by 1100.
		expect(gauge.earliestStart(200)).toBe(1100);
	});

	it('cuts once per window, however many answers show it full', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(1), 0, 100);
		gauge.observe(answer(0), 100, 200);
		gauge.observe(answer(0, true), 200, 300);
		gauge.observe(answer(0, true), 300, 400);
		expect(gauge.currentAllowance).toBe(2.5);
	});

	it('spaces requests evenly below the limit and grows back with answers that leave room', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(2), 0, 100);
		gauge.observe(answer(0), 100, 200);
		expect(gauge.currentAllowance).toBe(2.5);
		gauge.started(2000);
		expect(gauge.earliestStart(2000)).toBe(2400); // 1000 ms / 2.5
		for (let i = 0; i < 25; i++) gauge.observe(answer(3), 3000 + i * 2000, 3100 + i * 2000);
		expect(gauge.currentAllowance).toBe(5);
		expect(gauge.earliestStart(60_000)).toBe(60_000);
	});

	it('never goes below one request per window', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		for (let i = 0; i < 10; i++) gauge.observe(answer(0, true), i * 2000, i * 2000 + 100);
		expect(gauge.currentAllowance).toBe(MIN_ALLOWANCE);
	});

	it('holds for a window plus jitter on a 429 from a service without rate-limit headers', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 1);
		gauge.observe({ rateLimited: true }, 0, 100);
		expect(gauge.earliestStart(100)).toBe(100 + 1000 + 100);
	});

	it('sends at once in a window its own request opened, even below the limit', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(3), 0, 100);
		gauge.observe(answer(0), 100, 200); // shared and full: allowance 2.5
		gauge.started(1100);
		gauge.observe(answer(4), 1100, 1200); // a new window, ours alone so far
		expect(gauge.earliestStart(1200)).toBe(1200);
	});
});
