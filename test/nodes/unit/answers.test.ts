import {
	questionColumns,
	questionsFromColumns,
} from '../../../nodes/Fillout/actions/submission/create/answerColumns';
import {
	buildAnswers,
	coerceAnswer,
} from '../../../nodes/Fillout/actions/submission/create/answers';
import type { FormQuestion } from '../../../nodes/Fillout/shared/interfaces';

const q = (type: string, extra: Partial<FormQuestion> = {}): FormQuestion => ({
	id: `id-${type}`,
	name: type,
	type,
	...extra,
});
const BERLIN = 'Europe/Berlin';

describe('questionColumns', () => {
	it('makes one typed column per known question, with choices as options', () => {
		const columns = questionColumns({
			questions: [
				{ id: 'a', name: 'Name', type: 'ShortAnswer' },
				{ id: 'b', name: 'Age', type: 'NumberInput' },
				{
					id: 'c',
					name: 'Plan',
					type: 'Dropdown',
					options: [{ id: 'o1', value: 'pro', label: 'Pro plan' }],
				},
				{
					id: 'd',
					name: 'Skills',
					type: 'MultiSelect',
					options: [{ id: 'o2', value: 'ts', label: 'TypeScript' }],
				},
				{ id: 'e', name: 'New', type: 'HologramInput' },
				{ id: 'f', name: 'When', type: 'DatePicker' },
				{ id: 'g', name: 'Agree', type: 'Checkbox' },
				{ id: 'h', name: 'Where', type: 'Address' },
			],
		});
		expect(columns.map((c) => [c.id, c.displayName, c.type])).toEqual([
			['a', 'Name (ShortAnswer)', 'string'],
			['b', 'Age (NumberInput)', 'number'],
			['c', 'Plan (Dropdown)', 'options'],
			['d', 'Skills (MultiSelect)', 'array'],
			['f', 'When (DatePicker)', 'dateTime'],
			['g', 'Agree (Checkbox)', 'boolean'],
			['h', 'Where (Address)', 'object'],
		]);
		expect(columns[2].options).toEqual([{ name: 'Pro plan', value: 'pro' }]);
		expect(columns[3].options).toEqual([{ name: 'TypeScript', value: 'ts' }]);
		expect(columns.every((c) => c.required === false && c.display)).toBe(true);
	});
});

describe('questionsFromColumns: the questions read back from the columns the editor saved', () => {
	const form = {
		questions: [
			{ id: 'a', name: 'Name (as on your ID)', type: 'ShortAnswer' },
			{ id: 'b', name: 'Born', type: 'DatePicker' },
			{ id: 'c', name: 'Starts', type: 'DateTimePicker' },
			{
				id: 'd',
				name: 'Plan',
				type: 'Dropdown',
				options: [
					{ id: 'o1', value: 'pro', label: 'Pro plan' },
					{ id: 'o2', value: 'basic' },
				],
			},
			{ id: 'e', name: 'Table', type: 'Table' },
			{ id: 'f', name: 'Pick', type: 'MultipleChoice' },
			{ id: 'g', name: 'Future', type: 'HologramInput' },
		],
	};

	it('gives back each known question’s id, name, type and choices', () => {
		expect(questionsFromColumns(questionColumns(form))).toEqual([
			{ id: 'a', name: 'Name (as on your ID)', type: 'ShortAnswer' },
			{ id: 'b', name: 'Born', type: 'DatePicker' },
			{ id: 'c', name: 'Starts', type: 'DateTimePicker' },
			{
				id: 'd',
				name: 'Plan',
				type: 'Dropdown',
				options: [
					{ value: 'pro', label: 'Pro plan' },
					{ value: 'basic', label: 'basic' },
				],
			},
			{ id: 'e', name: 'Table', type: 'Table' },
			{ id: 'f', name: 'Pick', type: 'MultipleChoice' },
		]);
	});

	it('converts answers from saved columns exactly as from the form itself', () => {
		const input = {
			b: '2024-05-01T23:30:00',
			c: '2024-05-01T23:30:00',
			d: 'Pro plan',
			e: { x: 1 },
		};
		const fromColumns = buildAnswers(
			{ questions: questionsFromColumns(questionColumns(form)) ?? [] },
			input,
			'byId',
			BERLIN,
		);
		expect(fromColumns).toEqual(buildAnswers(form, input, 'byId', BERLIN));
		expect(fromColumns.questions).toEqual([
			{ id: 'b', value: '2024-05-01' },
			{ id: 'c', value: '2024-05-01T23:30:00.000+02:00' },
			{ id: 'd', value: 'pro' },
			{ id: 'e', value: { x: 1 } },
		]);
	});

	it.each([
		['no columns', []],
		['not a list', { a: 1 }],
		['a column without the type in its name', [{ id: 'a', displayName: 'Name', type: 'string' }]],
		['an unknown type', [{ id: 'a', displayName: 'Name (Hologram)', type: 'string' }]],
		[
			'a column type that does not fit the question type',
			[{ id: 'a', displayName: 'Born (DatePicker)', type: 'string' }],
		],
		['a column without an id', [{ displayName: 'Name (ShortAnswer)', type: 'string' }]],
		['a null column', [null]],
	])('is undefined for %s (the node reads the form instead)', (_, schema) => {
		expect(questionsFromColumns(schema)).toBeUndefined();
	});
});

describe('coerceAnswer', () => {
	const ok = (question: FormQuestion, value: unknown) => coerceAnswer(question, value, BERLIN);

	it('converts numbers and refuses text in a number question', () => {
		expect(ok(q('NumberInput'), '42')).toEqual({ ok: true, value: 42 });
		expect(ok(q('Slider'), 7.5)).toEqual({ ok: true, value: 7.5 });
		expect(ok(q('NumberInput'), 'abc')).toEqual({
			ok: false,
			message: 'expects a number, got "abc"',
		});
		expect(ok(q('StarRating'), true).ok).toBe(false);
	});

	it('converts booleans', () => {
		expect(ok(q('Checkbox'), 'TRUE')).toEqual({ ok: true, value: true });
		expect(ok(q('Switch'), 0)).toEqual({ ok: true, value: false });
		expect(ok(q('Checkbox'), 'maybe').ok).toBe(false);
	});

	it('keeps the date of a DatePicker and writes DateTimePicker values with an offset', () => {
		expect(ok(q('DatePicker'), '2024-02-01')).toEqual({ ok: true, value: '2024-02-01' });
		expect(ok(q('DatePicker'), '2024-02-01T00:00:00')).toEqual({ ok: true, value: '2024-02-01' });
		expect(ok(q('DatePicker'), '2024-02-01T23:30:00Z')).toEqual({ ok: true, value: '2024-02-01' });
		expect(ok(q('DateTimePicker'), '2024-02-01T10:00:00')).toEqual({
			ok: true,
			value: '2024-02-01T10:00:00.000+01:00',
		});
		expect(ok(q('DatePicker'), '2024-02-30')).toEqual({
			ok: false,
			message: 'expects a date (such as 2024-05-01), got "2024-02-30"',
		});
	});

	describe('a DatePicker keeps the date as written, whatever the workflow’s zone', () => {
		const date = (value: unknown, timeZone: string) =>
			coerceAnswer(q('DatePicker'), value, timeZone);
		/** A Luxon DateTime as n8n expressions give it: its date is the one in its own zone. */
		const dateTime = (isoDate: string, millis: number) => ({
			isValid: true,
			toMillis: () => millis,
			toISODate: () => isoDate,
		});

		it.each([
			// How JavaScript, sheets and many APIs write a plain date.
			['2024-05-01T00:00:00.000Z', 'America/New_York', '2024-05-01'],
			['2024-05-01T23:30:00+02:00', 'Asia/Tokyo', '2024-05-01'],
			['2024-05-01T00:30:00-05:00', 'Europe/Berlin', '2024-05-01'],
			['2024-05-01T23:59:59', 'Pacific/Kiritimati', '2024-05-01'],
			['2024-05-01 13:45', 'America/Los_Angeles', '2024-05-01'],
			[' 2024-05-01 ', 'Asia/Tokyo', '2024-05-01'],
			['2024-05-01', 'Pacific/Pago_Pago', '2024-05-01'],
		])('text %j in %s → %s', (value, timeZone, expected) => {
			expect(date(value, timeZone)).toEqual({ ok: true, value: expected });
		});

		it('a Luxon DateTime gives its date in its own zone, not the workflow’s', () => {
			// 1 May 08:00 in Tokyo is still 30 April in New York.
			const tokyoMorning = dateTime('2024-05-01', Date.UTC(2024, 3, 30, 23));
			expect(date(tokyoMorning, 'America/New_York')).toEqual({ ok: true, value: '2024-05-01' });
		});

		it('a JavaScript Date (an instant, no written date) gives its date in the workflow’s zone', () => {
			const instant = new Date(Date.UTC(2024, 4, 1, 2));
			expect(date(instant, 'America/New_York')).toEqual({ ok: true, value: '2024-04-30' });
			expect(date(instant, 'Europe/Berlin')).toEqual({ ok: true, value: '2024-05-01' });
		});

		it('refuses an impossible date even with a time, and says why a number is refused', () => {
			expect(date('2024-02-30T00:00:00Z', BERLIN)).toEqual({
				ok: false,
				message: 'expects a date (such as 2024-05-01), got "2024-02-30T00:00:00Z"',
			});
			expect(date('2024-05-01T25:00:00Z', BERLIN).ok).toBe(false);
			expect(date(1714521600000, BERLIN)).toEqual({
				ok: false,
				message:
					'expects a date (such as 2024-05-01), got 1714521600000 (a number could be seconds or milliseconds: convert it, e.g. {{ DateTime.fromMillis(…) }})',
			});
		});
	});

	it('accepts lists and objects or their JSON text', () => {
		expect(ok(q('Checkboxes'), ['a', 'b'])).toEqual({ ok: true, value: ['a', 'b'] });
		expect(ok(q('MultiSelect'), '["a"]')).toEqual({ ok: true, value: ['a'] });
		expect(ok(q('Ranking'), 'a,b').ok).toBe(false);
		expect(ok(q('Address'), '{"city":"Paris"}')).toEqual({ ok: true, value: { city: 'Paris' } });
		expect(ok(q('Address'), ['x']).ok).toBe(false);
	});

	it('maps a choice label to its value and passes other text on', () => {
		const plan = q('MultipleChoice', { options: [{ id: 'o', value: 'pro', label: 'Pro plan' }] });
		expect(ok(plan, 'Pro plan')).toEqual({ ok: true, value: 'pro' });
		expect(ok(plan, 'pro')).toEqual({ ok: true, value: 'pro' });
		expect(ok(plan, 'Other answer')).toEqual({ ok: true, value: 'Other answer' });
	});

	it('turns numbers into text for text questions, and passes undocumented shapes through', () => {
		expect(ok(q('ShortAnswer'), 12)).toEqual({ ok: true, value: '12' });
		expect(ok(q('EmailInput'), { a: 1 }).ok).toBe(false);
		expect(ok(q('Signature'), { url: 'x' })).toEqual({ ok: true, value: { url: 'x' } });
	});
});

describe('buildAnswers', () => {
	const metadata = {
		questions: [
			{ id: 'n1', name: 'Name', type: 'ShortAnswer' },
			{ id: 'n2', name: 'Name', type: 'ShortAnswer' },
			{ id: 'age', name: 'Age', type: 'NumberInput' },
			{ id: 'x', name: 'Future', type: 'HologramInput' },
		],
	};

	it('maps by question id (defined below)', () => {
		expect(
			buildAnswers(metadata, { n1: 'Ana', age: '30', x: 'ignored', zzz: 1 }, 'byId', BERLIN),
		).toEqual({
			questions: [
				{ id: 'n1', value: 'Ana' },
				{ id: 'age', value: 30 },
			],
			problems: [],
			unmatched: ['x', 'zzz'],
			unlistedChoices: [],
		});
	});

	it('maps automatically by id, name or simplified key, skipping empty and reserved keys', () => {
		const built = buildAnswers(
			metadata,
			{ Name: 'Ana', 'Name (2)': 'Bo', Age: '', submissionId: 'abc', Future: 'x' },
			'byIdOrName',
			BERLIN,
		);
		expect(built.questions).toEqual([
			{ id: 'n1', value: 'Ana' },
			{ id: 'n2', value: 'Bo' },
		]);
		// A question of an unknown type cannot be answered: its key matches nothing.
		expect(built.unmatched).toEqual(['Future']);
	});

	it('lists choice answers that are none of the question’s choices (by value or label)', () => {
		const plans = {
			questions: [
				{
					id: 'p1',
					name: 'Plan',
					type: 'Dropdown',
					options: [{ value: 'pro', label: 'Pro plan' }],
				},
				{
					id: 'p2',
					name: 'Plan B',
					type: 'Dropdown',
					options: [{ value: 'pro', label: 'Pro plan' }],
				},
				{ id: 'p3', name: 'Free text', type: 'MultipleChoice' },
			],
		};
		const built = buildAnswers(
			plans,
			{ p1: 'Pro plan', p2: 'Enterprise', p3: 'x' },
			'byId',
			BERLIN,
		);
		expect(built.questions).toEqual([
			{ id: 'p1', value: 'pro' },
			{ id: 'p2', value: 'Enterprise' },
			{ id: 'p3', value: 'x' },
		]);
		expect(built.unlistedChoices).toEqual(['p2']);
	});

	it('reports each bad value with the question’s name', () => {
		const built = buildAnswers(metadata, { age: 'old' }, 'byId', BERLIN);
		expect(built.problems).toEqual([
			{ questionId: 'age', questionName: 'Age', message: 'expects a number, got "old"' },
		]);
	});
});
