/**
 * The polling trigger's answer filter on a poll's outcome (pure): what is emitted, and
 * where a poll cut short by its files' time is cut so that the cursor covers exactly the
 * submissions before the first matching one not delivered.
 */
import { shownOf } from '../../nodes/Fillout/pollingTrigger/pollFilter';
import { startState } from '../../nodes/Fillout/pollingTrigger/pollState';
import { takePoll, type Start } from '../../nodes/Fillout/pollingTrigger/pollStep';
import type { Submission } from '../../nodes/Fillout/shared/interfaces';

const T0 = Date.UTC(2024, 4, 1, 12);
const submission = (id: string, second: number, email: string): Submission => ({
	submissionId: id,
	submissionTime: new Date(T0 + second * 1000).toISOString(),
	questions: [{ id: 'q1', name: 'Email', type: 'EmailInput', value: email }],
});
const listed = [
	submission('a', 1, 'other@x.com'),
	submission('b', 2, 'vip@x.com'),
	submission('c', 3, 'other@x.com'),
	submission('d', 4, 'vip@x.com'),
	submission('e', 5, 'other@x.com'),
];
const isVip = (s: unknown) => (s as Submission).questions?.[0].value === 'vip@x.com';
const settings = { overlapMs: 600_000, inProgress: 'ignore' as const };
const start = (): Start => ({
	kind: 'resume',
	state: startState('f', 'Form', { fromMs: T0, windowStartMs: T0 - 600_000 }),
});
const presentMs = T0 + 60_000;

describe('shownOf', () => {
	it('keeps the matching ones, in order, with their place in the whole poll', () => {
		const taken = takePoll(start(), listed, undefined, settings, presentMs);
		const shown = shownOf(taken, isVip);
		expect(shown.emitted.map((s) => s.submissionId)).toEqual(['b', 'd']);
		expect(shown.statuses).toEqual(['finished', 'finished']);
		expect(shown.positions).toEqual([1, 3]);
		// The cursor is the whole poll's: every one listed is handled.
		expect(Object.keys(shown.next.seen).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
	});

	it('without a filter, everything at its own place', () => {
		const taken = takePoll(start(), listed, undefined, settings, presentMs);
		const shown = shownOf(taken);
		expect(shown.emitted).toEqual(taken.emitted);
		expect(shown.positions).toEqual([0, 1, 2, 3, 4]);
	});

	it.each([
		[0, ['a']],
		[1, ['a', 'b', 'c']],
	])(
		'files for only %i of the matches: the cut leaves the first undelivered match unseen',
		(delivered, handled) => {
			const taken = takePoll(start(), listed, undefined, settings, presentMs);
			const shown = shownOf(taken, isVip);
			const cut = takePoll(start(), listed, undefined, settings, presentMs, {
				emitAtMost: shown.positions[delivered],
			});
			expect(Object.keys(cut.next.seen).sort()).toEqual(handled);
			// What the next poll emits: the rest, the filter applied again.
			const next = takePoll(
				{ kind: 'resume', state: cut.next },
				listed,
				undefined,
				settings,
				presentMs,
			);
			const again = shownOf(next, isVip);
			expect(again.emitted.map((s) => s.submissionId)).toEqual(['b', 'd'].slice(delivered));
		},
	);
});
