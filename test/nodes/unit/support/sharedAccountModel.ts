/**
 * A discrete-event model of several processes reading from one Fillout account: each
 * process has the node's own pacer, shared-account gauge and retry decision (the real
 * classes) and runs one or more exports at once (as a worker runs several executions),
 * each sending its requests one after another. The account is
 * a fixed window per key that opens at the first request to arrive, like the service
 * (and the sandbox). Time is simulated: a run of minutes takes milliseconds.
 */
import { observeAnswer, SlidingWindowPacer } from '../../../../nodes/Fillout/transport/pacing';
import { stopped } from '../../../../nodes/Fillout/transport/deadline';
import { RetryBudget } from '../../../../nodes/Fillout/transport/retry';
import { SharedRate } from '../../../../nodes/Fillout/transport/sharedRate';

export interface ModelCase {
	/** Exports per process, e.g. [2, 1]: two processes, the first running two at once. */
	split: number[];
	/** Requests each export must get answered. */
	requestsEach: number;
	limit: number;
	/** Between start and arrival: base plus up to `latencyJitterMs` at random. */
	latencyMs: number;
	latencyJitterMs: number;
	/** Between arrival and answer: base plus up to `returnJitterMs` at random. */
	serviceMs: number;
	returnJitterMs?: number;
	/** Extra time before arrival for requests a process starts before its first answer (connection set-up). */
	setupMs?: number;
	/**
	 * A busy process holding each request it starts in the first `busyForMs` before it
	 * leaves: `heldMs`, give or take a tenth (as a loaded n8n at its start).
	 */
	heldMs?: number;
	busyForMs?: number;
	/** When each process begins, at random within this. */
	startSpreadMs: number;
	/** Between an answer and the export's next request (reading the page): up to this, at random. */
	thinkMs?: number;
}

export interface ModelResult {
	/** Requests answered 2xx, per export (in the order of `split`). */
	answered: number[];
	/** Requests given up on (a 429 retried past its budget): that export fails. */
	dropped: number;
	rateLimited: number;
	/** The refused requests: when they started and when their 429 came back. */
	refusals: Array<{ startedAt: number; answeredAt: number }>;
	total: number;
	/** Simulated time from the first start to the last answer. */
	wallMs: number;
}

const WINDOW_MS = 1000;

class FixedWindowAccount {
	private startMs = -Infinity;
	private count = 0;

	constructor(private readonly limit: number) {}

	take(now: number): { allowed: boolean; remaining: number; resetMs: number } {
		if (now - this.startMs >= WINDOW_MS) {
			this.startMs = now;
			this.count = 0;
		}
		this.count++;
		const allowed = this.count <= this.limit;
		const resetMs = Math.max(1, Math.ceil((this.startMs + WINDOW_MS - now) / 1000)) * 1000;
		return { allowed, remaining: Math.max(0, this.limit - this.count), resetMs };
	}
}

interface Event {
	at: number;
	order: number;
	run: () => void;
}

export function runSharedAccountModel(spec: ModelCase, random: () => number): ModelResult {
	const account = new FixedWindowAccount(spec.limit);
	const events: Event[] = [];
	let order = 0;
	const schedule = (at: number, run: () => void): void => {
		events.push({ at, order: order++, run });
	};
	const result: ModelResult = {
		answered: [],
		dropped: 0,
		rateLimited: 0,
		refusals: [],
		total: 0,
		wallMs: 0,
	};

	/** The simulated clock: the time of the event being run. */
	let clock = 0;
	const exportsOf = spec.split.map((exports) => {
		const pacing = { pacer: new SlidingWindowPacer(), rate: new SharedRate(5, 1000, () => clock) };
		return Array.from({ length: exports }, () => pacing);
	});
	/** Per pacer: when its first answer came (later requests have their connection set up). */
	const firstAnswerOf = new Map<SlidingWindowPacer, number>();
	/** Per pacer: the wake-ups of exports waiting for its next answer. */
	const waitersOf = new Map(
		exportsOf.flat().map(({ pacer }) => [pacer, [] as Array<(at: number) => () => void>]),
	);
	for (const [index, { pacer, rate }] of exportsOf.flat().entries()) {
		result.answered.push(0);
		/** The transport's own retry budget of the request under way (its deadline included). */
		let retries = new RetryBudget('repeatable', 0);
		let failed = false;

		/** Bumped at each `ready`: a wake-up scheduled before it is stale. */
		let turn = 0;
		const ready = (now: number): void => {
			if (failed || result.answered[index] >= spec.requestsEach) return;
			// As the transport's waitForTurn: decided when due, woken by a time or an answer,
			// given up (the export fails) once the request's last start passes.
			if (stopped({ lastStartAt: retries.lastStartAt }, now)) {
				result.dropped++;
				failed = true;
				return;
			}
			const mine = ++turn;
			const wake = (at: number) => () => {
				if (turn === mine) ready(at);
			};
			pacer.limit = rate.limit;
			const at = pacer.earliestStart(now, rate.spacingMs);
			if (at === undefined || at > now) {
				waitersOf.get(pacer)!.push(wake);
				schedule(
					Math.min(at ?? Infinity, retries.lastStartAt),
					wake(Math.min(at ?? Infinity, retries.lastStartAt)),
				);
				return;
			}
			const slot = pacer.start(now);
			turn++;
			const sentAt = now;
			schedule(sentAt, () => {
				result.total++;
				const warm = sentAt >= (firstAnswerOf.get(pacer) ?? Infinity);
				const setup = warm ? 0 : (spec.setupMs ?? 0);
				const held =
					sentAt < (spec.busyForMs ?? 0) ? (spec.heldMs ?? 0) * (0.9 + 0.2 * random()) : 0;
				const arrival = sentAt + setup + held + spec.latencyMs + random() * spec.latencyJitterMs;
				schedule(arrival, () => {
					const verdict = account.take(arrival);
					const answeredAt = arrival + spec.serviceMs + random() * (spec.returnJitterMs ?? 0);
					schedule(answeredAt, () => {
						if (!firstAnswerOf.has(pacer)) firstAnswerOf.set(pacer, answeredAt);
						pacer.finish(slot, answeredAt, true);
						const waiters = waitersOf.get(pacer)!.splice(0);
						for (const wake of waiters) schedule(answeredAt, wake(answeredAt));
						observeAnswer(
							{ pacer, rate },
							slot,
							{ limit: spec.limit, remaining: verdict.remaining, rateLimited: !verdict.allowed },
							answeredAt,
						);
						result.wallMs = Math.max(result.wallMs, answeredAt);
						if (verdict.allowed) {
							result.answered[index]++;
							const next = answeredAt + random() * (spec.thinkMs ?? 0);
							retries = new RetryBudget('repeatable', next);
							return schedule(next, () => ready(next));
						}
						result.rateLimited++;
						result.refusals.push({ startedAt: sentAt, answeredAt });
						const decision = retries.after(
							{ statusCode: 429, retryAfter: String(verdict.resetMs / 1000) },
							answeredAt,
							random,
							answeredAt,
						);
						if (!decision.retry) {
							result.dropped++;
							failed = true;
							return;
						}
						schedule(answeredAt + decision.delayMs, () => ready(answeredAt + decision.delayMs));
					});
				});
			});
		};
		const begin = random() * spec.startSpreadMs;
		retries = new RetryBudget('repeatable', begin);
		schedule(begin, () => ready(begin));
	}

	while (events.length) {
		let next = 0;
		for (let i = 1; i < events.length; i++) {
			const a = events[i];
			const b = events[next];
			if (a.at < b.at || (a.at === b.at && a.order < b.order)) next = i;
		}
		const [event] = events.splice(next, 1);
		clock = event.at;
		event.run();
	}
	return result;
}
