import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ignoredFieldsHint } from './createPayload';
import { formLocator } from '../../../shared/descriptions';
import { sendBatches } from './createBatches';
import { prepareItems } from './createItems';

const LOAD_FROM_FORM = {
	loadOptionsDependsOn: ['form.value'],
};

/** A dropdown of one kind of the form's fields (URL parameters, scheduling, payments). */
function formFieldPicker(displayName: string, loadOptionsMethod: string): INodeProperties {
	return {
		displayName,
		name: 'id',
		type: 'options',
		typeOptions: { ...LOAD_FROM_FORM, loadOptionsMethod },
		default: '',
		description:
			'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	};
}

const properties: INodeProperties[] = [
	{
		displayName:
			'Fillout sends no notifications and fires no webhooks or integrations for imported submissions',
		name: 'importNotice',
		type: 'notice',
		default: '',
	},
	formLocator,
	{
		displayName:
			'The form is an expression: the node reads each item’s form when it runs (once per form). Answers defined below must be question IDs of that form; Map Automatically also matches question names.',
		name: 'formExpressionNotice',
		type: 'notice',
		default: '',
		// Hidden unless the form's value starts with "=" (an expression). A `show` rule on
		// the form would not do: n8n shows a parameter as soon as a value its `show` rule
		// reads is an expression, whatever the operation.
		displayOptions: { hide: { form: [{ _cnd: { regex: '^([^=]|$)' } }] } },
	},
	{
		displayName: 'Answers',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			...LOAD_FROM_FORM,
			resourceMapper: {
				resourceMapperMethod: 'getQuestionColumns',
				mode: 'add',
				fieldWords: { singular: 'question', plural: 'questions' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
				// The node maps answers with the saved columns: when the form's questions
				// changed, opening the node takes the new ones at once (not only a warning).
				refreshStaleSchemaOnOpen: true,
			},
		},
		description:
			'The answer to each question. "Map Automatically" matches input fields to questions by ID or by name.',
		hint: 'Map Automatically matches input fields to questions by name or ID (a simplified submission as it is) and ignores the others: the run names them. The columns are the form’s questions: opening the node reloads them after the form changes.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Last Updated At',
				name: 'lastUpdatedAt',
				type: 'dateTime',
				default: '',
				description: 'When the submission was last updated (read in the workflow’s time zone)',
			},
			{
				displayName: 'Payments',
				name: 'payments',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Payment',
				options: [
					{
						displayName: 'Payment',
						name: 'payment',
						values: [
							formFieldPicker('Payment Field Name or ID', 'getPaymentFields'),
							{
								displayName: 'Value (JSON)',
								name: 'value',
								type: 'json',
								default: '{\n  "paymentId": "",\n  "totalAmount": 0,\n  "currency": "usd"\n}',
								description:
									'The payment: paymentId, and optionally totalAmount (cents), currency, email, status',
							},
						],
					},
				],
			},
			{
				displayName: 'Scheduling',
				name: 'scheduling',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Booking',
				options: [
					{
						displayName: 'Booking',
						name: 'booking',
						values: [
							formFieldPicker('Scheduling Field Name or ID', 'getSchedulingFields'),
							{
								displayName: 'Value (JSON)',
								name: 'value',
								type: 'json',
								default:
									'{\n  "fullName": "",\n  "email": "",\n  "timezone": "Europe/Berlin",\n  "eventStartTime": "",\n  "eventEndTime": ""\n}',
								description:
									'The booking: fullName, email, timezone, eventStartTime, eventEndTime, and optional details',
							},
						],
					},
				],
			},
			{
				displayName: 'Submission Time',
				name: 'submissionTime',
				type: 'dateTime',
				default: '',
				description:
					'When the submission was made (read in the workflow’s time zone); now when empty',
			},
			{
				displayName: 'URL Parameters',
				name: 'urlParameters',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add URL Parameter',
				options: [
					{
						displayName: 'Parameter',
						name: 'parameter',
						values: [
							formFieldPicker('Parameter Name or ID', 'getUrlParameters'),
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
							},
						],
					},
				],
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['create'] } },
	properties,
);

/**
 * Creates one submission per input item, sending up to 10 per request. Every item is
 * checked before anything is sent; each output item is the submission Fillout created
 * for its input item.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const output: Array<INodeExecutionData | undefined> = new Array(items.length);
	const { prepared, ignoredFields } = await prepareItems(this, items, output);
	if (ignoredFields.length) this.addExecutionHints(ignoredFieldsHint(ignoredFields));
	await sendBatches(this, prepared, output);
	return output.filter((entry): entry is INodeExecutionData => entry !== undefined);
}
