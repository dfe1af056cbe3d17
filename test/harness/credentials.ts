/**
 * An in-memory stand-in for n8n's `CredentialsHelper` (packages/cli/src/credentials-helper.ts,
 * checked against the n8n 2.41.1 build),
 * with the same behaviour where it matters to a node: credential property defaults,
 * `={{ }}` expressions in credential data (with `$self`), `extends` (OAuth2), generic
 * `authenticate` blocks and `preAuthentication`. Stored data is kept per credential TYPE
 * (one credential of each type per test), and writes are recorded instead of saved.
 */
import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	deepCopy,
	isExpression,
} from 'n8n-workflow';

import { FilloutFormsApi } from '../../credentials/FilloutFormsApi.credentials';
import { FilloutFormsOAuth2Api } from '../../credentials/FilloutFormsOAuth2Api.credentials';

/**
 * n8n's generic `oAuth2Api` credential, which OAuth2 credentials `extends`. The real one
 * lives in n8n-nodes-base (not installed); this keeps the fields n8n-core's OAuth2 request
 * path reads and our credential overrides.
 */
export class OAuth2ApiBase implements ICredentialType {
	name = 'oAuth2Api';

	displayName = 'OAuth2 API';

	documentationUrl = 'https://docs.n8n.io/integrations/builtin/credentials/httprequest/';

	genericAuth = true;

	properties: INodeProperties[] = [
		{
			displayName: 'Use Dynamic Client Registration',
			name: 'useDynamicClientRegistration',
			type: 'hidden',
			default: false,
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'options',
			options: [
				{ name: 'Authorization Code', value: 'authorizationCode' },
				{ name: 'Client Credentials', value: 'clientCredentials' },
				{ name: 'PKCE', value: 'pkce' },
			],
			default: 'authorizationCode',
		},
		{
			displayName: 'Authorization URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'string',
			default: '',
			required: true,
		},
		{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '', required: true },
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{ displayName: 'Scope', name: 'scope', type: 'string', default: '' },
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'string',
			default: '',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'options',
			options: [
				{ name: 'Body', value: 'body' },
				{ name: 'Header', value: 'header' },
			],
			default: 'header',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			doNotInherit: true,
		},
	];
}

/** The credential types every harness knows: ours plus n8n's `oAuth2Api` base. */
export function defaultCredentialTypes(): ICredentialType[] {
	return [new FilloutFormsApi(), new FilloutFormsOAuth2Api(), new OAuth2ApiBase()];
}

/**
 * Hidden OAuth endpoint/flow fields the credential TYPE owns: n8n drops stored values for
 * them so the type's default (or an admin overwrite) wins (n8n 2.41.1,
 * packages/cli/src/oauth/dcr-managed-fields.ts `OAUTH_PINNED_FIELDS`).
 */
const OAUTH_PINNED_FIELDS = [
	'useDynamicClientRegistration',
	'authUrl',
	'accessTokenUrl',
	'grantType',
	'authentication',
	'usePkce',
	'requestTokenUrl',
	'signatureMethod',
];

/** n8n resolves credential expressions against a one-node throwaway workflow. */
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
};

export interface RecordedCredentialWrite {
	kind: 'updateCredentials' | 'updateCredentialsOauthTokenData';
	type: string;
	nodeCredentials: INodeCredentialsDetails;
	data: ICredentialDataDecryptedObject;
	/** The execution that wrote (token refreshes only). */
	executionId?: string;
}

export interface HarnessCredentialsHelperOptions {
	/** Stored (decrypted) data per credential type name. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Extra credential types (e.g. a test-only one); ours and `oAuth2Api` are always known. */
	credentialTypes?: ICredentialType[];
}

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();

	private readonly stored = new Map<string, ICredentialDataDecryptedObject>();

	/** Every `updateCredentials` / `updateCredentialsOauthTokenData` call, in order. */
	readonly writes: RecordedCredentialWrite[] = [];

	constructor(options: HarnessCredentialsHelperOptions = {}) {
		super();
		for (const type of [...defaultCredentialTypes(), ...(options.credentialTypes ?? [])]) {
			this.types.set(type.name, type);
		}
		for (const [type, data] of Object.entries(options.credentials ?? {})) {
			this.setCredentialData(type, data);
		}
	}

	/** Replace the stored data for a credential type (what the user saved). */
	setCredentialData(type: string, data: ICredentialDataDecryptedObject): void {
		this.getCredentialType(type);
		this.stored.set(type, deepCopy(data));
	}

	/** The stored (raw, unresolved) data for a type, e.g. after a token refresh wrote to it. */
	getStoredData(type: string): ICredentialDataDecryptedObject | undefined {
		const data = this.stored.get(type);
		return data === undefined ? undefined : deepCopy(data);
	}

	getCredentialType(type: string): ICredentialType {
		const credentialType = this.types.get(type);
		if (credentialType === undefined) {
			throw new UnexpectedError(`Harness: unknown credential type "${type}"`, {
				extra: { known: [...this.types.keys()] },
			});
		}
		return credentialType;
	}

	getParentTypes(typeName: string): string[] {
		const parents = this.types.get(typeName)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.types.get(credentialType);
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some(
			(name) => name === nodeType || nodeType.endsWith(`.${name}`),
		);
	}

	/** As n8n: a function `authenticate` is called; a generic one is resolved field by field. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.getCredentialType(typeName);
		if (authenticate === undefined) return requestOptions;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (!workflow || !node) {
			throw new UnexpectedError(
				'Workflow and node are required for declarative credential authentication',
			);
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const keyResolved = this.resolveValue(key, { $credentials: credentials }, workflow, node);
					const valueResolved = this.resolveValue(
						value,
						{ $credentials: credentials },
						workflow,
						node,
					);
					target[outerKey] ??= {};
					target[outerKey][keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	/** As n8n: only runs for types with an expirable hidden property; persists the result. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.getCredentialType(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined) return undefined;
		if (typeof credentialType.preAuthentication !== 'function') return undefined;

		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTestingCredentials) {
			return undefined;
		}
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		if (node.credentials) {
			const nodeCredentials = node.credentials[credentialType.name];
			const storedData = this.stored.get(credentialType.name) ?? {};
			const dataToPersist: ICredentialDataDecryptedObject = { ...storedData };
			for (const [key, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
				if (key === expirable.name || !isExpression(storedData[key])) dataToPersist[key] = value;
			}
			await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
			return Object.assign(credentials, output as ICredentialDataDecryptedObject);
		}
		return undefined;
	}

	/** As n8n: the OAuth2 path runs `preAuthentication` in memory on every request. */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.getCredentialType(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const credentials = new Credentials(nodeCredentials, type);
		await credentials.setData(this.requireStored(nodeCredentials, type));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = deepCopy(this.requireStored(nodeCredentials, type));
		if (raw === true) return data;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/**
	 * Property defaults, then expressions (`$self` = the credential's own data), as n8n's
	 * `applyDefaultsAndOverwrites` does (there are no admin overwrites here).
	 */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const credentialsProperties = this.getCredentialsProperties(type);
		const storedData = { ...decryptedDataOriginal };
		for (const field of OAUTH_PINNED_FIELDS) {
			if (credentialsProperties.some((p) => p.name === field && p.type === 'hidden')) {
				delete storedData[field];
			}
		}
		let decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			storedData as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			// n8n appends ' [Error resolving credentials]' to the original error and rethrows it.
			let failure: Error | undefined;
			try {
				decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
					decryptedData as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decryptedData,
				) as ICredentialDataDecryptedObject;
			} catch (e) {
				failure = e as Error;
			}
			if (failure) {
				failure.message += ' [Error resolving credentials]';
				throw failure;
			}
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decryptedData = workflow.expression.getComplexParameterValue(
				mockNode,
				decryptedData as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		}
		return decryptedData;
	}

	/** As n8n: parent (`extends`) properties first, the type's own take precedence. */
	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.getCredentialType(type);
		if (credentialType.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialType.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialType.properties;
		}
		const combined: INodeProperties[] = [];
		for (const parent of credentialType.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	/** Records the write and stores it, as saving to the database would. */
	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.writes.push({ kind: 'updateCredentials', type, nodeCredentials, data: deepCopy(data) });
		this.stored.set(type, deepCopy(data));
	}

	/** Records the write and stores only `oauthTokenData`, as n8n does. */
	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
		additionalData?: IWorkflowExecuteAdditionalData,
	): Promise<void> {
		this.writes.push({
			kind: 'updateCredentialsOauthTokenData',
			type,
			nodeCredentials,
			data: deepCopy(data),
			executionId: additionalData?.executionId,
		});
		const stored = this.stored.get(type) ?? {};
		this.stored.set(type, { ...stored, oauthTokenData: deepCopy(data.oauthTokenData) });
	}

	private requireStored(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): ICredentialDataDecryptedObject {
		const data = this.stored.get(type);
		if (data === undefined) {
			throw new UnexpectedError(
				`Harness: no data for credential type "${type}" (pass it in \`credentials\`)`,
				{ extra: { nodeCredentials } },
			);
		}
		return data;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}
}
