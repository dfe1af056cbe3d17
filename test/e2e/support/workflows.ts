/** Workflow JSON as the editor saves it, for the package's nodes. */
import { randomUUID } from 'node:crypto';

import type { N8nClient, NodeDefinition, WorkflowDefinition } from './n8nClient';
import { NODE_TYPES } from './paths';

export type FilloutCredentialType = 'filloutFormsApi' | 'filloutFormsOAuth2Api';

/** A saved credential as a node refers to it. */
export interface CredentialRef {
	type: FilloutCredentialType;
	id: string;
	name: string;
}

/** The node's "Authentication" value for a credential type. */
export function authenticationFor(credential: CredentialRef): 'apiKey' | 'oAuth2' {
	return credential.type === 'filloutFormsOAuth2Api' ? 'oAuth2' : 'apiKey';
}

/** The "Form" parameter (a resource locator) in "By ID" mode. */
export function formById(formId: string) {
	return { __rl: true, mode: 'id', value: formId };
}

/** The "Form" parameter in "From List" mode, as the editor saves a pick from the list. */
export function formFromList(formId: string, name: string) {
	return {
		__rl: true,
		mode: 'list',
		value: formId,
		cachedResultName: name,
		cachedResultUrl: `https://build.fillout.com/editor/${formId}`,
	};
}

/** The node's `credentials` entry for a saved credential. */
export function credentialsOf(
	credential: CredentialRef,
): Record<string, { id: string; name: string }> {
	return { [credential.type]: { id: credential.id, name: credential.name } };
}

/** The "Form" parameter in "By URL" mode. */
export function formByUrl(url: string) {
	return { __rl: true, mode: 'url', value: url };
}

/** One column of a resource mapper, as n8n sends it to the editor. */
export type MapperColumn = Awaited<ReturnType<N8nClient['resourceMapperFields']>>['fields'][number];

/**
 * Create's Answers columns for a form, loaded the way the editor loads them when the
 * form is chosen (n8n's resource-mapper-fields request, through the credential).
 */
export async function loadAnswerColumns(
	n8n: N8nClient,
	credential: CredentialRef,
	formId: string,
): Promise<MapperColumn[]> {
	const { fields } = await n8n.resourceMapperFields({
		nodeType: NODE_TYPES.action,
		path: 'parameters.columns',
		methodName: 'getQuestionColumns',
		parameters: {
			authentication: authenticationFor(credential),
			resource: 'submission',
			operation: 'create',
			form: formById(formId),
		},
		credentials: credentialsOf(credential),
	});
	return fields;
}

/** Create's "Answers" parameter as the editor saves it: the mapping and the loaded columns. */
export function answersParameter(
	schema: MapperColumn[],
	mapping:
		| { mappingMode: 'autoMapInputData' }
		| { mappingMode: 'defineBelow'; value: Record<string, unknown> },
) {
	return {
		value: {},
		...mapping,
		matchingColumns: [],
		schema,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

export interface ActionWorkflowOptions {
	name: string;
	credential: CredentialRef;
	/** The Fillout node's parameters (resource, operation, …); authentication is added. */
	parameters: Record<string, unknown>;
	/** Items pinned to the Manual Trigger: the Fillout node receives them (default: one empty item). */
	inputItems?: Array<Record<string, unknown>>;
	/** The node's "On Error" setting. */
	onError?: NodeDefinition['onError'];
}

/** The node names used by the builders. */
export const NODE_NAMES = {
	start: 'Start',
	fillout: 'Fillout',
	trigger: 'Fillout Trigger',
	pollingTrigger: 'Fillout Polling Trigger',
	done: 'Done',
};

/** Manual Trigger → Fillout, as a user would build it to try an operation. */
export function actionWorkflow(options: ActionWorkflowOptions): WorkflowDefinition {
	const fillout: NodeDefinition = {
		id: randomUUID(),
		name: NODE_NAMES.fillout,
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [220, 0],
		parameters: { authentication: authenticationFor(options.credential), ...options.parameters },
		credentials: credentialsOf(options.credential),
	};
	if (options.onError) fillout.onError = options.onError;
	return {
		name: options.name,
		nodes: [
			{
				id: randomUUID(),
				name: NODE_NAMES.start,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			fillout,
		],
		connections: {
			[NODE_NAMES.start]: { main: [[{ node: NODE_NAMES.fillout, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
		pinData: options.inputItems
			? { [NODE_NAMES.start]: options.inputItems.map((json) => ({ json })) }
			: undefined,
	};
}

export interface TriggerWorkflowOptions {
	name: string;
	credential: CredentialRef;
	formId: string;
	/** Given: the form is picked "From List" (as in the editor), else "By ID". */
	formName?: string;
	simplify?: boolean;
	/** The trigger's webhook id (the editor gives every webhook node a UUID). */
	webhookId?: string;
	/** Default 1.1, what the editor gives a new node (catch-up on); 1 is the node before it. */
	typeVersion?: number;
	/** Further parameters of the trigger (catchUp, catchUpMinutes …). */
	parameters?: Record<string, unknown>;
}

/** The No Operation node a trigger workflow ends with. */
function doneNode(): NodeDefinition {
	return {
		id: randomUUID(),
		name: NODE_NAMES.done,
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
}

/** Fillout Trigger → No Operation. */
export function triggerWorkflow(options: TriggerWorkflowOptions): WorkflowDefinition {
	const parameters: Record<string, unknown> = {
		authentication: authenticationFor(options.credential),
		form:
			options.formName === undefined
				? formById(options.formId)
				: formFromList(options.formId, options.formName),
	};
	if (options.simplify !== undefined) parameters.simplify = options.simplify;
	Object.assign(parameters, options.parameters);
	return {
		name: options.name,
		nodes: [
			{
				id: randomUUID(),
				name: NODE_NAMES.trigger,
				type: NODE_TYPES.trigger,
				typeVersion: options.typeVersion ?? 1.1,
				position: [0, 0],
				webhookId: options.webhookId ?? randomUUID(),
				parameters,
				credentials: credentialsOf(options.credential),
			},
			doneNode(),
		],
		connections: {
			[NODE_NAMES.trigger]: { main: [[{ node: NODE_NAMES.done, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export interface PollingWorkflowOptions {
	name: string;
	credential: CredentialRef;
	formId: string;
	/** Further parameters of the trigger (startFrom, inProgress, options …). */
	parameters?: Record<string, unknown>;
}

/** Fillout Polling Trigger (every minute, n8n's shortest) → No Operation. */
export function pollingTriggerWorkflow(options: PollingWorkflowOptions): WorkflowDefinition {
	return {
		name: options.name,
		nodes: [
			{
				id: randomUUID(),
				name: NODE_NAMES.pollingTrigger,
				type: NODE_TYPES.pollingTrigger,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					authentication: authenticationFor(options.credential),
					form: formById(options.formId),
					...options.parameters,
				},
				credentials: credentialsOf(options.credential),
			},
			doneNode(),
		],
		connections: {
			[NODE_NAMES.pollingTrigger]: {
				main: [[{ node: NODE_NAMES.done, type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The address n8n listens on for "Listen for test event" (webhook-test/<id>/<path>). */
export function testWebhookUrl(n8nUrl: string, webhookId: string, path = 'webhook'): string {
	return `${n8nUrl.replace(/\/+$/, '')}/webhook-test/${webhookId}/${path}`;
}

/** The production webhook address n8n gives a trigger node (WEBHOOK_URL + webhook/<id>/<path>). */
export function productionWebhookUrl(n8nUrl: string, webhookId: string, path = 'webhook'): string {
	return `${n8nUrl.replace(/\/+$/, '')}/webhook/${webhookId}/${path}`;
}
