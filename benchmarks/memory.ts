/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- benchmark tool: reads /proc (node:fs) and samples on a timer (setInterval) */
/**
 * Resident memory of a process group, sampled from /proc every `intervalMs`: n8n runs
 * in its own group (test/e2e/support spawns it detached), and the task runners it starts
 * are members of that group, so their sum is what the n8n installation uses.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface MemorySample {
	/** ms since the sampler started */
	t: number;
	/** Sum of VmRSS over the group, in bytes. */
	groupRss: number;
	/** VmRSS of the group leader (the n8n main process), in bytes. */
	mainRss: number;
	processes: number;
}

export interface MemorySummary {
	samples: number;
	intervalMs: number;
	/** Median of the group's RSS over the baseline period. */
	baseline: number;
	peak: number;
	peakMain: number;
	/** peak - baseline */
	growth: number;
	/** Most processes seen in the group at once (main + task runners). */
	processes: number;
}

/** Fields 5 (pgrp) of /proc/<pid>/stat; the command name may contain spaces and parentheses. */
function processGroupOf(pid: string): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(fields[2]);
	} catch {
		return undefined;
	}
}

/** VmRSS of a process in bytes (0 when it is gone or a zombie). */
export function rssOf(pid: number): number {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}

/** The pids whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
	const members: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		if (processGroupOf(entry) === pgid) members.push(Number(entry));
	}
	return members;
}

export function groupRss(pgid: number, members = groupMembers(pgid)): MemorySample {
	let total = 0;
	for (const pid of members) total += rssOf(pid);
	return {
		t: 0,
		groupRss: total,
		mainRss: rssOf(pgid),
		processes: members.length,
	};
}

/**
 * Samples a process group until stopped. The member list is refreshed every 10 samples
 * (a task runner can start at any time); /proc reads are cheap next to the interval.
 */
export class MemorySampler {
	private readonly samples: MemorySample[] = [];
	private timer?: ReturnType<typeof setInterval>;
	private started = 0;
	private members: number[] = [];
	private ticks = 0;
	private baselineEnd = 0;

	constructor(
		readonly pgid: number,
		readonly intervalMs = 50,
	) {}

	start(): void {
		this.started = Date.now();
		this.members = groupMembers(this.pgid);
		this.sample();
		this.timer = setInterval(() => this.sample(), this.intervalMs);
	}

	/** Everything sampled so far is the baseline; what comes after is the measurement. */
	markBaseline(): void {
		this.sample();
		this.baselineEnd = this.samples.length;
	}

	private sample(): void {
		if (this.ticks++ % 10 === 0) this.members = groupMembers(this.pgid);
		const sample = groupRss(this.pgid, this.members);
		sample.t = Date.now() - this.started;
		this.samples.push(sample);
	}

	/** Every sample so far, timed in ms since the epoch (catchUpTrace.ts splits them later). */
	trace(): Array<{ at: number; group: number; main: number }> {
		return this.samples.map(({ t, groupRss: group, mainRss: main }) => ({
			at: this.started + t,
			group,
			main,
		}));
	}

	stop(): MemorySummary {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		this.sample();
		const base = this.samples.slice(0, Math.max(1, this.baselineEnd)).map((s) => s.groupRss);
		const sorted = [...base].sort((a, b) => a - b);
		const baseline = sorted[Math.floor(sorted.length / 2)];
		const measured = this.samples.slice(this.baselineEnd);
		const peak = Math.max(...measured.map((s) => s.groupRss));
		return {
			samples: this.samples.length,
			intervalMs: this.intervalMs,
			baseline,
			peak,
			peakMain: Math.max(...measured.map((s) => s.mainRss)),
			growth: peak - baseline,
			processes: Math.max(...this.samples.map((s) => s.processes)),
		};
	}
}

export const MIB = 1024 * 1024;
