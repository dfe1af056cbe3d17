import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The node's resources and the operations of each. The router's table and every
 * resource's Operation options are typed by it, so that an operation missing from the
 * table or misspelt in either place fails to compile.
 */
export interface FilloutOperations {
	form: 'get' | 'getMany';
	submission: 'count' | 'create' | 'delete' | 'get' | 'getMany';
	webhook: 'create' | 'delete';
}

export type FilloutResource = keyof FilloutOperations;

/** One entry of a resource's Operation dropdown. */
export type OperationOption<R extends FilloutResource> = INodePropertyOptions & {
	value: FilloutOperations[R];
	action: string;
};
