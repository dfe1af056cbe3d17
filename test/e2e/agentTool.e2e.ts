/**
 * The Fillout node as an AI tool in a real n8n, through n8n's MCP Server Trigger: an MCP
 * client (streamable HTTP, test/e2e/support/mcpClient.ts) lists the tools and reads their
 * descriptions, calls Submission → Get Many without a Limit and gets the bounded answer
 * with its note in one request, and calls it on an unknown form and gets the
 * one-sentence error. The MCP Server Trigger (version 2) exists on both releases.
 */
import { randomUUID } from 'node:crypto';

import { createApiKeyCredential } from './support/credentials';
import { McpClient, type McpTool } from './support/mcpClient';
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

/** A Fillout tool node on the MCP Server Trigger's tool input. */
function toolNode(name: string, parameters: Record<string, unknown>): NodeDefinition {
	return {
		id: randomUUID(),
		name,
		type: NODE_TYPES.tool,
		typeVersion: 1,
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
	const path = `fillout-${randomUUID()}`;
	const toolNodes = [
		toolNode('List forms', { resource: 'form', operation: 'getMany' }),
		toolNode('Find submissions', {
			resource: 'submission',
			operation: 'getMany',
			form: formFromAgent,
		}),
		toolNode('Read form', { resource: 'form', operation: 'get', form: formById(formId) }),
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
});

describe('Fillout as a tool of the MCP Server Trigger', () => {
	it('lists the tools with descriptions that say what each is for', async () => {
		tools = await mcp.listTools();
		const described = Object.fromEntries(tools.map((tool) => [tool.name, tool.description]));
		expect(described).toEqual({
			List_forms: 'Get many forms with the ID and name of each in Fillout',
			Find_submissions: 'Get many submissions of a form by date or text in Fillout',
			Read_form: 'Get a form and its questions by form ID in Fillout',
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
