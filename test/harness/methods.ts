/**
 * Calls a node's `methods` the way the editor's dynamic-parameter requests do
 * (n8n: packages/cli/src/services/dynamic-node-parameters.service.ts): a one-node
 * workflow with the node named "Temp-Node", the editor's current parameters in
 * `additionalData.currentNodeParameters`, and n8n-core's real `LoadOptionsContext`.
 */
import { LoadOptionsContext } from 'n8n-core';
import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	ResourceMapperFields,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { type HarnessBaseOptions, singleNodeWorkflow } from './setup';

export interface MethodCallOptions extends Omit<HarnessBaseOptions, 'nodeType'> {
	/**
	 * The path of the parameter asking, e.g. `parameters.formId` (what
	 * `getCurrentNodeParameter('&sibling')` is relative to). Defaults to the top-level
	 * parameter that uses the method, else `parameters.<methodName>`.
	 */
	path?: string;
}

export interface ListSearchCallOptions extends MethodCallOptions {
	filter?: string;
	paginationToken?: string;
}

type MethodKind = 'listSearch' | 'loadOptions' | 'resourceMapping';

function usesMethod(property: INodeProperties, kind: MethodKind, methodName: string): boolean {
	const { typeOptions } = property;
	if (kind === 'loadOptions') return typeOptions?.loadOptionsMethod === methodName;
	if (kind === 'resourceMapping') {
		return typeOptions?.resourceMapper?.resourceMapperMethod === methodName;
	}
	return (property.modes ?? []).some((mode) => mode.typeOptions?.searchListMethod === methodName);
}

function defaultPath(nodeType: INodeType, kind: MethodKind, methodName: string): string {
	const property = nodeType.description.properties.find((p) => usesMethod(p, kind, methodName));
	return `parameters.${property?.name ?? methodName}`;
}

interface PreparedCall {
	context: ILoadOptionsFunctions;
	method: (...args: unknown[]) => Promise<unknown>;
}

function prepare(
	nodeType: HarnessBaseOptions['nodeType'],
	kind: MethodKind,
	methodName: string,
	options: MethodCallOptions,
): PreparedCall {
	const setup = singleNodeWorkflow(
		{ ...options, nodeType },
		{ id: 'uuid-1234', name: 'Temp-Node', mode: 'internal', asCurrentNodeParameters: true },
	);
	const methods = setup.nodeType.methods?.[kind] as
		| Record<string, (...args: unknown[]) => Promise<unknown>>
		| undefined;
	const method = methods?.[methodName];
	if (typeof method !== 'function') {
		throw new UnexpectedError('Node type does not have method defined', {
			tags: { nodeType: setup.nodeType.description.name },
			extra: { kind, methodName },
		});
	}
	const path = options.path ?? defaultPath(setup.nodeType, kind, methodName);
	const context = new LoadOptionsContext(setup.workflow, setup.node, setup.additionalData, path);
	return { context, method };
}

/** `methods.listSearch[methodName](filter, paginationToken)` (resource locator "From list"). */
export async function callListSearch(
	nodeType: HarnessBaseOptions['nodeType'],
	methodName: string,
	options: ListSearchCallOptions = {},
): Promise<INodeListSearchResult> {
	const { context, method } = prepare(nodeType, 'listSearch', methodName, options);
	return (await method.call(
		context,
		options.filter,
		options.paginationToken,
	)) as INodeListSearchResult;
}

/** `methods.loadOptions[methodName]()` (an options / multiOptions dropdown). */
export async function callLoadOptions(
	nodeType: HarnessBaseOptions['nodeType'],
	methodName: string,
	options: MethodCallOptions = {},
): Promise<INodePropertyOptions[]> {
	const { context, method } = prepare(nodeType, 'loadOptions', methodName, options);
	return (await method.call(context)) as INodePropertyOptions[];
}

/**
 * `methods.resourceMapping[methodName]()` (the resource mapper's columns), with duplicate
 * field ids removed as n8n does before answering the editor.
 */
export async function callResourceMapping(
	nodeType: HarnessBaseOptions['nodeType'],
	methodName: string,
	options: MethodCallOptions = {},
): Promise<ResourceMapperFields> {
	const { context, method } = prepare(nodeType, 'resourceMapping', methodName, options);
	const fields = (await method.call(context)) as ResourceMapperFields;
	const seen = new Set<string>();
	return {
		...fields,
		fields: fields.fields?.filter((field) => {
			if (seen.has(field.id)) return false;
			seen.add(field.id);
			return true;
		}),
	};
}
