import type { IExecuteFunctions, INode, INodeTypeDescription } from 'n8n-workflow';
import { NodeApiError, NodeHelpers, NodeOperationError } from 'n8n-workflow';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';

import { MatchCount, moreNote } from '../../../nodes/Fillout/agentTool/toolAnswer';
import { checkFixedOperation, errorForAgent } from '../../../nodes/Fillout/agentTool/toolErrors';
import {
	filledByAgent,
	runsAsTool,
	submissionAmount,
} from '../../../nodes/Fillout/agentTool/toolMode';
import { describeFailedRequest } from '../../../nodes/Fillout/transport/errorMessages';
import { apiError, itemProblem } from '../../../nodes/Fillout/shared/nodeErrors';

/** The pure parts of the AI tool; the tool itself is tested over HTTP in agentTool.test.ts. */

const node = (type: string, parameters: INode['parameters'] = {}): INode => ({
	id: '1',
	name: 'Fillout',
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

function toolContext(parameters: INode['parameters'] = {}): IExecuteFunctions {
	const toolNode = node('n8n-nodes-fillout-forms.filloutTool', parameters);
	return {
		getNode: () => toolNode,
		getNodeParameter: (name: string) => parameters[name],
	} as unknown as IExecuteFunctions;
}

const failed = (statusCode: number | undefined, message?: string) =>
	describeFailedRequest({
		failure:
			statusCode === undefined
				? { networkCode: 'ECONNRESET' }
				: { statusCode, body: message ? { statusCode, message } : undefined },
		attempts: 4,
		apiRoot: 'https://api.fillout.com/v1/api',
	});

describe('the tool', () => {
	it('is the node type whose name ends in Tool', () => {
		expect(runsAsTool({ getNode: () => node('n8n-nodes-fillout-forms.filloutTool') })).toBe(true);
		expect(runsAsTool({ getNode: () => node('n8n-nodes-fillout-forms.fillout') })).toBe(false);
		expect(runsAsTool({ getNode: () => node('CUSTOM.filloutTool') })).toBe(true);
	});

	it('knows a value the agent fills ($fromAI in an expression)', () => {
		expect(filledByAgent("={{ $fromAI('limit', '', 'number') }}")).toBe(true);
		expect(filledByAgent("={{ $fromai ('limit') }}")).toBe(true);
		expect(filledByAgent("$fromAI('limit')")).toBe(false); // not an expression: a fixed text
		expect(filledByAgent('={{ $json.limit }}')).toBe(false);
		expect(filledByAgent(10)).toBe(false);
	});
});

describe('Limit', () => {
	const { description } = new Fillout();
	/** Get Many's parameters as n8n fills them in for a node saved without a Limit. */
	const filledIn = (name: string, typeVersion = 1.1) =>
		NodeHelpers.getNodeParameters(
			description.properties,
			{ resource: 'submission', operation: 'getMany' },
			true,
			false,
			{ ...node(name), typeVersion },
			{ ...description, name } as INodeTypeDescription,
		);

	it('is 50 in a workflow and 10 on the tool (n8n’s @tool: the type name)', () => {
		expect(filledIn('fillout')?.limit).toBe(50);
		expect(filledIn('filloutTool')?.limit).toBe(10);
		expect(filledIn('filloutTool')).not.toHaveProperty('downloadFiles');
		expect(filledIn('fillout')?.downloadFiles).toBe(false);
	});

	it('on version 1, the tool keeps 50, as it read before 1.1; new nodes are 1.1', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
		expect(filledIn('filloutTool', 1)?.limit).toBe(50);
		expect(filledIn('fillout', 1)?.limit).toBe(50);
		expect(filledIn('filloutTool', 1.2)?.limit).toBe(10);
	});

	it('the editor shows one Limit for each kind of node and version', () => {
		const limits = description.properties.filter((p) => p.name === 'limit');
		for (const [name, typeVersion, shownDefault] of [
			['fillout', 1, 50],
			['fillout', 1.1, 50],
			['filloutTool', 1, 50],
			['filloutTool', 1.1, 10],
		] as const) {
			const shown = limits.filter((limit) =>
				NodeHelpers.displayParameter(
					{ resource: 'submission', operation: 'getMany', returnAll: false },
					limit,
					{ ...node(name), typeVersion },
					{ ...description, name } as INodeTypeDescription,
				),
			);
			expect([name, typeVersion, shown.map((limit) => limit.default)]).toEqual([
				name,
				typeVersion,
				[shownDefault],
			]);
		}
	});

	it('reads the default of the node’s version when n8n filled in none', () => {
		const amount = (typeVersion: number, parameters: INode['parameters'] = {}) =>
			submissionAmount(
				{
					getNode: () => ({ ...node('n8n-nodes-fillout-forms.filloutTool'), typeVersion }),
					getNodeParameter: (name: string, _index: number, fallback: unknown) =>
						parameters[name] ?? fallback,
				} as unknown as IExecuteFunctions,
				0,
			);
		expect([amount(1), amount(1.1), amount(1.2)]).toEqual([50, 10, 10]);
		expect(amount(1, { limit: 3 })).toBe(3);
		expect(amount(1.1, { returnAll: true })).toBeUndefined();
	});
});

describe('the note', () => {
	const rows = (n: number) =>
		Array.from({ length: n }, (_, i) => ({ submissionTime: `2024-01-0${i + 1}T00:00:00.000Z` }));

	it('without Fillout’s count: more may match when the read filled its limit', () => {
		expect(moreNote(rows(3), { maxItems: 3, sort: 'asc' })).toMatch(
			/^3 submissions shown, oldest first \(more may match\); narrow the request with .*; for the next ones, ask again with Submitted After 2024-01-03T00:00:00.000Z\.$/,
		);
		expect(moreNote(rows(2), { maxItems: 3, sort: 'asc' })).toBeUndefined();
		expect(moreNote(rows(3), { sort: 'asc' })).toBeUndefined();
	});

	it('with the count: only when more match than are shown; no time, no next step', () => {
		expect(moreNote(rows(3), { total: 3, maxItems: 3, sort: 'asc' })).toBeUndefined();
		expect(moreNote([{}, {}], { total: 12345, maxItems: 2, sort: 'desc' })).toBe(
			'2 of 12,345 submissions shown, newest first; narrow the request with Submitted After or Submitted Before (a date and time such as 2024-05-01T14:30:00Z), or Search (text found in any answer).',
		);
	});

	it('keeps the count of the first page that gives one', () => {
		const count = new MatchCount();
		count.onPage({ totalResponses: 'many' });
		count.onPage({ totalResponses: -1 });
		count.onPage({ totalResponses: 0 });
		count.onPage({ totalResponses: 9 });
		expect(count.total).toBe(0);
	});
});

describe('errors for the agent', () => {
	const where = (resource: string, operation: string) => ({ itemIndex: 0, resource, operation });
	const ctx = toolContext({ form: { __rl: true, mode: 'id', value: 'abc' } });
	const reworded = (error: unknown, resource = 'submission', operation = 'getMany') =>
		(errorForAgent(ctx, error, where(resource, operation)) as Error).message;

	it('says what to do after each kind of failed request', () => {
		const api = (statusCode: number | undefined, message?: string) =>
			apiError(ctx, failed(statusCode, message), 0);
		expect(reworded(api(429))).toBe(
			'Fillout’s rate limit (5 requests per second) was still exceeded after retrying; wait a few seconds and call again, one call at a time.',
		);
		expect(reworded(api(502))).toBe(
			'Fillout failed to process the request (HTTP 502); call again in a minute.',
		);
		expect(reworded(api(undefined))).toBe(
			'Could not reach Fillout at https://api.fillout.com/v1/api; call again in a minute, and tell the user if it keeps failing.',
		);
		expect(reworded(api(400, 'limit must be a number.'))).toBe(
			'Fillout rejected the request: limit must be a number; change the value Fillout names and call again.',
		);
		expect(reworded(api(404), 'webhook', 'delete')).toBe(
			'Fillout could not find what was asked for; use the webhook ID that Webhook → Create returned.',
		);
		expect(reworded(api(404), 'submission', 'delete')).toMatch(
			/; find the submission with Submission → Get Many and use its submissionId, or list the forms/,
		);
		expect(reworded(api(404), 'form', 'get')).toMatch(/; list the forms with Form → Get Many/);
	});

	it('an input error: the message without its item, then the first sentence of its hint', () => {
		const problem = itemProblem(ctx, '"Thing" is wrong', 3, 'Use a thing. Or else.');
		expect(reworded(problem)).toBe('"Thing" is wrong; use a thing.');
		expect(reworded(new NodeOperationError(node('x'), 'Stopped [items 0–3]'))).toBe(
			'Stopped [items 0–3]',
		);
	});

	it('an input error of an operation without a form keeps its own hint', () => {
		const formless = toolContext({});
		const error = itemProblem(formless, '"Limit" is odd', 0, 'Use an even one.');
		expect((errorForAgent(formless, error, where('form', 'getMany')) as Error).message).toBe(
			'"Limit" is odd; use an even one.',
		);
	});

	it('keeps a message that holds a system error code (n8n would swap it for generic words)', () => {
		const error = itemProblem(ctx, 'The file EPERM.txt is odd', 0, 'Use another file.');
		expect(reworded(error, 'form', 'get')).toBe('The file EPERM.txt is odd; use another file.');
	});

	it('leaves alone what it cannot add to: other errors, a cancellation, no hint', () => {
		const plain = new Error('boom');
		expect(errorForAgent(ctx, plain, where('form', 'get'))).toBe(plain);
		const cancelled = new NodeApiError(node('x'), { kind: 'cancelled', message: 'cancelled' });
		expect(errorForAgent(ctx, cancelled, where('form', 'get'))).toBe(cancelled);
		const bare = new NodeOperationError(node('x'), 'Plain');
		expect(errorForAgent(ctx, bare, where('form', 'get'))).toBe(bare);
	});

	it('a Form the parameter cannot read: give a form ID', () => {
		const broken = toolContext({ form: { __rl: true, mode: 'id', value: 'no form!' } });
		const error = itemProblem(broken, 'x', 0, 'Choose a form.');
		expect((errorForAgent(broken, error, where('form', 'get')) as Error).message).toMatch(
			/^x; give a form ID such as foAdHjd1Duus \(list the forms/,
		);
		expect((errorForAgent(broken, error, where('webhook', 'create')) as Error).message).toBe(
			'x; choose a form.',
		);
		const throwing = {
			getNode: () => node('n8n-nodes-fillout-forms.filloutTool'),
			getNodeParameter: () => {
				throw new Error('expression failed');
			},
		} as unknown as IExecuteFunctions;
		expect((errorForAgent(throwing, error, where('form', 'get')) as Error).message).toBe(
			'x; choose a form.',
		);
	});

	it('refuses an operation or resource set by an expression, and only then', () => {
		expect(() =>
			checkFixedOperation(toolContext({ resource: 'form', operation: 'get' })),
		).not.toThrow();
		for (const parameters of [
			{ resource: 'form', operation: '={{ "delete" }}' },
			{ resource: '={{ $fromAI("r") }}', operation: 'get' },
		]) {
			expect(() => checkFixedOperation(toolContext(parameters))).toThrow(
				'must be fixed by the workflow’s author',
			);
		}
	});
});
