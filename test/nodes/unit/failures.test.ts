import { describeFailure, serviceMessage } from '../../../nodes/Fillout/transport/errorMessages';
import {
	formatIssuePath,
	parseValidationIssues,
} from '../../../nodes/Fillout/transport/validationIssues';

const body = (statusCode: number, message: string) => ({
	statusCode,
	error: statusCode === 404 ? 'Not Found' : 'Bad Request',
	message,
});

describe('describeFailure', () => {
	it('recognises Fillout’s credential failures, which are 400s', () => {
		for (const message of [
			'API Key invalid',
			'Incorrectly formatted API key was passed',
			'API authorization header missing',
		]) {
			const described = describeFailure({ statusCode: 400, body: body(400, message) });
			expect(described.kind).toBe('credentials');
			expect(described.message).toBe('Fillout refused the credentials');
			expect(described.description).toContain(message);
		}
		expect(describeFailure({ statusCode: 401 }).kind).toBe('credentials');
	});

	it('names the form or submission that was not found', () => {
		expect(
			describeFailure({ statusCode: 404, body: body(404, 'x') }, { formId: 'f1' }).message,
		).toBe('Form f1 not found');
		expect(describeFailure({ statusCode: 404 }, { formId: 'f1', submissionId: 's1' }).message).toBe(
			'Submission s1 not found in form f1',
		);
		expect(describeFailure({ statusCode: 404 }, { webhookId: 7 }).message).toBe(
			'Webhook 7 not found',
		);
	});

	it('passes an invalid parameter’s message on, and lists validation issues', () => {
		expect(
			describeFailure({
				statusCode: 400,
				body: body(400, 'limit must be an integer between 1 and 150'),
			}).message,
		).toBe('Fillout rejected the request: limit must be an integer between 1 and 150');
		const issues = JSON.stringify([
			{
				code: 'invalid_type',
				path: ['submissions', 0, 'questions', 1, 'value'],
				message: 'Expected number, received string',
			},
		]);
		expect(describeFailure({ statusCode: 400, body: body(400, issues) }).message).toBe(
			'Fillout rejected the request: submissions[0].questions[1].value: Expected number, received string',
		);
	});

	it('says how a 429 storm ended, and the rule that ended it', () => {
		const rule =
			'a request is sent only while that can happen within 2 minutes of when the node asked for it, its waits behind the credential’s other requests included.';
		expect(describeFailure({ statusCode: 429 }, { attempts: 1 })).toEqual({
			kind: 'rateLimit',
			httpCode: '429',
			message: 'Fillout’s rate limit (5 requests per second) was still exceeded after retrying',
			description: `Gave up after 1 attempt: ${rule} A wait of a minute or more, when Fillout asks for it, is not retried. Other workflows or n8n processes may be using the same account: spread them out or run fewer at once.`,
		});
		const waited =
			'The request waited too long for its turn within Fillout’s rate limit (5 requests per second)';
		expect(describeFailure({ notSent: 'outOfTime' }, { attempts: 0 })).toEqual({
			kind: 'rateLimit',
			message: waited,
			description: `Never sent; its turn did not come in time: ${rule} Other workflows or n8n processes may be using the same account: spread them out or run fewer at once.`,
		});
		const retried = describeFailure({ notSent: 'outOfTime' }, { attempts: 3 });
		expect(retried.message).toBe(waited);
		expect(retried.description).toMatch(/^Tried 3 attempts; its next turn did not come in time: /);
	});

	it('says a cancelled execution’s request was not answered, whatever it holds', () => {
		expect(describeFailure({ notSent: 'cancelled', statusCode: 500 }, { attempts: 2 })).toEqual({
			kind: 'cancelled',
			message: 'The execution was cancelled before Fillout answered',
		});
	});

	it('explains rate limits, server errors and connection failures', () => {
		expect(describeFailure({ statusCode: 429 }, { attempts: 6 }).description).toContain(
			'6 attempts',
		);
		expect(describeFailure({ statusCode: 503, body: 'down' }).message).toBe(
			'Fillout failed to process the request (HTTP 503)',
		);
		const network = describeFailure(
			{ networkCode: 'ECONNREFUSED' },
			{ apiRoot: 'http://127.0.0.1:9/v1/api' },
		);
		expect(network.message).toBe('Could not reach Fillout at http://127.0.0.1:9/v1/api');
		expect(network.description).toContain('ECONNREFUSED');
		expect(network.message).not.toMatch(/ECONN/);
		expect(
			describeFailure({ networkCode: 'ECONNRESET' }, { maybeProcessed: true }).description,
		).toContain('may or may not have been processed');
	});
});

describe('parseValidationIssues', () => {
	it('reads the JSON-string message of a create 400', () => {
		const message = JSON.stringify([
			{
				code: 'custom',
				path: ['submissions', 2, 'urlParameters', 0, 'id'],
				message: 'No URL parameter',
			},
		]);
		expect(parseValidationIssues(message)).toEqual([
			{
				code: 'custom',
				path: ['submissions', 2, 'urlParameters', 0, 'id'],
				message: 'No URL parameter',
			},
		]);
	});

	it('ignores plain messages and broken JSON', () => {
		expect(parseValidationIssues('Form not found')).toBeUndefined();
		expect(parseValidationIssues('[not json')).toBeUndefined();
		expect(parseValidationIssues(undefined)).toBeUndefined();
	});

	it('formats paths and finds the service message', () => {
		expect(formatIssuePath(['submissions', 3, 'questions', 0, 'value'])).toBe(
			'submissions[3].questions[0].value',
		);
		expect(serviceMessage({ statusCode: 400, error: 'Bad Request', message: 'm' })).toBe('m');
		expect(serviceMessage({ error: 'only error' })).toBe('only error');
		expect(serviceMessage(' text ')).toBe('text');
		expect(serviceMessage(undefined)).toBeUndefined();
	});
});
