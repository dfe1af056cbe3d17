import { createHmac } from 'node:crypto';

import {
	SECRET_PARAMETER,
	addressWithSecret,
	derivedSecret,
	newSecret,
	secretsMatch,
} from '../../nodes/Fillout/webhookTrigger/secret';

describe('newSecret', () => {
	it('is 43 url-safe characters (32 random bytes) and different every time', () => {
		const secrets = Array.from({ length: 50 }, () => newSecret());
		for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(new Set(secrets).size).toBe(secrets.length);
	});
});

describe('addressWithSecret', () => {
	it('appends the secret as the only query parameter of an n8n webhook address', () => {
		const url = addressWithSecret('https://n8n.example.com/webhook/abc/webhook', 'S3cr-t_');
		expect(url).toBe('https://n8n.example.com/webhook/abc/webhook?secret=S3cr-t_');
		expect(new URL(url).searchParams.get(SECRET_PARAMETER)).toBe('S3cr-t_');
	});

	it('keeps query parameters the address already has and replaces an old secret', () => {
		const url = new URL(addressWithSecret('http://host.example/hook?a=1&secret=old', 'new'));
		expect(url.searchParams.get('a')).toBe('1');
		expect(url.searchParams.getAll('secret')).toEqual(['new']);
	});
});

describe('secretsMatch', () => {
	const expected = ['Kq3_vZ-8aP0w', 'Lm2xRt7yUe5s', 'Df9gHj1kNb4c', 'Vx6oQz'].join('');

	it('accepts exactly the expected secret', () => {
		expect(secretsMatch(expected, expected)).toBe(true);
		expect(secretsMatch('Kq3_vZ-8aP0wLm2xRt7yUe5sDf9gHj1kNb4cVx6oQz', expected)).toBe(true);
		const fresh = newSecret();
		expect(secretsMatch(fresh, fresh)).toBe(true);
	});

	it.each([
		['another secret of the same length', 'x'.repeat(expected.length)],
		['a prefix', expected.slice(0, 20)],
		['the secret plus a character', `${expected}a`],
		['the secret minus its last character', expected.slice(0, -1)],
		['an empty string', ''],
		['a case change', expected.replace('K', 'k')],
		['surrounding spaces', ` ${expected} `],
	])('refuses %s', (_label, presented) => {
		expect(secretsMatch(presented, expected)).toBe(false);
	});

	it('refuses anything that is not a single string, and never matches an empty expectation', () => {
		expect(secretsMatch(undefined, expected)).toBe(false);
		expect(secretsMatch(null, expected)).toBe(false);
		expect(secretsMatch([expected], expected)).toBe(false);
		expect(secretsMatch([expected, expected], expected)).toBe(false);
		expect(secretsMatch({ secret: expected }, expected)).toBe(false);
		expect(secretsMatch('', '')).toBe(false);
		expect(secretsMatch('x', undefined)).toBe(false);
	});
});

describe('derivedSecret', () => {
	const scope = { workflowId: 'wf1', nodeId: 'node-1', slot: 'production', formId: 'form-a' };
	const KEY = 'sk_prod_example_key';

	it('is 43 url-safe characters and the same on every call (any process can verify)', () => {
		const secret = derivedSecret(KEY, scope);
		expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(derivedSecret(KEY, { ...scope })).toBe(secret);
	});

	it('is HMAC-SHA256 of the versioned label and the scope (as JSON), keyed with the material', () => {
		const expected = createHmac('sha256', KEY)
			.update('["n8n-nodes-fillout-forms/trigger-secret/v1","wf1","node-1","production","form-a"]')
			.digest('base64url');
		expect(derivedSecret(KEY, scope)).toBe(expected);
		expect(derivedSecret(KEY, scope)).not.toContain(KEY);
	});

	it.each([
		['another key (rotated)', 'sk_prod_other_key', scope],
		['another workflow', KEY, { ...scope, workflowId: 'wf2' }],
		['another node', KEY, { ...scope, nodeId: 'node-2' }],
		['the test slot', KEY, { ...scope, slot: 'test' }],
		['another form', KEY, { ...scope, formId: 'form-b' }],
		[
			'the same characters split differently',
			KEY,
			{ ...scope, workflowId: 'wf1node-1', nodeId: '' },
		],
	])('differs for %s', (_label, material, other) => {
		expect(derivedSecret(material, other)).not.toBe(derivedSecret(KEY, scope));
	});
});
