import { attributeIssues } from '../../../nodes/Fillout/actions/submission/create/issuesByItem';

describe('attributeIssues', () => {
	const sent = [
		{ itemIndex: 10, payload: { questions: [{ id: 'q1' }, { id: 'q2' }] } },
		{
			itemIndex: 11,
			payload: {
				questions: [{ id: 'q2' }],
				urlParameters: [{ id: 'u1', name: 'ref' }],
				scheduling: [{ id: 's1' }],
			},
		},
	];
	const names = new Map([
		['q1', 'Name'],
		['q2', 'Age'],
		['s1', 'Meeting'],
	]);

	it('maps issue paths back to input items and field names', () => {
		const report = attributeIssues(
			[
				{
					path: ['submissions', 0, 'questions', 1, 'value'],
					message: 'Expected number, received string',
				},
				{
					path: ['submissions', 1, 'urlParameters', 0, 'id'],
					message: 'No URL parameter with id "u1"',
				},
				{ path: ['submissions', 1, 'scheduling', 0, 'value', 'email'], message: 'Invalid email' },
				{ path: ['submissions', 1, 'submissionTime'], message: 'Invalid datetime' },
				{ path: ['submissions'], message: 'Array must contain at most 10 element(s)' },
			],
			sent,
			names,
		);
		expect(report.byItem.get(10)).toEqual(['question "Age": Expected number, received string']);
		expect(report.byItem.get(11)).toEqual([
			'URL parameter "ref" (id): No URL parameter with id "u1"',
			'scheduling field "Meeting" (email): Invalid email',
			'submissionTime: Invalid datetime',
		]);
		expect(report.general).toEqual(['submissions: Array must contain at most 10 element(s)']);
	});
});
