/**
 * The pacer's lead: how long before its answer a request is taken to have been counted by
 * Fillout. The quickest warm round trip seen, less a margin: a refusal the lead caused
 * widens the margin (to twice what it was, and at least to how much slower than the
 * quickest a recent round trip typically is), and the margin halves with every quiet
 * half-life, so a refusal costs a while, not the process's life. Why: docs/rate-limits.md,
 * "The pacer".
 */

/** The margin halves with each of these without a refusal the lead caused. */
export const LEAD_MARGIN_HALF_LIFE_MS = 10 * 60_000;
/** A refusal the lead caused widens its margin to at least this. */
export const LEAD_MARGIN_STEP_MS = 20;
/** How many recent warm round trips measure their spread. */
export const RECENT_TRIPS = 16;

export class Lead {
	private quickestMs = Infinity;
	private recentMs: number[] = [];
	private marginMs = 0;
	private marginSetAt = -Infinity;

	/** A warm request (no connection to set up) came back `tripMs` after its start. */
	tookWarmTrip(tripMs: number): void {
		this.quickestMs = Math.min(this.quickestMs, tripMs);
		this.recentMs.push(tripMs);
		if (this.recentMs.length > RECENT_TRIPS) this.recentMs.shift();
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

	/** How much slower than the quickest a recent warm round trip typically is (the median). */
	private spreadMs(): number {
		const trips = [...this.recentMs].sort((a, b) => a - b);
		const median = trips[Math.floor(trips.length / 2)];
		return median === undefined ? 0 : median - this.quickestMs;
	}

	/**
	 * Fillout refused, at `now`, a request the lead let start early at `startedAt`. Widens
	 * the margin once for the requests started before it last widened: they were let go by
	 * the narrower one, and their refusals are the same signal.
	 */
	refused(startedAt: number, now: number): void {
		if (startedAt < this.marginSetAt) return;
		const wider = Math.max(2 * this.marginAt(now), this.spreadMs(), LEAD_MARGIN_STEP_MS);
		this.marginMs = Math.min(wider, this.quickestMs);
		this.marginSetAt = now;
	}
}
