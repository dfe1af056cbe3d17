import {
	isKnownQuestionType,
	QUESTION_TYPES,
	questionTypeInfo,
} from '../../../nodes/Fillout/shared/questionTypes';

describe('question types', () => {
	it('knows the 38 documented types', () => {
		expect(Object.keys(QUESTION_TYPES)).toHaveLength(38);
		for (const type of [
			'Address',
			'ShortAnswer',
			'NumberInput',
			'Checkboxes',
			'URLInput',
			'Table',
		]) {
			expect(isKnownQuestionType(type)).toBe(true);
		}
	});

	it('maps types to n8n field types', () => {
		for (const type of ['NumberInput', 'CurrencyInput', 'Slider', 'StarRating', 'OpinionScale']) {
			expect(questionTypeInfo(type)?.fieldType).toBe('number');
		}
		expect(questionTypeInfo('Checkbox')?.fieldType).toBe('boolean');
		expect(questionTypeInfo('Switch')?.fieldType).toBe('boolean');
		expect(questionTypeInfo('DatePicker')?.fieldType).toBe('dateTime');
		for (const type of ['Checkboxes', 'MultiSelect', 'Ranking']) {
			expect(questionTypeInfo(type)?.fieldType).toBe('array');
		}
		expect(questionTypeInfo('Address')?.fieldType).toBe('object');
		expect(questionTypeInfo('ShortAnswer')?.fieldType).toBe('string');
	});

	it('does not know new or odd types (they are discarded, not errors)', () => {
		expect(isKnownQuestionType('HologramInput')).toBe(false);
		expect(isKnownQuestionType('toString')).toBe(false);
		expect(isKnownQuestionType(undefined)).toBe(false);
	});
});
