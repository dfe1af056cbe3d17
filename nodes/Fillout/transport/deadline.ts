import { sleep } from 'n8n-workflow';

/**
 * When a request stops waiting: the moment after which none of its attempts may start
 * (performance.now()'s clock), and its execution's cancel signal. Why each request has
 * one deadline: docs/rate-limits.md, "Retries".
 */
export interface Stop {
	lastStartAt: number;
	signal?: AbortSignal;
}

/** Waits that never stop (pacing's own callers). */
export const NEVER: Stop = { lastStartAt: Infinity };

export function stopped(stop: Stop, now: number): boolean {
	return stop.signal?.aborted === true || now >= stop.lastStartAt;
}

/** No timer of a wait outlives it by more than this (n8n 2.41 offers no cancellable sleep). */
const STEP_MS = 1000;

/** One listener per signal, however many requests wait on it (Node warns past 10). */
const wakersOf = new WeakMap<AbortSignal, Set<() => void>>();

function wakersFor(signal: AbortSignal): Set<() => void> {
	const known = wakersOf.get(signal);
	if (known) return known;
	const wakers = new Set<() => void>();
	signal.addEventListener('abort', () => wakers.forEach((wake) => wake()), { once: true });
	wakersOf.set(signal, wakers);
	return wakers;
}

/** Calls `wake` when the signal aborts, until the returned function is called. */
function onAbort(signal: AbortSignal, wake: () => void): () => void {
	const wakers = wakersFor(signal);
	wakers.add(wake);
	return () => wakers.delete(wake);
}

/**
 * Waits until `at`, or until `wake` resolves, or until the request stops, whichever comes
 * first; `wake` counts even when the stop came in the same moment.
 */
export async function waitUntil(
	at: number,
	stop: Stop,
	wake?: Promise<unknown>,
): Promise<'woken' | 'due' | 'stopped'> {
	let woke = false;
	const woken = wake?.then(() => (woke = true));
	let cancel = () => {};
	const cancelled = new Promise<void>((resolve) => (cancel = resolve));
	const forget = stop.signal ? onAbort(stop.signal, cancel) : () => {};
	try {
		for (;;) {
			if (woke) return 'woken';
			const now = performance.now();
			if (stopped(stop, now)) return 'stopped';
			if (now >= at) return 'due';
			const leftMs = Math.min(at, stop.lastStartAt) - now;
			const timer = Number.isFinite(leftMs)
				? [sleep(Math.max(1, Math.ceil(Math.min(STEP_MS, leftMs))))]
				: [];
			await Promise.race([cancelled, ...(woken ? [woken] : []), ...timer]);
		}
	} finally {
		forget();
	}
}

/** Sleeps `ms`; false when the request was cancelled meanwhile. */
export async function pause(ms: number, stop: Stop): Promise<boolean> {
	return (await waitUntil(performance.now() + ms, stop)) === 'due';
}
