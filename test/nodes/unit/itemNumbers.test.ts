import { atItem, itemRanges, itemsNamed } from '../../../nodes/Fillout/shared/nodeErrors';

describe('item numbers in messages', () => {
	it('names an item at the end, numbered from 0 as n8n does', () => {
		expect(atItem('"Submission ID" is empty', 0)).toBe('"Submission ID" is empty [item 0]');
	});

	it('collapses runs of items', () => {
		expect(itemRanges([8, 0, 1, 2, 3, 5, 7, 3])).toBe('0–3, 5, 7–8');
		expect(itemRanges([4])).toBe('4');
		expect(itemRanges([])).toBe('');
	});

	it('says "item" for one and "items" for more', () => {
		expect(itemsNamed([4, 4])).toBe('item 4');
		expect(itemsNamed([60, 61, 62, 99])).toBe('items 60–62, 99');
	});
});
