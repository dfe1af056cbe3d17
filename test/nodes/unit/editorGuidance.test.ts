import type { INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { FilloutPollingTrigger } from '../../../nodes/Fillout/FilloutPollingTrigger.node';
import { FilloutTrigger } from '../../../nodes/Fillout/FilloutTrigger.node';
import { formIdFromUrl } from '../../../nodes/Fillout/shared/formUrl';

const { description } = new Fillout();

/** What the editor shows for these parameters (n8n-workflow's own rule, as the editor runs it). */
function shown(parameters: INodeParameters): string[] {
	const node = { typeVersion: 1 };
	return description.properties
		.filter((property) => NodeHelpers.displayParameter(parameters, property, node, description))
		.map((property) => property.name);
}

const create = (form: INodeParameters): INodeParameters => ({
	authentication: 'apiKey',
	resource: 'submission',
	operation: 'create',
	form,
});
const fixedForm = { __rl: true, mode: 'id', value: 'foAdHjd1Duus' };
const expressionForm = { __rl: true, mode: 'id', value: '={{ $json.formId }}' };

function property(name: string): INodeProperties {
	const found = description.properties.find((candidate) => candidate.name === name);
	if (!found) throw new Error(`No property ${name}`);
	return found;
}

describe('guidance in the editor', () => {
	it('Create says that imported submissions send no notifications and fire no webhooks', () => {
		const notice = property('importNotice');
		expect(notice.type).toBe('notice');
		expect(notice.displayName).toMatch(/no notifications.*no webhooks/i);
		expect(shown(create(fixedForm))).toContain('importNotice');
		expect(shown({ resource: 'submission', operation: 'getMany', form: fixedForm })).not.toContain(
			'importNotice',
		);
	});

	it('Answers has a hint on what Map Automatically matches and how the columns refresh', () => {
		const answers = description.properties.find(
			(candidate) =>
				candidate.name === 'columns' &&
				candidate.displayOptions?.show?.operation?.includes('create'),
		);
		expect(answers?.hint).toMatch(/Map Automatically.*name or ID/);
		expect(answers?.hint).toMatch(/open(ing)? the node/i);
	});

	it('an expression as the form shows a notice that the form is read at run time, only then', () => {
		expect(shown(create(expressionForm))).toContain('formExpressionNotice');
		expect(shown(create(fixedForm))).not.toContain('formExpressionNotice');
		expect(shown(create({ __rl: true, mode: 'list', value: '' }))).not.toContain(
			'formExpressionNotice',
		);
		for (const operation of ['get', 'getMany', 'delete']) {
			expect(shown({ resource: 'submission', operation, form: expressionForm })).not.toContain(
				'formExpressionNotice',
			);
		}
		expect(property('formExpressionNotice').displayName).toMatch(
			/reads each item’s form when it runs/,
		);
	});

	it('the form given by ID links to it in Fillout’s editor, in every node', () => {
		for (const node of [new Fillout(), new FilloutTrigger(), new FilloutPollingTrigger()]) {
			const form = node.description.properties.find((candidate) => candidate.name === 'form');
			const byId = form?.modes?.find((mode) => mode.name === 'id');
			expect(byId?.url).toBe('=https://build.fillout.com/editor/{{$value}}');
			// The address is one the node itself reads back as the form.
			const address = String(byId?.url).slice(1).replace('{{$value}}', 'foAdHjd1Duus');
			expect(formIdFromUrl(address)).toBe('foAdHjd1Duus');
		}
	});
});
