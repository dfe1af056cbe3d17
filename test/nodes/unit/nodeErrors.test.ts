import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { describeFailedRequest } from '../../../nodes/Fillout/transport/errorMessages';
import {
	apiError,
	asItemError,
	filloutError,
	itemProblem,
} from '../../../nodes/Fillout/shared/nodeErrors';

const node: INode = {
	id: 'n1',
	name: 'Fillout',
	type: 'n8n-nodes-fillout-forms.fillout',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const ctx = { getNode: () => node };

const notFound = {
	failure: { statusCode: 404, body: { statusCode: 404, message: 'Form not found' } },
	attempts: 1,
	apiRoot: 'https://api.fillout.com/v1/api',
};

describe('describeFailedRequest', () => {
	it('gives the words and only the plain facts of the failure', () => {
		const described = describeFailedRequest(notFound, { formId: 'f1' });
		expect(described).toMatchObject({
			message: 'Form f1 not found',
			httpCode: '404',
			facts: {
				message: 'Form f1 not found',
				kind: 'notFound',
				statusCode: 404,
				body: { statusCode: 404, message: 'Form not found' },
			},
		});
		const network = describeFailedRequest({
			failure: { networkCode: 'ECONNREFUSED', networkMessage: 'connect ECONNREFUSED' },
			attempts: 3,
			apiRoot: 'http://127.0.0.1:9/v1/api',
		});
		expect(network.facts).toEqual({
			message: 'Could not reach Fillout at http://127.0.0.1:9/v1/api',
			kind: 'network',
			networkCode: 'ECONNREFUSED',
		});
	});
});

describe('node errors', () => {
	it('a problem with the input names its item, or none when there is no item', () => {
		const named = itemProblem(ctx, '"URL" is empty', 3, 'Give an address');
		expect(named).toBeInstanceOf(NodeOperationError);
		expect([named.message, named.description, named.context.itemIndex]).toEqual([
			'"URL" is empty [item 3]',
			'Give an address',
			3,
		]);
		expect(itemProblem(ctx, 'No form', undefined).message).toBe('No form');
	});

	it('keeps its words when they contain a system error code (n8n would swap them for generic ones)', () => {
		for (const words of [
			'Could not download "a.pdf": the download broke off after 5 of 9 bytes (ECONNRESET)',
			'Could not download "sleepermat.pdf": the file host could not be reached (ECONNREFUSED)',
		]) {
			const error = itemProblem(ctx, words, 1);
			expect([error.message, error.messages]).toEqual([`${words} [item 1]`, []]);
		}
	});

	it('a failed request keeps Fillout’s words, its status and its item', () => {
		const error = filloutError(ctx, notFound, { formId: 'f1' }, 2);
		expect(error).toBeInstanceOf(NodeApiError);
		expect([error.message, error.httpCode, error.context.itemIndex]).toEqual([
			'Form f1 not found',
			'404',
			2,
		]);
	});

	it('words already chosen become an API error as they are', () => {
		const error = apiError(ctx, { message: 'Fillout said no [item 1]', httpCode: '400' }, 1);
		expect([error.message, error.httpCode, error.context.itemIndex]).toEqual([
			'Fillout said no [item 1]',
			'400',
			1,
		]);
	});

	it('any other error keeps its message only, and gets the item', () => {
		const raw = Object.assign(new Error('socket hang up'), {
			config: { headers: { authorization: 'Bearer sk_prod_secret' } },
		});
		const wrapped = asItemError(ctx, raw, 4);
		expect(wrapped).toBeInstanceOf(NodeOperationError);
		expect(wrapped.message).toBe('socket hang up');
		expect(wrapped.context.itemIndex).toBe(4);
		expect(JSON.stringify(wrapped)).not.toContain('sk_prod_secret');
		const own = itemProblem(ctx, 'Bad', undefined);
		expect(asItemError(ctx, own, 5)).toBe(own);
		expect(own.context.itemIndex).toBe(5);
	});
});
