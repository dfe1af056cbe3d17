import type { IExecuteFunctions } from 'n8n-workflow';

import { filloutRequest } from '../../../nodes/Fillout/transport';

/**
 * The transport keeps one pacer per credential (and API root): Fillout limits each
 * account, so two credentials on one host do not wait for each other, while the
 * requests of one credential share its window of 5. Time is jest's fake clock (which
 * also drives performance.now()); the service is a stub that answers at once.
 */

function credentialContext(credentialId: string, starts: number[]): IExecuteFunctions {
	const began = performance.now();
	return {
		getNode: () => ({
			name: 'Fillout',
			type: 'n8n-nodes-fillout-forms.fillout',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { filloutFormsApi: { id: credentialId, name: 'Fillout account' } },
		}),
		getCredentials: async () => ({ apiKey: `key-${credentialId}`, region: 'us' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				starts.push(performance.now() - began);
				return { statusCode: 200, headers: { 'ratelimit-limit': '5' }, body: { forms: [] } };
			},
		},
	} as unknown as IExecuteFunctions;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('paces each credential on its own: two credentials send their first 5 requests at once', async () => {
	const first: number[] = [];
	const second: number[] = [];
	const requests = [
		...Array.from({ length: 5 }, () =>
			filloutRequest(credentialContext('pacing-first', first), { method: 'GET', path: '/forms' }),
		),
		...Array.from({ length: 5 }, () =>
			filloutRequest(credentialContext('pacing-second', second), { method: 'GET', path: '/forms' }),
		),
	];
	await jest.advanceTimersByTimeAsync(5_000);
	await Promise.all(requests);
	expect(first).toHaveLength(5);
	expect(second).toHaveLength(5);
	// Neither waited: a shared window of 5 would hold the second five back a second.
	expect(Math.max(...first, ...second)).toBeLessThan(100);
});

it('holds the 6th request of one credential until its window has room', async () => {
	const starts: number[] = [];
	const ctx = credentialContext('pacing-single', starts);
	const requests = Array.from({ length: 6 }, () =>
		filloutRequest(ctx, { method: 'GET', path: '/forms' }),
	);
	await jest.advanceTimersByTimeAsync(5_000);
	await Promise.all(requests);
	expect(starts).toHaveLength(6);
	expect(Math.max(...starts.slice(0, 5))).toBeLessThan(100);
	expect(starts[5]).toBeGreaterThanOrEqual(1_000);
});
