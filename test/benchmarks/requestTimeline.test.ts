import { timelineFigures, timelineLine } from '../../benchmarks/requestTimeline';

describe("a run's requests placed in the sandbox's fixed windows", () => {
	it('counts windows, the idle time between them, underfilled ones and the time around them', () => {
		// Window 1 opens at 1,100 (5 requests), window 2 at 2,150 (3, one refused), window 3 at
		// 3,150, a second after window 2 opened.
		const counted: Array<[number, 0 | 1]> = [
			[500, 0], // before the run
			[1100, 0],
			[1120, 0],
			[1400, 0],
			[1500, 0],
			[2099, 0],
			[2150, 0],
			[2300, 1],
			[3149, 0],
			[3150, 0],
			[9000, 0], // after it
		];
		expect(timelineFigures(counted, 1000, 4000, 5)).toEqual({
			requests: 9,
			refused: 1,
			windows: 3,
			underfilled: 1,
			idleMs: 50 + 0,
			openings: [
				[100, 5],
				[1150, 3],
				[2150, 1],
			],
			beforeMs: 100,
			afterMs: 850,
		});
	});

	it('says so when the run has no request', () => {
		expect(timelineFigures([[10, 0]], 1000, 2000, 5)).toBeUndefined();
		expect(timelineLine(undefined)).toBe('the sandbox counted no request of the run');
	});

	it('writes the figures in seconds', () => {
		expect(
			timelineLine({
				requests: 67,
				refused: 1,
				windows: 14,
				underfilled: 2,
				idleMs: 1234,
				openings: [
					[150, 5],
					[1160, 2],
				],
				beforeMs: 150,
				afterMs: 420,
			}),
		).toBe(
			'sandbox timeline: 67 requests (1 refused) in 14 windows, 2 underfilled; 1.23 s between windows; first counted 0.15 s after the start, last 0.42 s before the end; windows (opened s:requests) 0.15:5 1.16:2',
		);
	});
});
