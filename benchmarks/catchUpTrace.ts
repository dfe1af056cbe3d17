/**
 * What happened over time in a catch-up. n8n's resident memory: the group (main + task
 * runners) and the main process alone, sampled every 50 ms (memory.ts's MemorySampler)
 * from a few seconds after n8n is back; the baseline is split off afterwards, at the catch-up's first request, so that n8n's
 * own start-up (a task runner started, then ended when idle) is not counted as growth. And
 * where the wall went: the checks' list requests and the executions.
 */
import { byStart, type CatchUpRun } from './catchUpFigures';
import { seconds } from './report';
import { median } from './stats';

export interface RssSample {
	/** ms since the epoch */
	at: number;
	group: number;
	main: number;
}

export interface RssSplit {
	/** Median before the split, peak from the split on, in bytes; growth = peak − baseline. */
	group: { baseline?: number; peak?: number; growth?: number };
	main: { baseline?: number; peak?: number; growth?: number };
	samples: number;
}

/** Baseline = median of the samples before `splitAt`; peak = the largest from it on. */
export function splitRss(samples: readonly RssSample[], splitAt: number): RssSplit {
	const before = samples.filter((sample) => sample.at < splitAt);
	const after = samples.filter((sample) => sample.at >= splitAt);
	const part = (of: (sample: RssSample) => number) => {
		const baseline = median(before.map(of));
		const peak = after.length ? Math.max(...after.map(of)) : undefined;
		const growth = baseline === undefined || peak === undefined ? undefined : peak - baseline;
		return { baseline, peak, growth };
	};
	return { group: part((s) => s.group), main: part((s) => s.main), samples: samples.length };
}

export interface Burst {
	fromMs: number;
	toMs: number;
	requests: number;
}

/** List requests grouped into checks: a rise within `gapMs` of the last one is the same check. */
export function bursts(rises: ReadonlyArray<{ at: number; requests: number }>, gapMs = 3_000) {
	const found: Burst[] = [];
	for (const { at, requests } of rises) {
		const last = found[found.length - 1];
		if (last && at - last.toMs <= gapMs) {
			last.toMs = at;
			last.requests += requests;
		} else found.push({ fromMs: at, toMs: at, requests });
	}
	return found;
}

/** Where the wall went: each check's list requests and each execution, from the first request. */
export function timelineNotes(firstAt: number, checks: Burst[], runs: CatchUpRun[]): string[] {
	const at = (ms: number) => seconds(ms - firstAt);
	const executions = [...runs].sort(byStart).map((run) => {
		const span = (iso?: string) => (iso ? at(Date.parse(iso)) : '–');
		return `${span(run.startedAt)} → ${span(run.stoppedAt)} s: ${run.submissionIds.length} items`;
	});
	return [
		`list requests by check (s from the first request, as sampled every 250 ms): ${checks.map((b) => `${at(b.fromMs)}–${at(b.toMs)} s: ${b.requests}`).join('; ')}`,
		`executions (started → stopped): ${executions.join('; ')}`,
	];
}
