import {
	HOLD_JITTER_SHARE,
	readLimitSignal,
	SHARED_MEMORY_MS,
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

/** A gauge that has seen 1 other request between two of its own, in a window before this one. */
function inNewWindowAfterOneOther(): SharedAccountGauge {
	const gauge = new SharedAccountGauge(5, 1000, () => 0);
	gauge.observe(answer(4), gauge.send(0), 100);
	gauge.observe(answer(2), gauge.send(100), 200); // 1 other between
	gauge.observe(answer(4), gauge.send(1100), 1200); // a new window
	return gauge;
}

describe('SharedAccountGauge', () => {
	it('alone on the account, it never holds a process back (the pacer paces it)', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0.5);
		let now = 0;
		for (let window = 0; window < 5; window++) {
			for (let remaining = 4; remaining >= 0; remaining--) {
				expect(gauge.earliestStart(now)).toBe(now);
				gauge.observe(answer(remaining), gauge.send(now), now + 90);
				now += 100;
			}
			now += 600;
		}
		expect(gauge.othersEstimate).toBe(0);
	});

	it('a window filled with others: holds until it has surely ended, plus jitter', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 1);
		gauge.observe(answer(3), gauge.send(0), 100); // 2 used, 1 ours: someone else is sending
		gauge.observe(answer(0), gauge.send(100), 200); // full
		// The window opened before our first answer (100), so it has ended by 1100.
		expect(gauge.earliestStart(200)).toBe(1100 + 1000 * HOLD_JITTER_SHARE);
	});

	it('counts the others’ requests between two of its own, and leaves them that many', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(4), gauge.send(0), 100); // we opened the window
		gauge.observe(answer(1), gauge.send(100), 200); // 2 others came in between
		expect(gauge.othersEstimate).toBe(2);
		// 1 left ≤ 2 others about to send: wait for the window's end.
		expect(gauge.earliestStart(200)).toBe(1100);
		gauge.observe(answer(4), gauge.send(1100), 1200); // a new window
		gauge.observe(answer(2), gauge.send(1200), 1300); // 1 other between: still 2 remembered
		expect(gauge.othersEstimate).toBeCloseTo(2 - 0.02);
		expect(gauge.earliestStart(1300)).toBe(2200);
	});

	it('does not hold while more remain than the others are about to take', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(4), gauge.send(0), 100);
		gauge.observe(answer(2), gauge.send(100), 200); // 1 other between; 2 left
		expect(gauge.othersEstimate).toBe(1);
		expect(gauge.earliestStart(200)).toBe(200);
	});

	it('forgets others slowly once they stop', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(4), gauge.send(0), 100);
		gauge.observe(answer(1), gauge.send(100), 200);
		let now = 2000;
		for (let i = 0; i < 150; i++) {
			const remaining = 4 - (i % 5);
			gauge.observe(answer(remaining), gauge.send(now), now + 50);
			now += remaining === 0 ? 1000 : 100;
		}
		expect(gauge.othersEstimate).toBe(0);
	});

	it('alone with several requests in flight, answered out of order: counts them as its own and never holds', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		const sent = [0, 1, 2, 3, 4].map(() => gauge.send(0));
		// The service counted them 1..5 in send order; the answers come back 1, 3, 2, 5, 4.
		for (const index of [0, 2, 1, 4, 3]) {
			gauge.observe(answer(4 - index), sent[index], 100 + index);
			expect(gauge.earliestStart(200)).toBe(200);
		}
		expect(gauge.othersEstimate).toBe(0);
	});

	it('leaves what remains to the others less its own requests still in flight', () => {
		const gauge = inNewWindowAfterOneOther();
		const first = gauge.send(1200);
		gauge.send(1210); // a second execution's request, still in flight
		gauge.observe(answer(2), first, 1300); // 1 other between: 2 left, 1 of them ours
		expect(gauge.othersEstimate).toBe(1);
		expect(gauge.earliestStart(1300)).toBe(2200);
	});

	it('counts every one of its own requests still in flight, whatever order they arrive in', () => {
		const gauge = inNewWindowAfterOneOther();
		const earlier = gauge.send(1200);
		const later = gauge.send(1200); // two executions' requests leave together
		// The later one is answered first, 2 left: the earlier may still arrive after it.
		gauge.observe(answer(2), later, 1300);
		expect(gauge.earliestStart(1300)).toBe(2200);
		gauge.abandon(earlier);
	});

	it('decides as a request leaves: two executions that read their answers first do not both send', () => {
		const gauge = inNewWindowAfterOneOther();
		const first = gauge.send(1200);
		const second = gauge.send(1201);
		gauge.observe(answer(3), first, 1290);
		gauge.observe(answer(2), second, 1295); // 2 left, none of ours on the way
		expect(gauge.earliestStart(1300)).toBe(1300); // one execution sends…
		const third = gauge.send(1300);
		expect(gauge.earliestStart(1302)).toBe(2200); // …the other waits for the next window
		gauge.abandon(third);
	});

	it('after another process showed itself, leaves one place even in windows it fills alone, for a while', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(4), gauge.send(0), 100);
		gauge.observe(answer(2), gauge.send(100), 200); // 1 other between
		const fillAlone = (start: number) => {
			for (let remaining = 4; remaining >= 1; remaining--) {
				const sentAt = start + (4 - remaining) * 100;
				gauge.observe(answer(remaining), gauge.send(sentAt), sentAt + 100);
			}
			return start + 400; // the answer that left 1
		};
		// Every request of this window is ours: the other's would come after our last one.
		const lastAnswer = fillAlone(2000);
		expect(gauge.earliestStart(lastAnswer)).toBe(3100);
		// Long after the last sign of it, the whole window is ours again.
		const later = fillAlone(200 + SHARED_MEMORY_MS + 1000);
		expect(gauge.earliestStart(later)).toBe(later);
	});

	it('holds for a window plus jitter on a 429 from a service without rate-limit headers', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 1);
		gauge.observe({ rateLimited: true }, gauge.send(0), 100);
		expect(gauge.earliestStart(100)).toBe(100 + 1000 + 1000 * HOLD_JITTER_SHARE);
	});

	it('holds after a 429 even before it has seen others between its requests', () => {
		const gauge = new SharedAccountGauge(5, 1000, () => 0);
		gauge.observe(answer(0, true), gauge.send(0), 100);
		expect(gauge.earliestStart(100)).toBe(1100);
	});
});
