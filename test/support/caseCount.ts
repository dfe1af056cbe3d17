/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: FILLOUT_TEST_CASES from the environment picks the tier's count */
/**
 * How many seeded cases a randomized test runs: a sample in `npm test` (the fast tier),
 * every case in `npm run test:all`, which sets FILLOUT_TEST_CASES=all. The sample is
 * the first `fast` seeds of the full run, so a failure in `npm test` replays in both.
 */
export function caseCount(counts: { fast: number; all: number }): number {
	return process.env.FILLOUT_TEST_CASES === 'all' ? counts.all : counts.fast;
}
