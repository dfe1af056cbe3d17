import {
	stoppedImportDescription,
	stoppedImportMessage,
	stoppedImportWords,
} from '../../../nodes/Fillout/actions/submission/create/importReport';

const created = (from: number, to: number) =>
	Array.from({ length: to - from + 1 }, (_, i) => ({
		itemIndex: from + i,
		submissionId: `s${from + i}`,
	}));

describe('an import that stopped part way', () => {
	it('puts what was created before the cause', () => {
		expect(stoppedImportMessage('Form f1 not found [item 20]', created(0, 19))).toBe(
			'Import stopped after items 0–19 were created: Form f1 not found [item 20]',
		);
		expect(stoppedImportMessage('Form f1 not found [item 1]', created(0, 0))).toBe(
			'Import stopped after item 0 was created: Form f1 not found [item 1]',
		);
		expect(stoppedImportMessage('Form f1 not found [item 0]', [])).toBe(
			'Form f1 not found [item 0]',
		);
	});

	it('lists created items with their IDs in item order, then the ones not created', () => {
		const description = stoppedImportDescription({
			created: [...created(10, 11), ...created(0, 1)],
			rejected: [
				{ itemIndex: 13, issue: 'question "Age": Expected number' },
				{ itemIndex: 15, issue: 'submissionTime: Invalid datetime' },
			],
			refused: [{ items: [12, 14], withRejected: true }],
			uncertain: [],
			notSent: [2, 3, 4],
		});
		expect(description).toBe(
			'Created (item → submission ID): 0 → s0, 1 → s1, 10 → s10, 11 → s11. ' +
				'Not created: items 13, 15 (rejected), items 12, 14 (sent in the same request, which Fillout refused as a whole), items 2–4 (not sent). ' +
				'Also rejected: item 15 (submissionTime: Invalid datetime). ' +
				'Run again only the items that were not created: an item created once and run again is created twice.',
		);
	});

	it('tells the items that may have been created apart', () => {
		expect(
			stoppedImportDescription({
				created: [],
				rejected: [],
				refused: [],
				uncertain: [0, 1, 2],
				notSent: [3],
			}),
		).toBe(
			'May or may not have been created: items 0–2. Not created: item 3 (not sent). ' +
				'Run again only the items that were not created, after checking the form’s results in Fillout for those that may have been: an item created once and run again is created twice.',
		);
	});

	it('says when nothing was created', () => {
		expect(
			stoppedImportDescription({
				created: [],
				rejected: [],
				refused: [{ items: [0, 1], withRejected: false }],
				uncertain: [],
				notSent: [],
			}),
		).toBe('No submission was created. Not created: items 0–1 (Fillout refused their request).');
	});

	it('the stopping error: its first failure named at its item, its cause, then what became of every item', () => {
		const words = stoppedImportWords(
			[
				[
					{
						itemIndex: 21,
						outcome: 'refused',
						message: 'Form f1 not found',
						description: 'Fillout said: "gone"',
						httpCode: '404',
					},
					{ itemIndex: 20, outcome: 'refused', message: 'Form f1 not found' },
				],
			],
			created(0, 1),
			[22],
		);
		expect(words).toEqual({
			message: 'Import stopped after items 0–1 were created: Form f1 not found [item 21]',
			description:
				'Fillout said: "gone". Created (item → submission ID): 0 → s0, 1 → s1. Not created: items 20–21 (Fillout refused their request), item 22 (not sent). ' +
				'Run again only the items that were not created: an item created once and run again is created twice.',
			httpCode: '404',
			itemIndex: 21,
		});
	});

	it('several requests in flight failed: each named once, the first in the order sent heads the error', () => {
		const refused = (itemIndex: number) => ({
			itemIndex,
			outcome: 'refused' as const,
			message: `Not created because item 13 of the same request was rejected [item ${itemIndex}]`,
		});
		const words = stoppedImportWords(
			[
				[
					{
						itemIndex: 13,
						outcome: 'rejected',
						issue: 'question "Age": Expected number',
						message: 'Fillout rejected question "Age": Expected number [item 13]',
						httpCode: '400',
					},
					...[10, 11, 12, 14].map(refused),
				],
				[20, 21].map((itemIndex) => ({
					itemIndex,
					outcome: 'uncertain' as const,
					message: `Fillout may or may not have created the submissions of items 20–21 [item ${itemIndex}]`,
				})),
				[30].map((itemIndex) => ({
					itemIndex,
					outcome: 'refused' as const,
					message: 'Fillout refused the credentials',
				})),
				[40].map((itemIndex) => ({
					itemIndex,
					outcome: 'refused' as const,
					message: 'Fillout refused the credentials',
				})),
			],
			created(0, 9),
			[50, 51],
		);
		expect(words).toEqual({
			message:
				'Import stopped after items 0–9 were created: Fillout rejected question "Age": Expected number [item 13]',
			description:
				'Created (item → submission ID): 0 → s0, 1 → s1, 2 → s2, 3 → s3, 4 → s4, 5 → s5, 6 → s6, 7 → s7, 8 → s8, 9 → s9. ' +
				'May or may not have been created: items 20–21. ' +
				'Not created: item 13 (rejected), items 10–12, 14 (sent in the same request, which Fillout refused as a whole), ' +
				'items 30, 40 (Fillout refused their requests), items 50–51 (not sent). ' +
				'Run again only the items that were not created, after checking the form’s results in Fillout for those that may have been: an item created once and run again is created twice.',
			httpCode: '400',
			itemIndex: 13,
		});
	});
});
