import {
	stoppedImportDescription,
	stoppedImportMessage,
	stoppedImportWords,
} from '../../../nodes/Fillout/helpers/importReport';

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
			refused: [12, 14],
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
				refused: [0, 1],
				uncertain: [],
				notSent: [],
			}),
		).toBe('No submission was created. Not created: items 0–1 (Fillout refused their request).');
	});

	it('the stopping error: its first failure named at its item, its cause, then what became of every item', () => {
		const words = stoppedImportWords(
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
});
