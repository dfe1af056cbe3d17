/**
 * What every harness entry point builds first: the credentials helper, the node-type
 * registry and (for method, hook and webhook calls) a one-node workflow around the node
 * under test, as n8n builds it for the editor's dynamic-parameter requests and for
 * webhook activation.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeParameters,
	INodeType,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import { HarnessCredentialsHelper } from './credentials';
import {
	HarnessNodeTypes,
	type NodeTypeLike,
	instantiateNodeType,
	latestVersion,
} from './nodeTypes';

export const WORKFLOW_ID = 'harness-workflow';

/** Options shared by every harness entry point. */
export interface HarnessBaseOptions {
	/** The node under test: an instance or its class. */
	nodeType: NodeTypeLike;
	/** Parameters as the editor saves them (defaults are filled in, as n8n does). */
	parameters?: INodeParameters;
	/** Stored (decrypted) credential data per credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Defaults to the node's latest version. */
	typeVersion?: number;
	/** Defaults to the node's `defaults.name`. */
	nodeName?: string;
	/** n8n's base URL (no trailing slash); webhook URLs are built from it. */
	instanceUrl?: string;
	/** The workflow's time zone setting (what `this.getTimezone()` returns). */
	timezone?: string;
	/** Further workflow settings. */
	settings?: IWorkflowSettings;
	/** Extra credential types beyond ours and `oAuth2Api`. */
	credentialTypes?: ICredentialType[];
	/** Bring your own helper, e.g. to inspect `writes` or keep refreshed token data. */
	credentialsHelper?: HarnessCredentialsHelper;
	/** The saved credentials' id (default `<type>-id`): to n8n, two ids are two credentials. */
	credentialId?: string;
}

/** `{ [type]: { id, name } }` for each credential type, as a saved node carries them. */
export function nodeCredentialsFor(
	types: Iterable<string>,
	id?: string,
): NonNullable<INode['credentials']> {
	const credentials: NonNullable<INode['credentials']> = {};
	for (const type of types)
		credentials[type] = { id: id ?? `${type}-id`, name: `${type} (harness)` };
	return credentials;
}

/** The given helper (topped up with `credentials`) or a new one. */
export function credentialsHelperFor(options: HarnessBaseOptions): HarnessCredentialsHelper {
	if (options.credentialsHelper === undefined) {
		return new HarnessCredentialsHelper({
			credentials: options.credentials,
			credentialTypes: options.credentialTypes,
		});
	}
	for (const [type, data] of Object.entries(options.credentials ?? {})) {
		options.credentialsHelper.setCredentialData(type, data);
	}
	return options.credentialsHelper;
}

/** A plain copy of a workflow's static data, without the observable bookkeeping. */
export function plainStaticData(workflow: Workflow): IDataObject {
	const copy = deepCopy(workflow.staticData) as IDataObject;
	delete copy.__dataChanged;
	return copy;
}

export interface NodeUnderTest {
	nodeTypes: HarnessNodeTypes;
	/** The version-resolved node type (what n8n calls methods on). */
	nodeType: INodeType;
	node: INode;
}

/** Registers the node type and builds its `INode` as a saved workflow would hold it. */
export function nodeUnderTest(
	options: HarnessBaseOptions,
	defaults: { id: string; name?: string; webhookId?: string },
): NodeUnderTest {
	const instance = instantiateNodeType(options.nodeType);
	const nodeTypes = new HarnessNodeTypes();
	const type = nodeTypes.add(instance);
	const typeVersion = options.typeVersion ?? latestVersion(instance);
	const nodeType = NodeHelpers.getVersionedNodeType(instance, typeVersion);
	const node: INode = {
		id: defaults.id,
		name: options.nodeName ?? defaults.name ?? nodeType.description.defaults.name ?? 'Node',
		type,
		typeVersion,
		position: [0, 0],
		parameters: deepCopy(options.parameters ?? {}),
		credentials: nodeCredentialsFor(Object.keys(options.credentials ?? {}), options.credentialId),
		...(defaults.webhookId === undefined ? {} : { webhookId: defaults.webhookId }),
	};
	return { nodeTypes, nodeType, node };
}

export function workflowSettings(options: HarnessBaseOptions): IWorkflowSettings {
	const settings: IWorkflowSettings = { ...(options.settings ?? {}) };
	if (options.timezone !== undefined) settings.timezone = options.timezone;
	return settings;
}

export interface SingleNodeWorkflow extends NodeUnderTest {
	workflow: Workflow;
	credentialsHelper: HarnessCredentialsHelper;
	additionalData: IWorkflowExecuteAdditionalData;
}

/** A workflow holding only the node under test (n8n's "Temp-Node" pattern). */
export function singleNodeWorkflow(
	options: HarnessBaseOptions,
	extra: {
		id: string;
		/** The workflow's id; WORKFLOW_ID unless given. */
		workflowId?: string;
		name?: string;
		webhookId?: string;
		mode: WorkflowExecuteMode;
		staticData?: IDataObject;
		active?: boolean;
		/** Also hand the parameters (with defaults) to `additionalData.currentNodeParameters`. */
		asCurrentNodeParameters?: boolean;
		/** Use this helper as it is (no top-up from `options.credentials`). */
		credentialsHelper?: HarnessCredentialsHelper;
	},
): SingleNodeWorkflow {
	const base = nodeUnderTest(options, extra);
	const credentialsHelper = extra.credentialsHelper ?? credentialsHelperFor(options);
	const workflow = new Workflow({
		id: extra.workflowId ?? WORKFLOW_ID,
		name: 'Harness workflow',
		nodes: [base.node],
		connections: {},
		active: extra.active ?? false,
		nodeTypes: base.nodeTypes,
		settings: workflowSettings(options),
		staticData: deepCopy(extra.staticData ?? {}),
	});
	// The Workflow constructor filled in parameter defaults on this node object.
	const node = workflow.getNode(base.node.name) ?? base.node;
	const additionalData = createAdditionalData({
		credentialsHelper,
		instanceUrl: options.instanceUrl,
		mode: extra.mode,
		currentNodeParameters: extra.asCurrentNodeParameters ? deepCopy(node.parameters) : undefined,
	});
	return { ...base, node, workflow, credentialsHelper, additionalData };
}
