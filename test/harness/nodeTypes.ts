/**
 * The node-type registry the harness workflows use, and the two tiny built-ins that stand
 * in for n8n-nodes-base (not installed): a Manual Trigger and an "items" source.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	ITriggerFunctions,
	ITriggerResponse,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, UnexpectedError, deepCopy } from 'n8n-workflow';

/** The npm package our nodes are loaded from; n8n names their types `<package>.<name>`. */
export const PACKAGE_NAME = 'n8n-nodes-fillout-forms';

export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const ITEMS_SOURCE_TYPE = 'harness.items';

export type NodeTypeLike =
	| INodeType
	| IVersionedNodeType
	| (new () => INodeType | IVersionedNodeType);

export function instantiateNodeType(nodeType: NodeTypeLike): INodeType | IVersionedNodeType {
	return typeof nodeType === 'function' ? new nodeType() : nodeType;
}

/** The type name n8n gives a community node: `n8n-nodes-fillout-forms.<description.name>`. */
export function nodeTypeName(nodeType: INodeType | IVersionedNodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** The latest version a node type declares (`defaultVersion` for versioned nodes). */
export function latestVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) {
		return nodeType.description.defaultVersion ?? nodeType.currentVersion;
	}
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** Like n8n's Manual Trigger: emits one empty item when the workflow is run by hand. */
export class HarnessManualTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger',
		name: MANUAL_TRIGGER_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Runs the flow on clicking a button in n8n',
		defaults: { name: 'When clicking ‘Execute workflow’' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

/** Outputs fixed items (held in the instance, so no expression ever touches them). */
export class HarnessItemsSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items',
		name: ITEMS_SOURCE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Outputs the items a test gave it',
		defaults: { name: 'Items' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	execute: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

	constructor(items: IDataObject[] = []) {
		// n8n calls `execute` with its own context as `this`, so the items ride in a closure.
		this.execute = async function () {
			return [items.map((json, item) => ({ json: deepCopy(json), pairedItem: { item } }))];
		};
	}
}

/** A small `INodeTypes` over the given node types, keyed by their n8n type names. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly byName = new Map<string, INodeType | IVersionedNodeType>();

	constructor(nodeTypes: Array<INodeType | IVersionedNodeType> = []) {
		for (const nodeType of [new HarnessManualTrigger(), ...nodeTypes]) this.add(nodeType);
	}

	/** Registers a node type under `nodeTypeName(nodeType)` and returns that name. */
	add(nodeType: INodeType | IVersionedNodeType): string {
		const name = nodeTypeName(nodeType);
		this.byName.set(name, nodeType);
		return name;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const found = this.byName.get(nodeType);
		if (found === undefined) {
			throw new UnexpectedError(`Harness: unknown node type "${nodeType}"`, {
				extra: { known: [...this.byName.keys()] },
			});
		}
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries([...this.byName.keys()].map((name) => [name, {}]));
	}
}
