import { apiRootForRegion, normalizeApiRoot } from '../../../nodes/Fillout/transport/apiRoot';

describe('API root', () => {
	it('uses the regional hosts', () => {
		expect(apiRootForRegion('us', '')).toBe('https://api.fillout.com/v1/api');
		expect(apiRootForRegion('eu', '')).toBe('https://eu-api.fillout.com/v1/api');
		expect(apiRootForRegion('ca', '')).toBe('https://ca-api.fillout.com/v1/api');
		expect(apiRootForRegion(undefined, '')).toBe('https://api.fillout.com/v1/api');
		expect(apiRootForRegion('mars', '')).toBeUndefined();
	});

	it('normalises a custom base URL, adding /v1/api when missing', () => {
		expect(apiRootForRegion('custom', 'http://127.0.0.1:3000')).toBe(
			'http://127.0.0.1:3000/v1/api',
		);
		expect(normalizeApiRoot(' https://fillout.example.com/v1/api/ ')).toBe(
			'https://fillout.example.com/v1/api',
		);
		expect(normalizeApiRoot('https://api.fillout.com')).toBe('https://api.fillout.com/v1/api');
		expect(normalizeApiRoot('http://127.0.0.1:4000/eu')).toBe('http://127.0.0.1:4000/eu/v1/api');
	});

	it('refuses what is not an http(s) address', () => {
		for (const bad of ['', 'fillout.example.com', 'ftp://x', undefined, 42]) {
			expect(normalizeApiRoot(bad)).toBeUndefined();
		}
	});
});
