import { formIdFromLocator, formIdFromUrl, isFormId } from '../../../nodes/Fillout/shared/formUrl';

describe('formIdFromUrl', () => {
	it.each([
		['https://forms.fillout.com/t/foAdHjd1Duus', 'foAdHjd1Duus'],
		['https://forms.fillout.com/t/foAdHjd1Duus?ref=mail#top', 'foAdHjd1Duus'],
		['https://acme.fillout.com/t/abc123XYZ', 'abc123XYZ'],
		['https://build.fillout.com/editor/foAdHjd1Duus/results', 'foAdHjd1Duus'],
		['https://build.fillout.com/editor/foAdHjd1Duus', 'foAdHjd1Duus'],
		['  forms.fillout.com/t/foAdHjd1Duus/  ', 'foAdHjd1Duus'],
		['http://eu.forms.fillout.com/t/x_y-z', 'x_y-z'],
	])('%s → %s', (url, id) => {
		expect(formIdFromUrl(url)).toBe(id);
	});

	it.each([
		'https://example.com/t/foAdHjd1Duus',
		'https://forms.fillout.com/foAdHjd1Duus',
		'https://fillout.com.evil.example/t/foAdHjd1Duus',
		'https://build.fillout.com/editor/',
		'not a url',
	])('refuses %s', (url) => {
		expect(formIdFromUrl(url)).toBeUndefined();
	});
});

describe('formIdFromLocator', () => {
	it('reads each resource locator mode', () => {
		expect(formIdFromLocator({ mode: 'list', value: 'foAdHjd1Duus' })).toBe('foAdHjd1Duus');
		expect(formIdFromLocator({ mode: 'id', value: ' foAdHjd1Duus ' })).toBe('foAdHjd1Duus');
		expect(formIdFromLocator({ mode: 'url', value: 'https://forms.fillout.com/t/abc123' })).toBe(
			'abc123',
		);
		// An address given in ID mode, or a plain string from an expression.
		expect(formIdFromLocator({ mode: 'id', value: 'https://forms.fillout.com/t/abc123' })).toBe(
			'abc123',
		);
		expect(formIdFromLocator('abc123')).toBe('abc123');
	});

	it('refuses empty and malformed values', () => {
		expect(formIdFromLocator({ mode: 'id', value: '' })).toBeUndefined();
		expect(formIdFromLocator({ mode: 'id', value: 'has spaces' })).toBeUndefined();
		expect(formIdFromLocator({ mode: 'url', value: 'https://example.com/t/abc' })).toBeUndefined();
		expect(formIdFromLocator(undefined)).toBeUndefined();
		expect(isFormId('a/b')).toBe(false);
	});
});
