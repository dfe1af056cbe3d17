/**
 * What the catch-up models share (catchUp.model.test.ts: one webhook process;
 * catchUp.twoProcesses.model.test.ts: two): Fillout's side (respondents, its list, its
 * webhook's deliveries), the check in two halves as `checkForMissed` does it, and the
 * trigger's webhook context over a static data object.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';

import { CATCH_UP_KEY, type CatchUpRecord } from '../../../nodes/Fillout/catchUp/catchUpRecord';
import { takeMissed } from '../../../nodes/Fillout/catchUp/check';
import { currentRecord, saveRecord } from '../../../nodes/Fillout/catchUp/recordAccess';
import { windowQueryStart } from '../../../nodes/Fillout/pollingTrigger/pollState';
import type { Submission } from '../../../nodes/Fillout/shared/interfaces';
import { processMemory, triggerKey } from '../../../nodes/Fillout/shared/processMemory';
import { RecentIds } from '../../../nodes/Fillout/shared/recentIds';

export const FORM = 'form1';
export const MINUTE_MS = 60_000;
export const CHECK_EVERY_MS = 5 * MINUTE_MS;

export interface Row {
	id: string;
	/** The submission's time, as Fillout lists and sorts it. */
	ms: number;
	/** When Fillout's list first shows it (up to 5 minutes late). */
	visibleMs: number;
}

export function webhookContext(data: IDataObject): IWebhookFunctions {
	return {
		getWorkflow: () => ({ id: 'workflow1' }),
		getNode: () => ({ id: 'node1', name: 'Fillout Trigger' }),
		getWorkflowStaticData: () => data,
		getNodeParameter: (name: string, fallback: unknown) =>
			({ catchUp: true, catchUpMinutes: 5 })[name] ?? fallback,
	} as unknown as IWebhookFunctions;
}

/** Fillout's list: visible rows after `afterDate` (strictly), by time, ties in any order. */
export function listing(
	rows: Row[],
	afterMs: number | undefined,
	nowMs: number,
	rand: () => number,
) {
	const shown = rows
		.filter((row) => row.visibleMs <= nowMs && (afterMs === undefined || row.ms > afterMs))
		.map((row) => ({ row, tie: rand() }))
		.sort((a, b) => a.row.ms - b.row.ms || a.tie - b.tie);
	return shown.map(
		({ row }): Submission => ({
			submissionId: row.id,
			submissionTime: new Date(row.ms).toISOString(),
			questions: [],
		}),
	);
}

/**
 * Fillout: respondents submit `count` at one instant (8 % dated up to 45 minutes in the
 * future), 30 % listed up to 5 minutes late. When the webhook can deliver, 10 % are never
 * delivered, 20 % up to 90 s late (past the grace), 10 % twice a second apart.
 */
export class FilloutModel {
	readonly rows: Row[] = [];
	private next = 0;

	constructor(private readonly rand: () => number) {}

	submit(
		count: number,
		nowMs: number,
		canDeliver: () => boolean,
		deliver: (atMs: number, row: Row) => void,
	): void {
		const future = this.rand() < 0.08;
		const ms = future ? nowMs + Math.floor(this.rand() * 45 * MINUTE_MS) : nowMs;
		for (let i = 0; i < count; i++) {
			const lag = this.rand() < 0.3 ? Math.floor(this.rand() * 5 * MINUTE_MS) : 0;
			const row = { id: `s${this.next++}`, ms, visibleMs: nowMs + lag };
			this.rows.push(row);
			if (!canDeliver() || this.rand() < 0.1) continue;
			const delay = this.rand() < 0.2 ? Math.floor(this.rand() * 90_000) : 0;
			deliver(nowMs + delay, row);
			if (this.rand() < 0.1) deliver(nowMs + delay + 1000, row);
		}
	}

	/** When everything is listed and past its date: the drain starts after this. */
	lastMs(): number {
		return Math.max(...this.rows.map((row) => Math.max(row.ms, row.visibleMs)));
	}
}

/**
 * The first half of a check (`checkForMissed`): the record in `data` (and this process's
 * memory) and Fillout's list from its window, maybe cut short. The second half decides on
 * the same `data` (what its request loaded), with the record read again.
 */
export function listForCheck(
	data: IDataObject,
	rows: Row[],
	nowMs: number,
	rand: () => number,
): { decide: () => { missed: string[]; more: boolean } | undefined } | undefined {
	const before = currentRecord(webhookContext(data), data, FORM);
	if (before === undefined) return undefined;
	const afterDate = windowQueryStart(before);
	const afterMs = afterDate === undefined ? undefined : Date.parse(afterDate);
	let listed = listing(rows, afterMs, nowMs, rand);
	const complete = rand() < 0.85;
	if (!complete) listed = listed.slice(0, Math.floor(rand() * (listed.length + 1)));
	const presentMs = nowMs;
	return {
		decide: () => {
			const record = currentRecord(webhookContext(data), data, FORM);
			if (record === undefined || record.runId !== before.runId) return undefined;
			const taken = takeMissed(record, listed, presentMs, complete);
			saveRecord(webhookContext(data), data, taken.next);
			return {
				missed: taken.missed.map((submission) => submission.submissionId),
				more: taken.more,
			};
		},
	};
}

/** The trigger's record as this process sees it (memory merged with `data`). */
export function recordIn(data: IDataObject): CatchUpRecord | undefined {
	return currentRecord(webhookContext(data), data, FORM);
}

/** The copies a decision reads, as they are (not merged): this process's memory's, `data`'s. */
export function copiesIn(data: IDataObject): Array<Partial<CatchUpRecord> | undefined> {
	const remembered = processMemory.catchUpRecords.get(triggerKey(webhookContext(data)));
	return deepCopy([remembered, data[CATCH_UP_KEY]]) as Array<Partial<CatchUpRecord> | undefined>;
}

/**
 * Whether one of the copies says the submission ran: its id marked (listed by a check, or
 * delivered), or (`window`, for checks) dated before the copy's window.
 */
export function copiesSayRan(
	copies: Array<Partial<CatchUpRecord> | undefined>,
	row: Row,
	window: boolean,
): boolean {
	return copies.some(
		(copy) =>
			copy !== undefined &&
			(row.id in (copy.seen ?? {}) ||
				row.id in (copy.delivered ?? {}) ||
				(window && row.ms < (copy.windowStartMs ?? -Infinity))),
	);
}

type Memory = typeof processMemory;

/** A process's own memory: the same caches as `processMemory`, empty. */
function freshMemory(): Memory {
	const fresh = {} as Record<string, unknown>;
	for (const [name, cache] of Object.entries(processMemory)) {
		if (cache instanceof RecentIds) fresh[name] = new RecentIds(cache.limits);
		else if (cache instanceof Map) fresh[name] = new Map();
		else if (cache instanceof Set) fresh[name] = new Set();
		else throw new Error(`processMemory.${name}: a cache the model cannot copy`);
	}
	return fresh as Memory;
}

/**
 * Several n8n processes in one test process: each has its own `processMemory`, swapped in
 * for the synchronous step it runs (the node's code reads the module's caches at each call).
 */
export class ProcessMemories {
	private readonly original: Memory = { ...processMemory };
	private readonly memories: Memory[];

	constructor(count: number) {
		this.memories = Array.from({ length: count }, freshMemory);
	}

	/** Runs `step` (synchronous) in process `index`, with that process's memory. */
	in<T>(index: number, step: () => T): T {
		Object.assign(processMemory, this.memories[index]);
		try {
			return step();
		} finally {
			Object.assign(processMemory, this.original);
		}
	}

	/** Process `index` restarted: its memory is empty. */
	restart(index: number): void {
		this.memories[index] = freshMemory();
	}
}
