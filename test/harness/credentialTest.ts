/**
 * The editor's "Test credential" button, in-process. A faithful copy of the decision logic
 * of n8n's `CredentialsTester.testCredentials` / `runRequestTest`
 * (n8n: packages/cli/src/services/credentials-tester.service.ts, checked against the
 * n8n 2.41.1 build): the credential's `test` request runs through n8n-core's real
 * `RoutingNode` on a throw-away "n8n-nodes-base.noOp" node, and its outcome is mapped to
 * `{ status, message }` the same way: a `responseCode` rule matching the status gives its
 * message, another non-2xx gives the HTTP status text, a network failure gives its error
 * code (e.g. 'ECONNREFUSED'), a `responseSuccessBody` rule can fail a 2xx.
 * Not covered: `testedBy` functions on node types (ours use the credential's `test`).
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	ICredentialsDecrypted,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRunExecutionData,
	ITaskDataConnections,
} from 'n8n-workflow';
import {
	NodeConnectionTypes,
	NodeHelpers,
	Workflow,
	createEmptyRunExecutionData,
} from 'n8n-workflow';

import { createAdditionalData } from './additionalData';
import { HarnessCredentialsHelper } from './credentials';

/** n8n's messages for OAuth2 credentials, which are "tested" by having a token. */
export const OAUTH2_CREDENTIAL_TEST_SUCCEEDED = 'Connection Successful!';
export const OAUTH2_CREDENTIAL_TEST_FAILED =
	'This OAuth2 credential was not connected to an account.';

export interface CredentialTestOptions {
	/** Extra credential types beyond ours and `oAuth2Api`. */
	credentialTypes?: ICredentialType[];
	credentialsHelper?: HarnessCredentialsHelper;
}

/** The stand-in for n8n-nodes-base's NoOp node, which n8n builds credential tests on. */
const noOpDescription: INodeType['description'] = {
	displayName: 'No Operation, do nothing',
	name: 'n8n-nodes-base.noOp',
	group: ['organization'],
	version: 1,
	description: 'No Operation',
	defaults: { name: 'No Operation, do nothing' },
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	properties: [],
};

function hasAccessToken(data: ICredentialDataDecryptedObject | undefined): boolean {
	const tokenData = data?.oauthTokenData;
	return typeof tokenData === 'object' && tokenData !== null && 'access_token' in tokenData;
}

/** lodash `get` for the `a.b[0].c` paths credential test rules use. */
function getPath(value: unknown, path: string): unknown {
	return path
		.replace(/\[(\w+)\]/g, '.$1')
		.split('.')
		.filter((key) => key !== '')
		.reduce<unknown>(
			(current, key) =>
				typeof current === 'object' && current !== null
					? (current as Record<string, unknown>)[key]
					: undefined,
			value,
		);
}

interface ErrorWithCause {
	message: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
}

/**
 * Tests credential `data` of type `type` the way n8n's "Test" button does.
 * Types without a `test` that extend `oAuth2Api` are OK when `oauthTokenData.access_token`
 * exists (n8n does this for OAuth2 credentials a node lists).
 */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
	options: CredentialTestOptions = {},
): Promise<INodeCredentialTestResult> {
	const credentialsHelper =
		options.credentialsHelper ??
		new HarnessCredentialsHelper({ credentialTypes: options.credentialTypes });
	const credentialType = credentialsHelper.getCredentialType(type);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: `${type}-id`,
		name: `${type} (harness)`,
		type,
		data,
	};

	if (credentialType.test === undefined) {
		if (credentialsHelper.getParentTypes(type).includes('oAuth2Api') || type === 'oAuth2Api') {
			return hasAccessToken(data)
				? { status: 'OK', message: OAUTH2_CREDENTIAL_TEST_SUCCEEDED }
				: { status: 'Error', message: OAUTH2_CREDENTIAL_TEST_FAILED };
		}
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}
	const testRequest: ICredentialTestRequest = credentialType.test;

	const additionalData = createAdditionalData({ credentialsHelper, mode: 'internal' });
	try {
		credentialsDecrypted.data = await credentialsHelper.applyDefaultsAndOverwrites(
			additionalData,
			data,
			type,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: (error as Error).message.toString() };
	}

	const nodeTypeCopy: INodeType = {
		description: {
			...noOpDescription,
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getKnownTypes: () => ({}),
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: (_name, version) =>
			NodeHelpers.getVersionedNodeType(nodeTypeCopy, version),
	};
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: noOpDescription.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [type]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const runExecutionData: IRunExecutionData = createEmptyRunExecutionData();
	// As n8n: the node's parameters are the current ones, and the request resolves the
	// already-prepared data instead of decrypting the stored credential again.
	additionalData.currentNodeParameters = node.parameters;
	const prepared = credentialsDecrypted.data ?? {};
	additionalData.credentialsHelper = new Proxy(credentialsHelper, {
		get(target, prop) {
			if (prop === 'getDecrypted') {
				return async (...args: Parameters<HarnessCredentialsHelper['getDecrypted']>) =>
					args[5] === true ? await target.getDecrypted(...args) : prepared;
			}
			const value: unknown = Reflect.get(target, prop);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as ErrorWithCause;
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message.toString() };
	}

	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response?.[0]?.[0]?.json ?? {};
			if (getPath(responseData, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
