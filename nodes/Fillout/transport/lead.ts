/**
 * The pacer's lead: how long before its answer a request is taken to have been counted by
 * Fillout. The quickest warm round trip seen, less a margin: a refusal the lead caused
 * doubles the margin (20 ms at the first), and the margin halves with every quiet
 * half-life, so a refusal costs a while, not the process's life. Why: docs/rate-limits.md,
 * "The pacer".
 */

/** The margin halves with each of these without a refusal the lead caused. */
export const LEAD_MARGIN_HALF_LIFE_MS = 10 * 60_000;
/** A refusal the lead caused widens its margin to at least this. */
export const LEAD_MARGIN_STEP_MS = 20;

export class Lead {
	private quickestMs = Infinity;
	private marginMs = 0;
	private marginSetAt = -Infinity;

	/** A warm request (no connection to set up) came back `tripMs` after its start. */
	tookWarmTrip(tripMs: number): void {
		this.quickestMs = Math.min(this.quickestMs, tripMs);
	}

	/** The margin at `now`: halved for each half-life since it was set. */
	marginAt(now: number): number {
		return this.marginMs * 0.5 ** ((now - this.marginSetAt) / LEAD_MARGIN_HALF_LIFE_MS);
	}

	/** The lead at `now`: none before a warm round trip was seen. */
	at(now: number): number {
		if (!Number.isFinite(this.quickestMs)) return 0;
		return Math.max(0, this.quickestMs - this.marginAt(now));
	}

	/**
	 * Fillout refused, at `now`, a request the lead let start early at `startedAt`. Widens
	 * the margin once for the requests started before it last widened: they were let go by
	 * the narrower one, and their refusals are the same signal. Doubling, not the spread of
	 * recent round trips: on a busy n8n that spread is its own lag, and took the whole lead.
	 */
	refused(startedAt: number, now: number): void {
		if (startedAt < this.marginSetAt) return;
		const wider = Math.max(2 * this.marginAt(now), LEAD_MARGIN_STEP_MS);
		this.marginMs = Math.min(wider, this.quickestMs);
		this.marginSetAt = now;
	}
}
