import type { FormMetadata, Submission } from '../../../nodes/Fillout/shared/interfaces';
import {
	questionKeyMap,
	simplifyFormMetadata,
	simplifySubmission,
	simplifySubmissions,
	uniqueKeys,
} from '../../../nodes/Fillout/shared/simplify';

const submission: Submission = {
	submissionId: 'sub1',
	submissionTime: '2024-05-16T23:20:05.324Z',
	lastUpdatedAt: '2024-05-17T08:00:00.000Z',
	questions: [
		{ id: 'q1', name: 'Name', type: 'ShortAnswer', value: 'Ana' },
		{ id: 'q2', name: 'Age', type: 'NumberInput', value: 31 },
		{ id: 'q3', name: 'Name', type: 'LongAnswer', value: 'Second name question' },
		{ id: 'q4', name: 'Hologram', type: 'HologramInput', value: 'x' },
		{ id: 'q5', name: 'Name', type: 'EmailInput', value: 'ana@example.com' },
		{ id: 'q6', name: 'submissionId', type: 'ShortAnswer', value: 'not the id' },
		{ id: 'q7', name: 'Address', type: 'Address', value: { city: 'Paris' } },
		{ id: 'q8', name: 'Empty', type: 'ShortAnswer', value: null },
	],
	calculations: [
		{ id: 'c1', name: 'Total', type: 'number', value: '12.5' },
		{ id: 'c2', name: 'Label', type: 'text', value: 'gold' },
		{ id: 'c3', name: 'Weird', type: 'vector', value: '1,2' },
	],
	urlParameters: [{ id: 'u1', name: 'utm_source', value: 'mail' }],
	scheduling: [{ id: 'sc', name: 'Meeting', value: { fullName: 'Ana', email: 'a@b.c' } }],
	payments: [{ id: 'p', name: 'Pay', value: { paymentId: 'pi_1', stripeCustomerId: 'cus_1' } }],
	quiz: { score: 3, maxScore: 5 },
	login: { email: 'ana@example.com' },
	editLink: 'https://forms.fillout.com/edit/x',
};

describe('uniqueKeys', () => {
	it('keeps the first name, numbers later ones, and skips taken keys', () => {
		expect(uniqueKeys(['A', 'B', 'A', 'A', 'A (2)'])).toEqual([
			'A',
			'B',
			'A (2)',
			'A (3)',
			'A (2) (2)',
		]);
		expect(uniqueKeys(['x', 'x'], ['x'])).toEqual(['x (2)', 'x (3)']);
	});

	it('never gives a question the key __proto__, which would replace the object’s prototype', () => {
		expect(uniqueKeys(['__proto__', 'json', '__proto__'])).toEqual([
			'__proto__ (2)',
			'json',
			'__proto__ (3)',
		]);
		const flat = simplifySubmission({
			submissionId: 's',
			submissionTime: '2024-05-16T23:20:05.324Z',
			questions: [
				{ id: 'a', name: '__proto__', type: 'ShortAnswer', value: 'typed' },
				{ id: 'b', name: 'Obj', type: 'ShortAnswer', value: 'x' },
			],
			urlParameters: [{ id: 'u', name: '__proto__', value: { polluted: true } }],
		});
		expect(Object.getPrototypeOf(flat)).toBe(Object.prototype);
		expect(flat['__proto__ (2)']).toBe('typed');
		expect(flat.urlParameters).toEqual({ '__proto__ (2)': { polluted: true } });
		expect(Object.getPrototypeOf(flat.urlParameters)).toBe(Object.prototype);
	});
});

describe('simplifySubmission', () => {
	it('flattens answers by question name with the documented rule for repeated names', () => {
		const flat = simplifySubmission(submission);
		expect(flat).toEqual({
			submissionId: 'sub1',
			submissionTime: '2024-05-16T23:20:05.324Z',
			lastUpdatedAt: '2024-05-17T08:00:00.000Z',
			Name: 'Ana',
			Age: 31,
			'Name (2)': 'Second name question',
			'Name (3)': 'ana@example.com',
			'submissionId (2)': 'not the id',
			Address: { city: 'Paris' },
			Empty: null,
			calculations: { Total: 12.5, Label: 'gold' },
			urlParameters: { utm_source: 'mail' },
			scheduling: { Meeting: { fullName: 'Ana', email: 'a@b.c' } },
			payments: { Pay: { paymentId: 'pi_1', stripeCustomerId: 'cus_1' } },
			quizScore: 3,
			quizMaxScore: 5,
			loginEmail: 'ana@example.com',
			editLink: 'https://forms.fillout.com/edit/x',
		});
		expect(Object.keys(flat)).not.toContain('Hologram');
	});

	it('gives every submission of a form the same keys, even one missing a question', () => {
		const other: Submission = {
			submissionId: 'sub2',
			submissionTime: '2024-05-18T00:00:00.000Z',
			questions: [{ id: 'q3', name: 'Name', type: 'LongAnswer', value: 'only the second' }],
		};
		const [first, second] = simplifySubmissions([submission, other]);
		expect(first['Name (2)']).toBe('Second name question');
		expect(second['Name (2)']).toBe('only the second');
		expect(second).not.toHaveProperty('Name');
	});

	it('builds keys from metadata the same way', () => {
		const keys = questionKeyMap([
			{ id: 'a', name: 'Q', type: 'ShortAnswer' },
			{ id: 'b', name: 'Q', type: 'Unknown' },
			{ id: 'c', name: 'Q', type: 'NumberInput' },
		]);
		expect([...keys]).toEqual([
			['a', 'Q'],
			['c', 'Q (2)'],
		]);
	});

	it('leaves out what a minimal submission does not have', () => {
		expect(simplifySubmission({ submissionId: 'x', submissionTime: 't', questions: [] })).toEqual({
			submissionId: 'x',
			submissionTime: 't',
		});
	});
});

describe('simplifyFormMetadata', () => {
	const metadata: FormMetadata = {
		id: 'form1',
		name: 'Signup',
		questions: [
			{ id: 'q1', name: 'Name', type: 'ShortAnswer' },
			{ id: 'q2', name: 'Scan', type: 'HologramInput' },
			{
				id: 'q3',
				name: 'Plan',
				type: 'Dropdown',
				options: [{ id: 'o', value: 'pro', label: 'Pro' }],
			},
			{ id: 'q4', name: 'No type' } as FormMetadata['questions'][number],
		],
		calculations: [
			{ id: 'c1', name: 'Total', type: 'number' },
			{ id: 'c2', name: 'Weird', type: 'vector' },
		],
		urlParameters: [{ id: 'u1', name: 'utm_source' }],
		quiz: { enabled: true },
		somethingNew: { kept: true },
	};

	it('leaves out questions and calculations of types the node does not know, and keeps the rest as it is', () => {
		const simplified = simplifyFormMetadata(metadata);
		expect(simplified.questions.map((q) => q.id)).toEqual(['q1', 'q3']);
		expect(simplified.questions[1]).toBe(metadata.questions[2]);
		expect(simplified.calculations?.map((c) => c.id)).toEqual(['c1']);
		expect(simplified).toEqual({
			...metadata,
			questions: [metadata.questions[0], metadata.questions[2]],
			calculations: [metadata.calculations?.[0]],
		});
		// The input is not changed.
		expect(metadata.questions).toHaveLength(4);
	});

	it('copes with a form without questions or calculations', () => {
		const bare = { id: 'f', name: 'Empty' } as FormMetadata;
		expect(simplifyFormMetadata(bare)).toEqual(bare);
	});
});
