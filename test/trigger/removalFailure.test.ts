import type { ServiceFailure } from '../../nodes/Fillout/transport/errorMessages';
import { classifyRemovalFailure } from '../../nodes/Fillout/webhookTrigger/removal';

const answer = (statusCode: number, message = 'Something went wrong'): ServiceFailure => ({
	statusCode,
	body: { statusCode, error: 'Error', message },
});

describe('classifyRemovalFailure', () => {
	it.each<[string, ServiceFailure]>([
		['a dropped connection', { networkCode: 'ECONNRESET' }],
		['a refused connection', { networkCode: 'ECONNREFUSED' }],
		['408', answer(408)],
		['429', answer(429, 'Too many requests. Try again soon.')],
		['500', answer(500)],
		['503 with a credential-like message', answer(503, 'Unauthorized')],
	])('%s: retry (keep the record)', (_label, failure) => {
		expect(classifyRemovalFailure(failure)).toBe('retry');
	});

	it.each<[string, ServiceFailure]>([
		['401', answer(401)],
		['403', answer(403, 'Forbidden')],
		['400 API Key invalid', answer(400, 'API Key invalid')],
		['404 authorization header missing', answer(404, 'API authorization header missing')],
	])('%s: credentials (to be checked)', (_label, failure) => {
		expect(classifyRemovalFailure(failure)).toBe('credentials');
	});

	it.each<[string, ServiceFailure]>([
		['400 unknown id', answer(400, 'Webhook 12 not found')],
		['400 without a body', { statusCode: 400 }],
		['404', answer(404, 'Not Found')],
		['405', answer(405)],
		['409', answer(409)],
		['410', answer(410)],
		['422', answer(422)],
	])('%s: forget', (_label, failure) => {
		expect(classifyRemovalFailure(failure)).toBe('forget');
	});
});
