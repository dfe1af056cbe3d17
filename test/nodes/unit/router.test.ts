import type { INodePropertyOptions } from 'n8n-workflow';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import * as form from '../../../nodes/Fillout/actions/form';
import type { OperationTable } from '../../../nodes/Fillout/actions/router';
import { operationTable } from '../../../nodes/Fillout/actions/router';

describe('router', () => {
	it('routes exactly the operations the editor offers, resource by resource', () => {
		const offered = new Fillout().description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as INodePropertyOptions[]).map(
					(option) => `${String(property.displayOptions?.show?.resource)}:${String(option.value)}`,
				),
			);
		const routed = Object.entries(operationTable).flatMap(([resource, operations]) =>
			Object.keys(operations).map((operation) => `${resource}:${operation}`),
		);
		expect(routed.sort()).toEqual(offered.sort());
	});

	it('has a type that refuses a misspelt or missing operation (checked by npm run typecheck)', () => {
		const misspelt: OperationTable = {
			...operationTable,
			// @ts-expect-error "getmany" is not an operation of Form
			form: { get: form.get, getmany: form.getMany },
		};
		// @ts-expect-error Form's "getMany" is missing
		const missing: OperationTable = { ...operationTable, form: { get: form.get } };
		expect([misspelt, missing]).toHaveLength(2);
	});
});
