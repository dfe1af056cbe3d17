import type { IDataObject } from 'n8n-workflow';

import type { CreateInput } from '../../../nodes/Fillout/actions/submission/create/createPayload';
import {
	checkWithForm,
	checkWithSavedColumns,
	ignoredFieldsHint,
} from '../../../nodes/Fillout/actions/submission/create/createPayload';
import type { FormMetadata, FormQuestion } from '../../../nodes/Fillout/shared/interfaces';

const zone = 'Europe/Berlin';
const questions: FormQuestion[] = [
	{ id: 'q1', name: 'Name', type: 'ShortAnswer' },
	{ id: 'q2', name: 'Age', type: 'NumberInput' },
	{ id: 'q3', name: 'Plan', type: 'Dropdown', options: [{ value: 'pro', label: 'Pro plan' }] },
];
const form: FormMetadata = {
	id: 'f1',
	name: 'Signup',
	questions,
	urlParameters: [{ id: 'u1', name: 'utm_source' }],
};

const automatic = (values: IDataObject, additional: IDataObject = {}): CreateInput => ({
	values,
	automatic: true,
	additional,
});
const definedBelow = (values: IDataObject): CreateInput => ({
	values,
	automatic: false,
	additional: {},
});

describe('an item of Create, checked with the columns saved in the node', () => {
	it('becomes its request entry without reading the form', () => {
		const checked = checkWithSavedColumns(automatic({ Name: 'Ana', Age: '41' }), questions, zone);
		expect(checked).toEqual({
			ok: true,
			payload: {
				questions: [
					{ id: 'q1', value: 'Ana' },
					{ id: 'q2', value: 41 },
				],
			},
			fieldNames: new Map([
				['q1', 'Name'],
				['q2', 'Age'],
				['q3', 'Plan'],
			]),
			fromSavedColumns: true,
			ignoredFields: [],
		});
	});

	it('asks for the form when the columns cannot decide', () => {
		// No saved columns (the form is an expression).
		expect(checkWithSavedColumns(automatic({ Name: 'Ana' }), undefined, zone)).toBeUndefined();
		// URL parameters are not among the columns.
		const withParameter = automatic(
			{ Name: 'Ana' },
			{ urlParameters: { parameter: [{ id: 'u1', value: 'ad' }] } },
		);
		expect(checkWithSavedColumns(withParameter, questions, zone)).toBeUndefined();
		// A field or a choice the saved columns do not know: the form may have changed.
		expect(checkWithSavedColumns(automatic({ Nickname: 'A' }), questions, zone)).toBeUndefined();
		expect(checkWithSavedColumns(automatic({ Plan: 'Basic' }), questions, zone)).toBeUndefined();
	});
});

describe('an item of Create, checked with the form', () => {
	it('lists the input fields Map Automatically ignored (not the keys of a simplified submission)', () => {
		const checked = checkWithForm(
			automatic({ Name: 'Bo', unrelated: 'x', submissionId: 's1', other: 2 }),
			form,
			questions,
			zone,
		);
		expect(checked).toMatchObject({
			ok: true,
			fromSavedColumns: false,
			ignoredFields: ['unrelated', 'other'],
		});
	});

	it('refuses a column defined below that is not a question, by its saved name', () => {
		const saved = [...questions, { id: 'gone', name: 'Old question', type: 'ShortAnswer' }];
		expect(checkWithForm(definedBelow({ gone: 'x' }), form, saved, zone)).toEqual({
			ok: false,
			message: 'The Answers column "Old question" (gone) is not a question of this form',
			description:
				'The question may have been removed from the form. Open the node: it loads the form’s current questions.',
		});
		expect(checkWithForm(definedBelow({ nope: 'x' }), form, undefined, zone)).toMatchObject({
			ok: false,
			message: 'The Answers column "nope" is not a question of this form',
		});
	});

	it('names the first question whose value is unreadable, and the others after it', () => {
		expect(checkWithForm(automatic({ Age: 'abc', Plan: 3 }), form, undefined, zone)).toEqual({
			ok: false,
			message: 'Question "Age" expects a number, got "abc"',
		});
		const two = checkWithForm(automatic({ Age: 'abc', Plan: { a: 1 } }), form, undefined, zone);
		expect(two).toEqual({
			ok: false,
			message: 'Question "Age" expects a number, got "abc"',
			description: 'Also: "Plan" expects one of its choices, got an object',
		});
	});

	it('checks Additional Fields: dates in the workflow zone, the form’s own URL parameters', () => {
		const ok = checkWithForm(
			automatic(
				{ Name: 'Ana' },
				{
					submissionTime: '2024-05-01T10:00:00',
					urlParameters: { parameter: [{ id: 'u1', value: 'ad' }] },
				},
			),
			form,
			undefined,
			zone,
		);
		expect(ok).toMatchObject({
			ok: true,
			payload: {
				submissionTime: '2024-05-01T10:00:00.000+02:00',
				urlParameters: [{ id: 'u1', name: 'utm_source', value: 'ad' }],
			},
		});
		expect(
			checkWithForm(automatic({}, { submissionTime: 'tomorrow' }), form, undefined, zone),
		).toEqual({
			ok: false,
			message: '"Submission Time" is not a readable date and time: "tomorrow"',
		});
		expect(
			checkWithForm(
				automatic({}, { urlParameters: { parameter: [{ id: 'nope', value: 'x' }] } }),
				form,
				undefined,
				zone,
			),
		).toEqual({
			ok: false,
			message: '"nope" is not a URL parameter of this form',
			description: 'The form has: utm_source (u1).',
		});
	});
});

describe('the run’s hint about ignored fields', () => {
	it('names one field, or the first ten of many', () => {
		expect(ignoredFieldsHint(['Nickname']).message).toBe(
			'Map Automatically ignored 1 input field that matches no question of the form: "Nickname". Name a field after a question (or its ID) to import it.',
		);
		const many = Array.from({ length: 12 }, (_, i) => `f${i}`);
		expect(ignoredFieldsHint(many).message).toContain(
			'12 input fields that match no question of the form: "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", and 2 more.',
		);
	});
});
