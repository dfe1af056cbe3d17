import { pause, stopped, waitUntil, type Stop } from '../../../nodes/Fillout/transport/deadline';

/**
 * A request's stop (transport/deadline.ts) under jest's fake timers, which drive
 * performance.now(): its deadline and its execution's cancel end a wait at once, a wake
 * that came in the same moment still counts, and no timer outlives a wait by more than a
 * second (n8n 2.41 offers no cancellable sleep; a longer timer keeps a process, or a
 * test run, alive for nothing).
 */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const inMs = (ms: number, signal?: AbortSignal): Stop => ({
	lastStartAt: performance.now() + ms,
	signal,
});

describe('stopped', () => {
	it('is true from the last start on, and once cancelled', () => {
		const stop = { lastStartAt: 1_000 };
		expect(stopped(stop, 999)).toBe(false);
		expect(stopped(stop, 1_000)).toBe(true);
		const cancel = new AbortController();
		const cancellable = { lastStartAt: 1_000, signal: cancel.signal };
		expect(stopped(cancellable, 0)).toBe(false);
		cancel.abort();
		expect(stopped(cancellable, 0)).toBe(true);
	});
});

describe('waitUntil', () => {
	it('ends at its time, at the deadline, or at a cancel, whichever comes first', async () => {
		const outcome = async (wait: Promise<string>, ms: number) => {
			let result: string | undefined;
			void wait.then((value) => (result = value));
			await jest.advanceTimersByTimeAsync(ms);
			return result;
		};
		const began = performance.now();
		expect(await outcome(waitUntil(began + 300, inMs(120_000)), 300)).toBe('due');
		expect(await outcome(waitUntil(Infinity, inMs(2_500)), 2_500)).toBe('stopped');
		const cancel = new AbortController();
		const cancelled = waitUntil(Infinity, inMs(120_000, cancel.signal));
		await jest.advanceTimersByTimeAsync(10);
		cancel.abort();
		// At once: not at the next step of its timer.
		expect(await outcome(cancelled, 0)).toBe('stopped');
	});

	it('takes a wake that came with the cancel', async () => {
		const cancel = new AbortController();
		let wake = () => {};
		const woken = new Promise<void>((resolve) => (wake = resolve));
		const wait = waitUntil(Infinity, inMs(120_000, cancel.signal), woken);
		await jest.advanceTimersByTimeAsync(5);
		wake();
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(await wait).toBe('woken');
	});

	it('leaves no timer behind for more than a second', async () => {
		let wake = () => {};
		const woken = new Promise<void>((resolve) => (wake = resolve));
		const wait = waitUntil(Infinity, inMs(120_000), woken);
		await jest.advanceTimersByTimeAsync(10);
		wake();
		expect(await wait).toBe('woken');
		await jest.advanceTimersByTimeAsync(1_000);
		expect(jest.getTimerCount()).toBe(0);
	});

	it('listens once to a signal however many requests wait on it', async () => {
		const cancel = new AbortController();
		const listen = jest.spyOn(cancel.signal, 'addEventListener');
		const waits = Array.from({ length: 20 }, () =>
			waitUntil(Infinity, inMs(120_000, cancel.signal)),
		);
		await jest.advanceTimersByTimeAsync(10);
		cancel.abort();
		expect(await Promise.all(waits)).toEqual(Array(20).fill('stopped'));
		expect(listen).toHaveBeenCalledTimes(1);
	});
});

describe('pause', () => {
	it('sleeps its time, or ends false at a cancel', async () => {
		const slept = pause(1_500, inMs(120_000));
		await jest.advanceTimersByTimeAsync(1_500);
		expect(await slept).toBe(true);
		const cancel = new AbortController();
		const cut = pause(20_000, inMs(120_000, cancel.signal));
		await jest.advanceTimersByTimeAsync(3_000);
		cancel.abort();
		await jest.advanceTimersByTimeAsync(0);
		expect(await cut).toBe(false);
		await jest.advanceTimersByTimeAsync(1_000);
		expect(jest.getTimerCount()).toBe(0);
	});
});
