import {
	answerMatches,
	isEmptyAnswer,
	searchTextOf,
	type AnswerCondition,
	type AnswerField,
	type AnswerFilter,
} from '../../../nodes/Fillout/shared/answerFilter';
import {
	answerFieldOptions,
	answerParameterOf,
	fieldOf,
	parseAnswerParameter,
} from '../../../nodes/Fillout/shared/answerFilterParameters';
import type { FormMetadata } from '../../../nodes/Fillout/shared/interfaces';

const EMAIL: AnswerField = { kind: 'question', id: 'q1', name: 'Email', type: 'EmailInput' };

function submissionWith(value: unknown, id = 'q1', extra: object = {}) {
	return {
		submissionId: 's1',
		submissionTime: '2024-01-01T00:00:00.000Z',
		questions: [
			{ id: 'q0', name: 'Comments', type: 'LongAnswer', value: 'my friend ann@x.com' },
			{ id, name: 'Email', type: 'EmailInput', value },
		],
		urlParameters: [{ id: 'u1', name: 'order', value: '1042' }],
		...extra,
	};
}

const filter = (condition: AnswerCondition, value = '', field = EMAIL): AnswerFilter => ({
	field,
	condition,
	value,
});

const matches = (answer: unknown, condition: AnswerCondition, value = '', field = EMAIL) =>
	answerMatches(submissionWith(answer), filter(condition, value, field));

describe('answerMatches: the six conditions on one question', () => {
	it.each<[unknown, AnswerCondition, string, boolean]>([
		['ann@x.com', 'equals', 'ann@x.com', true],
		['  Ann@X.com ', 'equals', 'ann@x.com', true],
		['ann@x.com', 'equals', ' ANN@x.COM  ', true],
		['joann@x.com', 'equals', 'ann@x.com', false],
		['ann@x.com ', 'equals', 'ann@x.co', false],
		['a n n', 'equals', 'ann', false],
		['joann@x.com', 'notEquals', 'ann@x.com', true],
		['ANN@x.com', 'notEquals', 'ann@x.com', false],
		['joann@x.com', 'contains', 'ANN@', true],
		['joann@x.com', 'contains', 'bob', false],
		['joann@x.com', 'notContains', 'bob', true],
		['joann@x.com', 'notContains', 'Ann', false],
		[null, 'isEmpty', '', true],
		['', 'isEmpty', '', true],
		['   ', 'isEmpty', '', true],
		['x', 'isEmpty', '', false],
		[null, 'isNotEmpty', '', false],
		['x', 'isNotEmpty', '', true],
	])('%j %s %j → %s', (answer, condition, value, expected) => {
		expect(matches(answer, condition, value)).toBe(expected);
	});

	it('never matches a value found in another question of the same submission', () => {
		// "Comments" holds ann@x.com; the Email question does not.
		expect(matches('bob@y.com', 'equals', 'ann@x.com')).toBe(false);
		expect(matches('bob@y.com', 'contains', 'ann@x.com')).toBe(false);
		expect(matches('bob@y.com', 'notContains', 'ann@x.com')).toBe(true);
	});
});

describe('answerMatches: answer shapes of the question types', () => {
	it('a number is compared as Fillout writes it', () => {
		expect(matches(42, 'equals', '42')).toBe(true);
		expect(matches(42, 'equals', '42.0')).toBe(false);
		expect(matches(3.5, 'contains', '.5')).toBe(true);
		expect(matches(0, 'isEmpty')).toBe(false);
		expect(matches(Number.NaN, 'equals', 'NaN')).toBe(false);
	});

	it('a boolean is the text true or false, and is never empty', () => {
		expect(matches(true, 'equals', 'TRUE')).toBe(true);
		expect(matches(false, 'equals', 'true')).toBe(false);
		expect(matches(false, 'isEmpty')).toBe(false);
	});

	it('a list (checkboxes, multi-select): equal to one of its items, empty when all are', () => {
		expect(matches(['Red', 'Blue'], 'equals', 'blue')).toBe(true);
		expect(matches(['Red', 'Blue'], 'equals', 'Red, Blue')).toBe(false);
		expect(matches(['Red', 'Blue'], 'notEquals', 'green')).toBe(true);
		expect(matches(['Red', 'Blue'], 'notEquals', 'red')).toBe(false);
		expect(matches(['Reddish'], 'contains', 'dd')).toBe(true);
		expect(matches([], 'isEmpty')).toBe(true);
		expect(matches(['', null, ' '], 'isEmpty')).toBe(true);
		expect(matches(['', 'x'], 'isEmpty')).toBe(false);
	});

	it('an object (address) is never equal, contains reads every part, empty when all parts are', () => {
		const address = { address: '1 Main St', city: 'Berlin', zipCode: 10115, country: '' };
		expect(matches(address, 'equals', 'Berlin')).toBe(false);
		expect(matches(address, 'contains', 'berl')).toBe(true);
		expect(matches(address, 'contains', '101')).toBe(true);
		expect(matches({ city: '', zip: null, parts: [] }, 'isEmpty')).toBe(true);
		expect(matches({}, 'isEmpty')).toBe(true);
		expect(matches(address, 'isNotEmpty')).toBe(true);
	});

	it('a list of files is searched through for contains, and never equal', () => {
		const files = [{ url: 'https://f.example/cv.pdf', filename: 'cv.pdf' }];
		expect(matches(files, 'contains', 'CV.PDF')).toBe(true);
		expect(matches(files, 'equals', 'cv.pdf')).toBe(false);
	});

	it('a URL parameter (hidden field) is read from urlParameters, not questions', () => {
		const order: AnswerField = { kind: 'urlParameter', id: 'u1', name: 'order' };
		expect(answerMatches(submissionWith('x'), filter('equals', '1042', order))).toBe(true);
		const asQuestion: AnswerField = { kind: 'question', id: 'u1', name: 'order' };
		expect(answerMatches(submissionWith('x'), filter('equals', '1042', asQuestion))).toBe(false);
		expect(answerMatches(submissionWith('x'), filter('isEmpty', '', asQuestion))).toBe(true);
	});
});

describe('answerMatches: hostile submissions', () => {
	it.each<[string, unknown]>([
		['null', null],
		['a string', 'hello'],
		['no questions', { submissionId: 's' }],
		['questions not a list', { questions: { q1: 'ann@x.com' } }],
		['null entries', { questions: [null, 7, 'q1', { id: 'q1' }] }],
		['an id that is not a string', { questions: [{ id: ['q1'], value: 'ann@x.com' }] }],
	])('%s: no answer (empty), never equal, never a throw', (_, submission) => {
		expect(answerMatches(submission, filter('equals', 'ann@x.com'))).toBe(false);
		expect(answerMatches(submission, filter('isEmpty'))).toBe(true);
		expect(answerMatches(submission, filter('notContains', 'x'))).toBe(true);
	});

	it('the first entry with the question id counts, as Fillout lists each question once', () => {
		const submission = {
			questions: [
				{ id: 'q1', value: 'first@x.com' },
				{ id: 'q1', value: 'ann@x.com' },
			],
		};
		expect(answerMatches(submission, filter('equals', 'first@x.com'))).toBe(true);
		expect(answerMatches(submission, filter('equals', 'ann@x.com'))).toBe(false);
	});

	it('an answer nested 100,000 lists deep: no stack overflow, the deep part ignored', () => {
		let deep: unknown = 'ann@x.com';
		for (let i = 0; i < 100_000; i++) deep = [deep];
		expect(matches(deep, 'contains', 'ann')).toBe(false);
		expect(matches(deep, 'isEmpty')).toBe(false);
		expect(matches(deep, 'equals', 'ann@x.com')).toBe(false);
	});

	it('reads 15 levels deep, not 17', () => {
		const nest = (levels: number) => {
			let value: unknown = 'needle';
			for (let i = 0; i < levels; i++) value = { inner: value };
			return value;
		};
		expect(matches(nest(15), 'contains', 'needle')).toBe(true);
		expect(matches(nest(17), 'contains', 'needle')).toBe(false);
	});

	it('a huge answer (5 MB of text, 200,000 items) is read', () => {
		const big = 'a'.repeat(5_000_000) + 'ann@x.com';
		expect(matches(big, 'contains', 'ann@x.com')).toBe(true);
		const many = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
		expect(matches(many, 'equals', 'v199999')).toBe(true);
	});

	it('keys named like Object.prototype members are answers like any other', () => {
		expect(matches({ __proto__: 'x', constructor: 'ann' }, 'contains', 'ann')).toBe(true);
		expect(isEmptyAnswer({ toString: '' })).toBe(true);
	});
});

describe('searchTextOf: the search that keeps every match', () => {
	it('is the trimmed value for equals and contains on text, number and choice questions', () => {
		expect(searchTextOf(filter('equals', '  ann@x.com '))).toBe('ann@x.com');
		expect(searchTextOf(filter('contains', 'ann'))).toBe('ann');
		for (const type of ['ShortAnswer', 'NumberInput', 'Dropdown', 'MultiSelect', 'DatePicker']) {
			expect(searchTextOf(filter('equals', '1', { ...EMAIL, type }))).toBe('1');
		}
	});

	it('is none for the other conditions, URL parameters, booleans, objects and unknown types', () => {
		for (const condition of ['notEquals', 'notContains', 'isEmpty', 'isNotEmpty'] as const) {
			expect(searchTextOf(filter(condition, 'x'))).toBeUndefined();
		}
		const order: AnswerField = { kind: 'urlParameter', id: 'u1', name: 'order' };
		expect(searchTextOf(filter('equals', '1042', order))).toBeUndefined();
		for (const type of ['Checkbox', 'Address', 'Signature', 'HologramInput', undefined]) {
			expect(searchTextOf(filter('equals', 'x', { ...EMAIL, type }))).toBeUndefined();
		}
		expect(searchTextOf(filter('equals', '   '))).toBeUndefined();
	});
});

const FORM: FormMetadata = {
	id: 'f1',
	name: 'Sign-up',
	questions: [
		{ id: 'q1', name: 'Email', type: 'EmailInput' },
		{ id: 'q2', name: 'Email', type: 'EmailInput' },
		{ id: 'q3', name: 'Order', type: 'NumberInput' },
		{ id: 'q4', name: 'Colour', type: 'MultiSelect' },
		null as unknown as { id: string; name: string; type: string },
	],
	urlParameters: [
		{ id: 'u1', name: 'ref' },
		{ id: 'q3', name: 'order' },
	],
};

describe('fieldOf: the question a reference names', () => {
	it('an ID first (a question before a URL parameter), then a name ignoring case and spaces', () => {
		expect(fieldOf(FORM, 'q4')).toEqual({
			field: { kind: 'question', id: 'q4', name: 'Colour', type: 'MultiSelect' },
		});
		expect(fieldOf(FORM, 'q3')).toMatchObject({ field: { kind: 'question', id: 'q3' } });
		expect(fieldOf(FORM, 'u1')).toEqual({ field: { kind: 'urlParameter', id: 'u1', name: 'ref' } });
		expect(fieldOf(FORM, ' REF ')).toEqual({
			field: { kind: 'urlParameter', id: 'u1', name: 'ref' },
		});
		expect(fieldOf(FORM, 'colour')).toMatchObject({ field: { id: 'q4' } });
	});

	it('refuses a name several fields share, naming their IDs', () => {
		const found = fieldOf(FORM, 'email');
		expect(found).toEqual({
			problem: 'The answer filter\'s question "email" names 2 fields of the form "Sign-up"',
			hint: 'Give one of their IDs instead: q1, q2.',
		});
		// A question and a URL parameter both named "order".
		expect(fieldOf(FORM, 'Order')).toMatchObject({
			hint: 'Give one of their IDs instead: q3, q3.',
		});
	});

	it('refuses an unknown one, listing what the form has', () => {
		expect(fieldOf(FORM, 'Phone')).toEqual({
			problem:
				'The form "Sign-up" has no question or URL parameter "Phone" (the answer filter\'s question)',
			hint: 'Choose one from the list, or give an ID or a name: "Email", "Email", "Order", "Colour", "ref", "order".',
		});
		expect(fieldOf({ id: 'f', name: 'E', questions: [] }, 'x')).toMatchObject({
			hint: 'The form has no questions.',
		});
		const many = {
			id: 'f',
			name: 'Big',
			questions: Array.from({ length: 25 }, (_, i) => ({ id: `q${i}`, name: `N${i}`, type: 'X' })),
		};
		const hint = (fieldOf(many, 'zz') as { hint: string }).hint;
		expect(hint).toContain('"N19", …');
		expect(hint).not.toContain('"N20"');
	});
});

describe('parseAnswerParameter and answerParameterOf', () => {
	it('reads the fixed collection, or nothing when it is unset', () => {
		expect(answerParameterOf(undefined)).toBeUndefined();
		expect(answerParameterOf({})).toBeUndefined();
		expect(answerParameterOf({ filter: [] })).toBeUndefined();
		expect(answerParameterOf({ filter: { question: 'q1' } })).toEqual({ question: 'q1' });
	});

	it('takes the question, condition and value, a number value as text', () => {
		expect(parseAnswerParameter({ question: ' q1 ', condition: 'equals', value: 'a' })).toEqual({
			ref: 'q1',
			condition: 'equals',
			value: 'a',
		});
		expect(parseAnswerParameter({ question: 12, value: 1042 })).toEqual({
			ref: '12',
			condition: 'equals',
			value: '1042',
		});
		expect(parseAnswerParameter({ question: 'q1', condition: 'isEmpty', value: 'x' })).toEqual({
			ref: 'q1',
			condition: 'isEmpty',
			value: '',
		});
	});

	it('refuses no question, an unknown condition, and an empty value where one is compared', () => {
		expect(parseAnswerParameter({ question: '  ' })).toMatchObject({
			problem: 'The answer filter names no question',
		});
		expect(parseAnswerParameter({ question: { a: 1 } })).toMatchObject({
			problem: 'The answer filter names no question',
		});
		expect(parseAnswerParameter({ question: 'q', condition: 'startsWith' })).toMatchObject({
			problem: 'The answer filter\'s condition "startsWith" is not one the node knows',
		});
		for (const condition of ['equals', 'notEquals', 'contains', 'notContains']) {
			expect(parseAnswerParameter({ question: 'q', condition, value: ' ' })).toMatchObject({
				problem: 'The answer filter\'s "Value" is empty',
			});
		}
		expect(parseAnswerParameter({ question: 'q', condition: 'contains' })).toMatchObject({
			problem: 'The answer filter\'s "Value" is empty',
		});
	});
});

describe('answerFieldOptions: the editor list', () => {
	it('lists the questions, then the URL parameters, skipping malformed entries', () => {
		expect(answerFieldOptions(FORM).map((option) => [option.name, option.value])).toEqual([
			['Email', 'q1'],
			['Email', 'q2'],
			['Order', 'q3'],
			['Colour', 'q4'],
			['ref (URL Parameter)', 'u1'],
			['order (URL Parameter)', 'q3'],
		]);
		expect(answerFieldOptions(FORM)[0].description).toBe('EmailInput · ID q1');
		expect(answerFieldOptions({ id: 'f', name: 'x', questions: 'no' as never })).toEqual([]);
	});
});
