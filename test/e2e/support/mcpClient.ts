/**
 * A minimal MCP client over streamable HTTP (JSON-RPC 2.0 in POSTs to one address, the
 * answer as JSON or as a server-sent event stream), enough to list and call the tools of
 * n8n's MCP Server Trigger (version 2: `POST <n8n>/mcp/<path>`, on n8n 1.123 and 2.41).
 */

type Json = ReturnType<typeof JSON.parse>;

export interface McpTool {
	name: string;
	description?: string;
	inputSchema?: Json;
}

export interface McpToolResult {
	isError?: boolean;
	content: Array<{ type: string; text: string }>;
}

const PROTOCOL_VERSION = '2025-03-26';

/** The JSON-RPC answer with this id, from a JSON body or an event stream's `data:` lines. */
function answerOf(text: string, contentType: string, id: number): Json {
	const messages = contentType.includes('text/event-stream')
		? text
				.split(/\r?\n/)
				.filter((line) => line.startsWith('data:'))
				.map((line) => JSON.parse(line.slice(5).trim()))
		: [JSON.parse(text)].flat();
	const answer = messages.find((message: Json) => message?.id === id);
	if (!answer) throw new Error(`No JSON-RPC answer with id ${id} in: ${text.slice(0, 500)}`);
	if (answer.error) throw new Error(`MCP error ${JSON.stringify(answer.error)}`);
	return answer.result;
}

export class McpClient {
	private sessionId?: string;
	private lastId = 0;

	constructor(private readonly url: string) {}

	private async post(body: Json): Promise<Response> {
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			'mcp-protocol-version': PROTOCOL_VERSION,
		};
		if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
		const response = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body) });
		if (!response.ok && response.status !== 202) {
			throw new Error(`MCP POST ${this.url} → ${response.status}: ${await response.text()}`);
		}
		return response;
	}

	private async request(method: string, params: Json = {}): Promise<Json> {
		const id = ++this.lastId;
		const response = await this.post({ jsonrpc: '2.0', id, method, params });
		this.sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
		return answerOf(await response.text(), response.headers.get('content-type') ?? '', id);
	}

	async initialize(): Promise<Json> {
		const result = await this.request('initialize', {
			protocolVersion: PROTOCOL_VERSION,
			capabilities: {},
			clientInfo: { name: 'fillout-e2e', version: '1.0.0' },
		});
		if (!this.sessionId) throw new Error('The MCP server gave no mcp-session-id');
		await (await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
		return result;
	}

	async listTools(): Promise<McpTool[]> {
		return ((await this.request('tools/list')) as { tools: McpTool[] }).tools;
	}

	async callTool(name: string, args: Json = {}): Promise<McpToolResult> {
		return (await this.request('tools/call', { name, arguments: args })) as McpToolResult;
	}

	/** Ends the session (DELETE with its id), as a client does when it closes. */
	async close(): Promise<void> {
		if (!this.sessionId) return;
		await fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': this.sessionId } });
	}
}
