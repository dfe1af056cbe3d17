/**
 * The workflows the benchmark runs: the package's nodes, built with the end-to-end
 * library's builders, and what an n8n user would build instead from n8n's own nodes
 * (HTTP Request with pagination or batching, Webhook).
 */
import { randomUUID } from 'node:crypto';

import {
	actionWorkflow,
	answersParameter,
	formById,
	triggerWorkflow,
	type CredentialRef,
	type MapperColumn,
	type NodeDefinition,
	type WorkflowDefinition,
} from '../test/e2e/support';

/** An `httpHeaderAuth` credential as the HTTP Request node refers to it. */
export interface HeaderCredentialRef {
	type: 'httpHeaderAuth';
	id: string;
	name: string;
}

export const BENCH_NODES = {
	start: 'Start',
	rows: 'Rows',
	fillout: 'Fillout',
	http: 'HTTP Request',
	webhook: 'Webhook',
	done: 'Done',
} as const;

/** Fillout's page size limit. */
export const PAGE_SIZE = 150;
/** Fillout's page size when no `limit` is sent. */
export const DEFAULT_PAGE_SIZE = 50;

function node(
	name: string,
	type: string,
	typeVersion: number,
	x: number,
	parameters: Record<string, unknown>,
	extra: Partial<NodeDefinition> = {},
): NodeDefinition {
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [x, 0],
		parameters,
		...extra,
	};
}

/** Connections of a straight chain of nodes. */
function chain(...names: string[]): Record<string, unknown> {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index + 1 < names.length; index++) {
		connections[names[index]] = {
			main: [[{ node: names[index + 1], type: 'main', index: 0 }]],
		};
	}
	return connections;
}

const manualTrigger = () => node(BENCH_NODES.start, 'n8n-nodes-base.manualTrigger', 1, 0, {});

// --- export ------------------------------------------------------------------------------

/**
 * Manual Trigger → Fillout, Submission → Get Many, Return All (defaults otherwise:
 * Simplify on), plus `extra` parameters (Download Files for the files benchmark).
 */
export function filloutExportWorkflow(
	name: string,
	credential: CredentialRef,
	formId: string,
	extra: Record<string, unknown> = {},
): WorkflowDefinition {
	return actionWorkflow({
		name,
		credential,
		parameters: {
			resource: 'submission',
			operation: 'getMany',
			form: formById(formId),
			returnAll: true,
			...extra,
		},
	});
}

export interface HttpExportOptions {
	apiRoot: string;
	formId: string;
	credential: HeaderCredentialRef;
	/** Sent as `limit`; undefined leaves it out (Fillout then pages by 50). */
	limit?: number;
	/** Pause between pages (the pagination option "Interval Between Requests (ms)"). */
	requestIntervalMs: number;
}

/**
 * Manual Trigger → HTTP Request (4.2), GET the submissions with offset pagination as a
 * user sets it up: "Update a Parameter in Each Request" with `offset` =
 * `{{ $pageCount * <page size> }}`, and "Pagination Complete When: Other". With a limit
 * of 150 the user can stop at the first short page (`responses.length < 150`); without
 * a limit the page size is not part of the request, so it stops at the first empty page.
 * ("Response Is Empty" does not work here: the body is an object, never empty.)
 */
export function httpExportWorkflow(name: string, options: HttpExportOptions): WorkflowDefinition {
	const pageSize = options.limit ?? DEFAULT_PAGE_SIZE;
	const parameters: Record<string, unknown> = {
		url: `${options.apiRoot}/forms/${encodeURIComponent(options.formId)}/submissions`,
		authentication: 'genericCredentialType',
		genericAuthType: 'httpHeaderAuth',
		options: {
			pagination: {
				pagination: {
					paginationMode: 'updateAParameterInEachRequest',
					parameters: {
						parameters: [
							{
								type: 'qs',
								name: 'offset',
								value: `={{ $pageCount * ${pageSize} }}`,
							},
						],
					},
					paginationCompleteWhen: 'other',
					completeExpression:
						options.limit === undefined
							? '={{ $response.body.responses.length === 0 }}'
							: `={{ $response.body.responses.length < ${options.limit} }}`,
					requestInterval: options.requestIntervalMs,
				},
			},
		},
	};
	if (options.limit !== undefined) {
		parameters.sendQuery = true;
		parameters.queryParameters = {
			parameters: [{ name: 'limit', value: String(options.limit) }],
		};
	}
	return {
		name,
		nodes: [
			manualTrigger(),
			node(BENCH_NODES.http, 'n8n-nodes-base.httpRequest', 4.2, 220, parameters, {
				credentials: {
					httpHeaderAuth: {
						id: options.credential.id,
						name: options.credential.name,
					},
				},
			}),
		],
		connections: chain(BENCH_NODES.start, BENCH_NODES.http),
		settings: { executionOrder: 'v1' },
	};
}

// --- import ------------------------------------------------------------------------------

/** The rows to import: one item per person, fields named like the form's questions. */
export function rowsCode(count: number): string {
	return [
		'const rows = [];',
		`for (let i = 0; i < ${count}; i++) {`,
		'  rows.push({ json: {',
		'    Name: `Person ${i}`,',
		'    Email: `person${i}@example.com`,',
		'    Rating: i % 10,',
		"    Plan: i % 2 ? 'Pro' : 'Free',",
		'    Comments: `Imported row ${i} of the benchmark`,',
		'  } });',
		'}',
		'return rows;',
	].join('\n');
}

const rowsNode = (count: number) =>
	node(BENCH_NODES.rows, 'n8n-nodes-base.code', 2, 220, {
		jsCode: rowsCode(count),
	});

/**
 * Manual Trigger → Code (rows) → Fillout, Submission → Create, Map Automatically, with
 * the Answers columns the editor loaded for the form saved in the node.
 */
export function filloutImportWorkflow(
	name: string,
	credential: CredentialRef,
	formId: string,
	count: number,
	columns: MapperColumn[],
): WorkflowDefinition {
	const base = actionWorkflow({
		name,
		credential,
		parameters: {
			resource: 'submission',
			operation: 'create',
			form: formById(formId),
			columns: answersParameter(columns, { mappingMode: 'autoMapInputData' }),
		},
	});
	const fillout = base.nodes.find((candidate) => candidate.name === BENCH_NODES.fillout);
	if (!fillout) throw new Error('actionWorkflow has no Fillout node');
	fillout.position = [440, 0];
	return {
		...base,
		nodes: [manualTrigger(), rowsNode(count), fillout],
		connections: chain(BENCH_NODES.start, BENCH_NODES.rows, BENCH_NODES.fillout),
		pinData: undefined,
	};
}

export interface HttpImportOptions {
	apiRoot: string;
	formId: string;
	credential: HeaderCredentialRef;
	count: number;
	/** The HTTP Request node's Batching option: items per batch and the pause between batches. */
	batchSize: number;
	batchIntervalMs: number;
	/** Question ids of the form, by the row field that answers them. */
	questionIds: Record<'Name' | 'Email' | 'Rating' | 'Plan' | 'Comments', string>;
}

/** Manual Trigger → Code (rows) → HTTP Request POST, one submission per item. */
export function httpImportWorkflow(name: string, options: HttpImportOptions): WorkflowDefinition {
	const answers = Object.entries(options.questionIds)
		.map(([field, id]) => `{ id: ${JSON.stringify(id)}, value: $json.${field} }`)
		.join(', ');
	return {
		name,
		nodes: [
			manualTrigger(),
			rowsNode(options.count),
			node(
				BENCH_NODES.http,
				'n8n-nodes-base.httpRequest',
				4.2,
				440,
				{
					method: 'POST',
					url: `${options.apiRoot}/forms/${encodeURIComponent(options.formId)}/submissions`,
					authentication: 'genericCredentialType',
					genericAuthType: 'httpHeaderAuth',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify({ submissions: [{ questions: [${answers}] }] }) }}`,
					options: {
						batching: {
							batch: {
								batchSize: options.batchSize,
								batchInterval: options.batchIntervalMs,
							},
						},
					},
				},
				{
					credentials: {
						httpHeaderAuth: {
							id: options.credential.id,
							name: options.credential.name,
						},
					},
				},
			),
		],
		connections: chain(BENCH_NODES.start, BENCH_NODES.rows, BENCH_NODES.http),
		settings: { executionOrder: 'v1' },
	};
}

// --- trigger -----------------------------------------------------------------------------

/** Fillout Trigger → No Operation (the library's builder; Simplify on). */
export function filloutTriggerWorkflow(
	name: string,
	credential: CredentialRef,
	formId: string,
): WorkflowDefinition {
	return triggerWorkflow({ name, credential, formId });
}

/** Webhook (POST, respond immediately) → No Operation; returns the path too. */
export function webhookWorkflow(name: string): {
	workflow: WorkflowDefinition;
	path: string;
} {
	const path = randomUUID();
	return {
		path,
		workflow: {
			name,
			nodes: [
				node(
					BENCH_NODES.webhook,
					'n8n-nodes-base.webhook',
					2,
					0,
					{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
					{ webhookId: path },
				),
				node(BENCH_NODES.done, 'n8n-nodes-base.noOp', 1, 220, {}),
			],
			connections: chain(BENCH_NODES.webhook, BENCH_NODES.done),
			settings: { executionOrder: 'v1' },
		},
	};
}

/** n8n's production address of a Webhook node: WEBHOOK_URL + webhook/<path>. */
export function webhookNodeUrl(n8nUrl: string, path: string): string {
	return `${n8nUrl.replace(/\/+$/, '')}/webhook/${path}`;
}
