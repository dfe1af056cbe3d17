/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: a node:http server in front of the sandbox, waiting with setTimeout */
/**
 * A real HTTP server in front of the sandbox that decides each create request's fault
 * from what the request holds (not from when it arrives), so a plan holds whatever order
 * the node's requests in flight take. It records what the service did with each request:
 * the items it received, whether the sandbox processed them, and what the answer told.
 * Other requests (reading the form) go through untouched.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningSandbox } from '../../../sandbox';

export type CreateFault =
	| { kind: 'ok' }
	/** 429: not processed; the node sends it again. */
	| { kind: 'rateLimited' }
	/** A server error, before or after the sandbox processed the request. */
	| { kind: 'serverError'; processed: boolean }
	/** The connection is dropped, before or after the sandbox processed the request. */
	| { kind: 'drop'; processed: boolean }
	/** Processed; the answer lists only the first `keep` submissions. */
	| { kind: 'truncate'; keep: number }
	/** The entries at these positions name a question the form lacks: the sandbox rejects them. */
	| { kind: 'reject'; positions: number[] }
	/** `submissions` is sent as a string: the sandbox rejects the request as a whole. */
	| { kind: 'rejectRequest' }
	/** 401 or 404: not processed. */
	| { kind: 'refuse'; status: 401 | 404 };

/** What became of one create request, as the service saw it. */
export interface CreateRecord {
	formId: string;
	/** Input item indexes, in the order of the request's entries. */
	items: number[];
	fault: CreateFault;
	/** The sandbox stored the request's submissions. */
	processed: boolean;
	/** Answered 2xx listing every submission: the batch is done. */
	succeeded: boolean;
	/** Answered with something after which the node cannot go on without Continue On Fail. */
	finalFailure: boolean;
	/** Order of the answer among all answers of the case (undefined: not answered yet). */
	answeredAs?: number;
}

export interface CasePlan {
	/** The fault of a request, from its form, items and how often this same request came before. */
	faultOf(request: { formId: string; items: number[]; occurrence: number }): CreateFault;
	/** Milliseconds before answering (after the opening burst). */
	latencyOf(request: { items: number[]; occurrence: number }): number;
	/** No create is answered until this many are open at once (or `burstTimeoutMs` passed). */
	burst: number;
	burstTimeoutMs?: number;
	/** After the first final failure, other answers wait this long (0: not held). */
	holdAfterFailureMs: number;
}

const ITEM_NAME = /^item-(\d+)$/;
const CREATE_PATH = /^\/v1\/api\/forms\/([^/]+)\/submissions$/;

const sleep = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

/** The item index of each entry, read from its `item-<n>` answer. */
function itemsOf(body: { submissions?: Array<{ questions?: Array<{ value?: unknown }> }> }) {
	return (body.submissions ?? []).map((entry) => {
		const value = entry.questions
			?.map((question) => question.value)
			.find((v) => ITEM_NAME.test(String(v)));
		return Number(ITEM_NAME.exec(String(value))?.[1] ?? NaN);
	});
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

interface Forwarded {
	status: number;
	body: string;
	headers: Record<string, string>;
}

/** Holds answers until `size` requests are open at once, or `timeoutMs` after the first. */
function openingBurst(size: number, timeoutMs: number) {
	let open: () => void = () => {};
	const opened = new Promise<void>((resolve) => (open = resolve));
	let timer: NodeJS.Timeout | undefined;
	return {
		async arrived(openNow: number) {
			if (openNow >= size) {
				clearTimeout(timer);
				open();
			} else timer ??= setTimeout(open, timeoutMs);
			await opened;
		},
	};
}

export class CreateFaultServer {
	records: CreateRecord[] = [];
	maxOpen = 0;
	private open = 0;
	private answers = 0;
	private plan: CasePlan | undefined;
	private burst = openingBurst(0, 0);
	private holdUntil = 0;
	private server: Server | undefined;
	url = '';

	constructor(private readonly sandbox: () => RunningSandbox) {}

	async start(): Promise<void> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}

	/** Starts a case: forgets the last one's records and takes the new plan. */
	startCase(plan: CasePlan): void {
		this.plan = plan;
		this.records = [];
		this.maxOpen = 0;
		this.open = 0;
		this.answers = 0;
		this.holdUntil = 0;
		// Past a second: the node keeps Fillout's 5 a second whatever the sandbox announces, so
		// the burst may wait for the window of the form requests just before it.
		this.burst = openingBurst(plan.burst, plan.burstTimeoutMs ?? 2500);
	}

	private async handle(req: IncomingMessage, res: ServerResponse) {
		const body = await readBody(req);
		const create = req.method === 'POST' ? CREATE_PATH.exec(req.url ?? '') : null;
		if (create && this.plan)
			await this.handleCreate(this.plan, decodeURIComponent(create[1]), req, res, body);
		else this.reply(res, await this.forward(req, body));
	}

	private async handleCreate(
		plan: CasePlan,
		formId: string,
		req: IncomingMessage,
		res: ServerResponse,
		body: string,
	) {
		const parsed = JSON.parse(body);
		const items = itemsOf(parsed);
		const key = items.join(',');
		const occurrence = this.records.filter(
			(r) => r.formId === formId && r.items.join(',') === key,
		).length;
		const fault = plan.faultOf({ formId, items, occurrence });
		const record: CreateRecord = {
			formId,
			items,
			fault,
			processed: false,
			succeeded: false,
			finalFailure: false,
		};
		this.records.push(record);
		this.maxOpen = Math.max(this.maxOpen, ++this.open);
		await this.burst.arrived(this.open);
		await sleep(plan.latencyOf({ items, occurrence }));

		const answer = await this.act(fault, req, parsed, record);
		while (Date.now() < this.holdUntil) await sleep(this.holdUntil - Date.now());
		// From here to the answer nothing waits: answers are counted in the order written.
		record.answeredAs = this.answers++;
		record.finalFailure = !record.succeeded && fault.kind !== 'rateLimited';
		if (record.finalFailure && this.holdUntil === 0)
			this.holdUntil = Date.now() + plan.holdAfterFailureMs;
		this.open--;
		this.reply(res, answer);
	}

	/** Does what the fault says; the answer to write, or 'drop'. */
	private async act(
		fault: CreateFault,
		req: IncomingMessage,
		parsed: { submissions?: unknown },
		record: CreateRecord,
	): Promise<Forwarded | 'drop'> {
		const fabricated = (status: number, message: string, headers: Record<string, string> = {}) => ({
			status,
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify({ statusCode: status, error: 'Fault', message }),
		});
		switch (fault.kind) {
			case 'rateLimited':
				return fabricated(429, 'Rate limit exceeded', { 'retry-after': '0' });
			case 'refuse':
				return fabricated(
					fault.status,
					fault.status === 401 ? 'API Key invalid' : 'Form not found',
				);
			case 'serverError':
			case 'drop':
				if (!fault.processed)
					return fault.kind === 'drop' ? 'drop' : fabricated(500, 'Internal error');
				break;
			case 'reject':
				for (const position of fault.positions)
					(parsed.submissions as Array<{ questions: Array<{ id: string }> }>)[
						position
					].questions[0].id = 'no-such-question';
				break;
			case 'rejectRequest':
				parsed.submissions = 'not a list';
				break;
		}
		const forwarded = await this.forward(req, JSON.stringify(parsed));
		record.processed = forwarded.status >= 200 && forwarded.status < 300;
		if (fault.kind === 'serverError') return fabricated(502, 'Bad gateway');
		if (fault.kind === 'drop') return 'drop';
		if (fault.kind === 'truncate' && record.processed) {
			const answer = JSON.parse(forwarded.body);
			answer.submissions = answer.submissions.slice(0, fault.keep);
			return { ...forwarded, body: JSON.stringify(answer) };
		}
		record.succeeded = record.processed && fault.kind === 'ok';
		return forwarded;
	}

	private async forward(req: IncomingMessage, body: string): Promise<Forwarded> {
		const headers: Record<string, string> = {};
		for (const name of ['authorization', 'content-type', 'accept']) {
			const value = req.headers[name];
			if (typeof value === 'string') headers[name] = value;
		}
		const response = await fetch(`${this.sandbox().origin}${req.url}`, {
			method: req.method,
			headers,
			body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
		});
		const kept: Record<string, string> = {};
		for (const name of [
			'content-type',
			'ratelimit-limit',
			'ratelimit-remaining',
			'ratelimit-reset',
		])
			if (response.headers.get(name) !== null) kept[name] = response.headers.get(name)!;
		return { status: response.status, headers: kept, body: await response.text() };
	}

	private reply(res: ServerResponse, answer: Forwarded | 'drop') {
		if (answer === 'drop') {
			res.socket?.destroy();
			return;
		}
		res.writeHead(answer.status, answer.headers);
		res.end(answer.body);
	}
}
