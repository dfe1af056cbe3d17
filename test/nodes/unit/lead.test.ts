import { Lead } from '../../../nodes/Fillout/transport/lead';

const HOUR = 3_600_000;

/** A lead that has seen these warm round trips. */
function leadAfter(...trips: number[]): Lead {
	const lead = new Lead();
	for (const trip of trips) lead.tookWarmTrip(trip);
	return lead;
}

describe('Lead: the quickest warm round trip less a margin', () => {
	it('is none before a warm round trip, then the quickest one', () => {
		expect(new Lead().at(0)).toBe(0);
		expect(leadAfter(320, 300, 310).at(0)).toBe(300);
	});

	it('a refusal widens the margin to 20 ms at least, which halves every 10 quiet minutes', () => {
		const lead = leadAfter(300, 300, 300);
		lead.refused(1000, 1300);
		expect(lead.at(1300)).toBe(280);
		expect(lead.at(1300 + 600_000)).toBeCloseTo(290, 10);
		expect(lead.at(1300 + 1_200_000)).toBeCloseTo(295, 10);
		// A quiet hour later, within a third of a millisecond of the whole lead.
		expect(lead.at(1300 + HOUR)).toBeCloseTo(299.6875, 10);
	});

	it("widens by doubling whatever the spread of recent round trips: a busy n8n's lag is not the lead's error", () => {
		// Warm round trips of an export at 300 ms + 0–40 on a busy machine (the harness, 2026-11-29),
		// the refused request's the quickest: their spread (median less quickest) was 312 ms,
		// and the rule before took the lead from 425 to 112 for the rest of the read.
		const lead = leadAfter(737, 806, 939, 1025, 691, 516, 425);
		lead.refused(4439, 4864);
		expect(lead.at(4864)).toBe(405);
		lead.refused(4900, 5300);
		expect(lead.at(5300)).toBeCloseTo(385, 1);
	});

	it('widens once for the requests started before it widened, then doubles at the next', () => {
		const lead = leadAfter(300, 300);
		lead.refused(1000, 1300);
		lead.refused(1200, 1350); // let go by the narrower margin: the same signal
		expect(lead.at(1350)).toBeCloseTo(280, 1);
		lead.refused(1400, 1700);
		expect(lead.at(1700)).toBeCloseTo(260, 1);
		lead.refused(1800, 2100);
		expect(lead.at(2100)).toBeCloseTo(220.07, 2);
		// Started the moment it last widened: let go by the wider margin, so it widens again.
		lead.refused(2100, 2400);
		expect(lead.at(2400)).toBeCloseTo(140.2, 1);
	});

	it('never goes below none, and comes back from none', () => {
		const lead = leadAfter(100, 100);
		for (let i = 0; i < 8; i++) lead.refused(i * 1000, i * 1000 + 100);
		expect(lead.at(7100)).toBe(0);
		// The margin was capped at the quickest (100): half of it back after a half-life.
		expect(lead.at(7100 + 600_000)).toBeCloseTo(50, 10);
		expect(lead.at(7100 + 2 * HOUR)).toBeCloseTo(100 - 100 / 4096, 10);
		// A quicker round trip than the margin was set against: still none, not less.
		lead.tookWarmTrip(40);
		expect(lead.at(7100)).toBe(0);
	});
});
