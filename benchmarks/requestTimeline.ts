/**
 * Where a read's time went, from the sandbox's timeline of when each request was counted
 * against the key's limit: the fixed windows they filled (as the sandbox, and Fillout,
 * open them), the time between windows beyond a second, and what came before the first
 * request and after the last. Notes only: the table's figures come from n8n's record.
 */
import type { Counted } from '../sandbox/stats';
import type { SandboxControl } from '../test/e2e/support';

const WINDOW_MS = 1000;

export interface TimelineFigures {
	requests: number;
	refused: number;
	/** Windows opened, and how many of them (the last aside) held fewer than `limit`. */
	windows: number;
	underfilled: number;
	/** Σ (next window's opening − this one's − 1 s): time no window was open. */
	idleMs: number;
	/** Each window: ms after the start it opened, and how many requests it counted. */
	openings: Array<[number, number]>;
	/** From the start to the first request counted, and from the last to the end. */
	beforeMs: number;
	afterMs: number;
}

/** The figures of the requests counted between `fromMs` and `toMs` (ms since the epoch). */
export function timelineFigures(
	counted: Counted[],
	fromMs: number,
	toMs: number,
	limit: number,
): TimelineFigures | undefined {
	const times = counted.filter(([at]) => at >= fromMs && at <= toMs);
	if (!times.length) return undefined;
	const openings: number[] = [];
	const sizes: number[] = [];
	for (const [at] of times) {
		if (!openings.length || at - openings[openings.length - 1] >= WINDOW_MS) {
			openings.push(at);
			sizes.push(0);
		}
		sizes[sizes.length - 1]++;
	}
	let idleMs = 0;
	for (let index = 1; index < openings.length; index++) {
		idleMs += openings[index] - openings[index - 1] - WINDOW_MS;
	}
	return {
		requests: times.length,
		refused: times.filter(([, refused]) => refused).length,
		windows: openings.length,
		underfilled: sizes.slice(0, -1).filter((size) => size < limit).length,
		idleMs,
		openings: openings.map((at, index) => [at - fromMs, sizes[index]]),
		beforeMs: times[0][0] - fromMs,
		afterMs: toMs - times[times.length - 1][0],
	};
}

export function timelineLine(figures: TimelineFigures | undefined): string {
	if (!figures) return 'the sandbox counted no request of the run';
	const { requests, refused, windows, underfilled, idleMs, beforeMs, afterMs, openings } = figures;
	const s = (ms: number) => (ms / 1000).toFixed(2);
	const each = openings.map(([at, size]) => `${s(at)}:${size}`).join(' ');
	return `sandbox timeline: ${requests} requests (${refused} refused) in ${windows} windows, ${underfilled} underfilled; ${s(idleMs)} s between windows; first counted ${s(beforeMs)} s after the start, last ${s(afterMs)} s before the end; windows (opened s:requests) ${each}`;
}

/** The note for one run of the key, between n8n's start and end of it. */
export async function timelineNote(
	control: SandboxControl,
	apiKey: string,
	fromMs: number,
	toMs: number,
	limit = 5,
): Promise<string> {
	return timelineLine(timelineFigures(await control.timeline(apiKey), fromMs, toMs, limit));
}
