/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: prints the figures it measured on process.stderr */
/**
 * The Fillout node as an AI tool in a real n8n, through n8n's MCP Server Trigger: an MCP
 * client (streamable HTTP, test/e2e/support/mcpClient.ts) lists the tools and reads their
 * descriptions, calls Submission → Get Many without a Limit and gets the bounded answer
 * with its note in one request (50 on a tool of node version 1), finds one email among
 * 10,000 submissions (under 2 KB, at most 3 requests), counts in one request, and calls
 * Get Many on an unknown form and gets the one-sentence error. The MCP Server Trigger
 * (version 2) exists on both releases. The figures (bytes, requests) are printed.
 */
import { randomUUID } from 'node:crypto';

import { createApiKeyCredential } from './support/credentials';
import { McpClient, type McpTool, type McpToolResult } from './support/mcpClient';
import { NODE_TYPES } from './support/paths';
import { sleep } from './support/processes';
import { credentialsOf, formById, type CredentialRef } from './support/workflows';
import type { NodeDefinition } from './support/n8nClient';
import { connectE2e, unique, type E2eContext } from './support';

const MCP_TRIGGER = '@n8n/n8n-nodes-langchain.mcpTrigger';
const LIST_ROUTE = 'GET /v1/api/forms/:formId/submissions';
const START = '2024-03-01T00:00:00.000Z';
const minute = (n: number) => new Date(Date.parse(START) + n * 60_000).toISOString();

let e2e: E2eContext;
let credential: CredentialRef;
let formId: string;
let workflowId: string;
let mcp: McpClient;
let tools: McpTool[];
/** A form of 10,000 generated submissions and one whose email is RARE_EMAIL. */
let peopleFormId: string;
/** Its Email question's ID, as the editor's list saves it. */
let emailQuestionId: string;
let rareId: string;
const RARE_EMAIL = 'Rare.One@Example.org';
const figures: Record<string, number> = {};

/** A Fillout tool node on the MCP Server Trigger's tool input (node version 1.1 unless given). */
function toolNode(
	name: string,
	parameters: Record<string, unknown>,
	typeVersion = 1.1,
): NodeDefinition {
	return {
		id: randomUUID(),
		name,
		type: NODE_TYPES.tool,
		typeVersion,
		position: [0, 200],
		parameters: { authentication: 'apiKey', ...parameters },
		credentials: credentialsOf(credential),
	};
}

/** What the agent fills: the form's ID, described as an author would (the hint's words). */
const formFromAgent = {
	__rl: true,
	mode: 'id',
	value:
		"={{ $fromAI('formId', 'The Fillout form ID, such as foAdHjd1Duus (List forms gives them)', 'string') }}",
};

beforeAll(async () => {
	e2e = await connectE2e();
	credential = await createApiKeyCredential(
		e2e.n8n,
		unique('tool key'),
		e2e.demo.apiKeys[0],
		e2e.state.sandbox.origin,
	);
	formId = (await e2e.sandbox.createForm({ name: unique('e2e tool form') })).id;
	await e2e.sandbox.generate(formId, { count: 1234, stepMs: 60_000, startTime: START });
	await tenThousandWithOneRareEmail();
	const path = `fillout-${randomUUID()}`;
	const toolNodes = [
		toolNode('List forms', { resource: 'form', operation: 'getMany' }),
		toolNode('Find submissions', {
			resource: 'submission',
			operation: 'getMany',
			form: formFromAgent,
		}),
		toolNode(
			'Find submissions v1',
			{ resource: 'submission', operation: 'getMany', form: formFromAgent },
			1,
		),
		toolNode('Read form', { resource: 'form', operation: 'get', form: formById(formId) }),
		toolNode('Find by email', {
			resource: 'submission',
			operation: 'getMany',
			form: formFromAgent,
			filters: {
				answer: {
					filter: {
						question: emailQuestionId,
						condition: 'equals',
						value: "={{ $fromAI('email', 'The email address to look for', 'string') }}",
					},
				},
			},
		}),
		toolNode('Count submissions', {
			resource: 'submission',
			operation: 'count',
			form: formFromAgent,
		}),
	];
	const workflow = await e2e.n8n.createWorkflow({
		name: unique('mcp tool'),
		nodes: [
			{
				id: randomUUID(),
				name: 'MCP Server Trigger',
				type: MCP_TRIGGER,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { path, authentication: 'none' },
			},
			...toolNodes,
		],
		connections: Object.fromEntries(
			toolNodes.map((tool) => [
				tool.name,
				{ ai_tool: [[{ node: 'MCP Server Trigger', type: 'ai_tool', index: 0 }]] },
			]),
		),
		settings: { executionOrder: 'v1' },
	});
	workflowId = workflow.id;
	await e2e.n8n.activateWorkflow(workflowId);
	mcp = new McpClient(`${e2e.state.n8n.url.replace(/\/+$/, '')}/mcp/${path}`);
	// n8n registers the trigger's address a moment after publishing answers: 404 until then.
	let failure: unknown;
	for (let attempt = 0; attempt < 20; attempt++) {
		failure = await mcp.initialize().then(
			() => undefined,
			(error: unknown) => error,
		);
		if (failure === undefined || !String(failure).includes('→ 404')) break;
		await sleep(500);
	}
	expect(failure).toBeUndefined();
}, 120_000);

afterAll(async () => {
	await mcp?.close();
	if (workflowId) await e2e.n8n.deactivateWorkflow(workflowId);
	process.stderr.write(
		`\n[agent tool figures, n8n ${e2e.state.n8n.install.version}] ${JSON.stringify(figures)}\n`,
	);
});

/**
 * A form with an Email question: 5,000 generated submissions, one whose email is
 * RARE_EMAIL, 5,000 more (the sandbox's bulk generate: no webhooks, well under a second).
 */
async function tenThousandWithOneRareEmail(): Promise<void> {
	const form = await e2e.sandbox.createForm({
		name: unique('e2e tool people'),
		questions: [
			{ name: 'Email', type: 'EmailInput' },
			{ name: 'Name', type: 'ShortAnswer' },
		],
	});
	await e2e.sandbox.generate(form.id, { count: 5_000, startTime: START });
	const rare = await e2e.sandbox.respond(form.id, { answers: { Email: RARE_EMAIL } });
	rareId = rare.submission.submissionId;
	await e2e.sandbox.generate(form.id, { count: 5_000 });
	peopleFormId = form.id;
	emailQuestionId = form.questions.find((question) => question.name === 'Email')!.id;
}

/** A tool call, with the API requests the sandbox counted for the tool's key and the answer's bytes. */
async function measuredCall(
	name: string,
	args: Record<string, unknown>,
): Promise<{ result: McpToolResult; requests: number; bytes: number }> {
	await e2e.sandbox.resetStats();
	const result = await mcp.callTool(name, args);
	const stats = await e2e.sandbox.stats();
	const text = result.content.map((part) => part.text ?? '').join('');
	return {
		result,
		requests: stats.byKey[e2e.demo.apiKeys[0]]?.total ?? 0,
		bytes: Buffer.byteLength(text, 'utf8'),
	};
}

describe('Fillout as a tool of the MCP Server Trigger', () => {
	it('lists the tools with descriptions that say what each is for', async () => {
		tools = await mcp.listTools();
		const described = Object.fromEntries(tools.map((tool) => [tool.name, tool.description]));
		expect(described).toEqual({
			List_forms: 'Get many forms with the ID and name of each in Fillout',
			Find_submissions: 'Get many submissions of a form by date or text in Fillout',
			Find_submissions_v1: 'Get many submissions of a form by date or text in Fillout',
			Read_form: 'Get a form and its questions by form ID in Fillout',
			Find_by_email: 'Get many submissions of a form by date or text in Fillout',
			Count_submissions: 'Count submissions in Fillout',
		});
		const find = tools.find((tool) => tool.name === 'Find_submissions');
		expect(find?.inputSchema?.properties?.formId).toMatchObject({
			type: 'string',
			description: 'The Fillout form ID, such as foAdHjd1Duus (List forms gives them)',
		});
	});

	it('Get Many without a Limit: 10 submissions and the note, in one request', async () => {
		await e2e.sandbox.resetStats();
		const result = await mcp.callTool('Find_submissions', { formId });
		const stats = await e2e.sandbox.stats();
		expect(result.isError).toBeFalsy();
		const [answer] = JSON.parse(result.content[0].text);
		expect(answer.submissions.map((s: { submissionTime: string }) => s.submissionTime)).toEqual(
			Array.from({ length: 10 }, (_, n) => minute(n)),
		);
		expect(answer).toMatchObject({ shown: 10, total: 1234 });
		expect(answer.note).toBe(
			`10 of 1,234 submissions shown, oldest first; narrow the request with Submitted After or Submitted Before (a date and time such as 2024-05-01T14:30:00Z), or Search (text found in any answer); for the next ones, ask again with Submitted After ${minute(9)}.`,
		);
		expect(stats.requests[LIST_ROUTE]).toBe(1);
	});

	it('a tool of node version 1 without a Limit reads 50, as before version 1.1', async () => {
		const { result, requests } = await measuredCall('Find_submissions_v1', { formId });
		expect(result.isError).toBeFalsy();
		const [answer] = JSON.parse(result.content[0].text);
		expect(answer.submissions.map((s: { submissionTime: string }) => s.submissionTime)).toEqual(
			Array.from({ length: 50 }, (_, n) => minute(n)),
		);
		expect(answer).toMatchObject({ shown: 50, total: 1234 });
		expect(requests).toBe(1);
	});

	it('find by email among 10,000 submissions: under 2 KB, at most 3 requests', async () => {
		const email = RARE_EMAIL.toLowerCase();
		const { result, requests, bytes } = await measuredCall('Find_by_email', {
			formId: peopleFormId,
			email,
		});
		figures.findByEmailBytes = bytes;
		figures.findByEmailRequests = requests;
		expect(result.isError).toBeFalsy();
		const [answer] = JSON.parse(result.content[0].text);
		expect(answer).toEqual({ submissions: [expect.any(Object)], shown: 1 });
		expect(answer.submissions[0]).toMatchObject({ submissionId: rareId, Email: RARE_EMAIL });
		expect(bytes).toBeLessThan(2048);
		expect(requests).toBeLessThanOrEqual(3);
	});

	it('a count: the number, in one request', async () => {
		const { result, requests, bytes } = await measuredCall('Count_submissions', {
			formId: peopleFormId,
		});
		figures.countRequests = requests;
		figures.countBytes = bytes;
		expect(result.isError).toBeFalsy();
		expect(JSON.parse(result.content[0].text)).toEqual([{ formId: peopleFormId, count: 10_001 }]);
		expect(requests).toBe(1);
	});

	it('an unknown form: the one-sentence error', async () => {
		const result = await mcp.callTool('Find_submissions', { formId: 'nosuchform' });
		expect(result.isError).toBe(true);
		// n8n puts the error's class before it: "NodeOperationError: " on 2.41, "Error: " on 1.123.
		const [, framing, sentence] = /^(\w+): (.*)$/s.exec(result.content[0].text) ?? [];
		expect(['NodeOperationError', 'Error']).toContain(framing);
		expect(sentence).toBe(
			'Form nosuchform not found; list the forms with Form → Get Many and use a formId from its answer.',
		);
	});
});
