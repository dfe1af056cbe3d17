import type {
	Batch,
	CreateResponse,
} from '../../../nodes/Fillout/actions/submission/create/batchOutcome';
import {
	afterResend,
	batchOutcome,
} from '../../../nodes/Fillout/actions/submission/create/batchOutcome';

const apiRoot = 'https://api.fillout.com/v1/api';
const fieldNames = new Map([['q1', 'Name']]);

/** Items 10, 11 and 12 of an import, in one request to form f1. */
function batch(fromSavedColumns = false): Batch {
	return {
		formId: 'f1',
		items: [10, 11, 12].map((itemIndex) => ({
			itemIndex,
			formId: 'f1',
			fieldNames,
			fromSavedColumns,
			payload: { questions: [{ id: 'q1', value: `Person ${itemIndex}` }] },
		})),
	};
}

const failed = (failure: object): CreateResponse => ({
	ok: false,
	failure,
	attempts: 1,
	apiRoot,
});

function rejectedWith(issues: object[]): CreateResponse {
	return failed({
		statusCode: 400,
		body: { statusCode: 400, error: 'Bad Request', message: JSON.stringify(issues) },
	});
}

const nameIssue = {
	path: ['submissions', 1, 'questions', 0, 'value'],
	message: 'Expected string, received number',
};

describe('the outcome of a create request’s answer', () => {
	it('pairs created submissions with their items; one missing may or may not exist', () => {
		const outcome = batchOutcome(batch(), {
			ok: true,
			body: { submissions: [{ submissionId: 'a' }, { submissionId: 'b' }] as never },
		});
		expect(outcome.created).toEqual([
			{ itemIndex: 10, submission: { submissionId: 'a' } },
			{ itemIndex: 11, submission: { submissionId: 'b' } },
		]);
		expect(outcome.failures).toEqual([
			{
				itemIndex: 12,
				outcome: 'uncertain',
				words: { message: 'Fillout did not return the created submission [item 12]' },
			},
		]);
		expect(outcome.resendable).toEqual([]);
	});

	it('a rejection: the named item gets Fillout’s words, the others may be sent again', () => {
		const outcome = batchOutcome(batch(), rejectedWith([nameIssue]));
		expect(outcome.created).toEqual([]);
		expect(outcome.failures).toEqual([
			{
				itemIndex: 11,
				outcome: 'rejected',
				issue: 'question "Name": Expected string, received number',
				words: {
					message: 'Fillout rejected question "Name": Expected string, received number [item 11]',
					httpCode: '400',
				},
			},
			...[10, 12].map((itemIndex) => ({
				itemIndex,
				outcome: 'refused',
				words: {
					message: `Not created because item 11 of the same request was rejected [item ${itemIndex}]`,
					httpCode: '400',
				},
			})),
		]);
		expect(outcome.resendable.map((item) => item.itemIndex)).toEqual([10, 12]);
	});

	it('a rejection mapped with the saved columns says how to refresh them', () => {
		const [failure] = batchOutcome(batch(true), rejectedWith([nameIssue])).failures;
		expect(failure.words.description).toMatch(/open the node: it loads the current ones/);
	});

	it('an issue about the request as a whole: nothing is sent again', () => {
		const outcome = batchOutcome(
			batch(),
			rejectedWith([{ path: ['submissions'], message: 'Too many' }]),
		);
		expect(outcome.resendable).toEqual([]);
		expect(outcome.failures.map((failure) => failure.words.message)).toEqual([
			'Not created because submissions: Too many [item 10]',
			'Not created because submissions: Too many [item 11]',
			'Not created because submissions: Too many [item 12]',
		]);
	});

	it('a request refused as a whole, or never sent: every item refused in Fillout’s words', () => {
		const refused = batchOutcome(batch(), failed({ statusCode: 401 })).failures;
		expect(refused.map((failure) => failure.outcome)).toEqual(['refused', 'refused', 'refused']);
		expect(refused[0].words).toMatchObject({
			message: 'Fillout refused the credentials',
			httpCode: '401',
			facts: { statusCode: 401 },
		});
		const unreachable = batchOutcome(batch(), failed({ networkCode: 'ECONNREFUSED' })).failures;
		expect(unreachable[0]).toMatchObject({
			outcome: 'refused',
			words: { message: `Could not reach Fillout at ${apiRoot}` },
		});
	});

	it('a server error or a lost answer: every item may or may not have been created', () => {
		for (const failure of [{ statusCode: 503 }, { networkCode: 'ECONNRESET' }]) {
			const { failures } = batchOutcome(batch(), failed(failure));
			expect(failures.map((item) => item.outcome)).toEqual(['uncertain', 'uncertain', 'uncertain']);
			expect(failures[1].words.message).toBe(
				'Fillout may or may not have created the submissions of items 10–12 [item 11]',
			);
			expect(failures[1].words.description).toMatch(/before running these items again/);
		}
	});

	it('after sending the unrejected items again, their new outcome replaces the old', () => {
		const first = batchOutcome(batch(), rejectedWith([nameIssue]));
		const resent = batchOutcome(
			{ formId: 'f1', items: first.resendable },
			{ ok: true, body: { submissions: [{ submissionId: 'a' }, { submissionId: 'c' }] as never } },
		);
		const combined = afterResend(first, resent);
		expect(combined.created.map((created) => created.itemIndex)).toEqual([10, 12]);
		expect(combined.failures.map((failure) => [failure.itemIndex, failure.outcome])).toEqual([
			[11, 'rejected'],
		]);
		expect(combined.resendable).toEqual([]);
	});
});
