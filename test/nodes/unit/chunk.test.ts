import { chunk, groupBy } from '../../../nodes/Fillout/actions/submission/create/chunk';

describe('chunk', () => {
	it.each([
		[0, []],
		[1, [1]],
		[10, [10]],
		[11, [10, 1]],
		[25, [10, 10, 5]],
	])('%i items in batches of 10 → %j', (count, sizes) => {
		const items = Array.from({ length: count }, (_, i) => i);
		const batches = chunk(items, 10);
		expect(batches.map((b) => b.length)).toEqual(sizes);
		expect(batches.flat()).toEqual(items);
	});

	it('refuses a size below 1', () => {
		expect(() => chunk([1], 0)).toThrow(RangeError);
	});
});

describe('groupBy', () => {
	it('keeps first-seen order of keys and items', () => {
		const groups = groupBy(['a1', 'b1', 'a2', 'c1', 'b2'], (s) => s[0]);
		expect([...groups]).toEqual([
			['a', ['a1', 'a2']],
			['b', ['b1', 'b2']],
			['c', ['c1']],
		]);
	});
});
