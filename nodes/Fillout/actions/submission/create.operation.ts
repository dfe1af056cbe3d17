import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BuiltAnswers } from '../../helpers/answers';
import { buildAnswers, questionsFromColumns } from '../../helpers/answers';
import { chunk, groupBy } from '../../helpers/chunk';
import { isEmptyDate } from '../../helpers/dates';
import { paymentValue, requestDate, schedulingValue } from '../../helpers/extraFields';
import type { FormMetadata, FormQuestion, NamedField } from '../../helpers/interfaces';
import type { FilloutOutcome } from '../../transport';
import { sendFilloutRequest } from '../../transport';
import { formLocator } from '../../shared/descriptions';
import { errorItem, failedItem } from '../../shared/itemLoop';
import { filloutError, itemProblem } from '../../shared/nodeErrors';
import { fixedFormIdOf, formIdOf } from '../../shared/parameters';
import type { PreparedItem } from './createBatches';
import { sendBatch, stoppedImportError, SUBMISSIONS_PER_REQUEST } from './createBatches';

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
	formLocator,
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

type MetadataOutcome = FilloutOutcome<FormMetadata>;

function fieldNames(
	questions: FormQuestion[],
	metadata: FormMetadata | undefined,
): Map<string, string> {
	const groups: Array<NamedField[] | undefined> = [
		questions,
		metadata?.urlParameters,
		metadata?.scheduling,
		metadata?.payments,
	];
	return new Map(
		groups.flatMap((fields) =>
			(fields ?? []).map((field): [string, string] => [field.id, field.name]),
		),
	);
}

/** Entries of a fixedCollection with several values, e.g. additionalFields.urlParameters.parameter. */
function entries(collection: unknown, name: string): IDataObject[] {
	const list = (collection as IDataObject | undefined)?.[name];
	return Array.isArray(list) ? (list as IDataObject[]) : [];
}

/** An id chosen for a URL parameter, scheduling or payment field must be one of the form's. */
function fieldOf(
	ctx: IExecuteFunctions,
	fields: NamedField[] | undefined,
	id: unknown,
	what: string,
	itemIndex: number,
): NamedField {
	const field = (fields ?? []).find((candidate) => candidate.id === id);
	if (!field) {
		const known = (fields ?? [])
			.map((candidate) => `${candidate.name} (${candidate.id})`)
			.join(', ');
		throw itemProblem(
			ctx,
			`"${String(id)}" is not a ${what} of this form`,
			itemIndex,
			known ? `The form has: ${known}.` : `The form has no ${what}s.`,
		);
	}
	return field;
}

/** Whether the item sets URL parameters, scheduling or payments: those need the form's metadata. */
function usesOtherFormFields(additional: IDataObject): boolean {
	return (
		entries(additional.urlParameters, 'parameter').length > 0 ||
		entries(additional.scheduling, 'booking').length > 0 ||
		entries(additional.payments, 'payment').length > 0
	);
}

/** The request entry for one item, every value checked and converted; throws the first problem. */
function preparePayload(
	ctx: IExecuteFunctions,
	answers: BuiltAnswers,
	additional: IDataObject,
	metadata: FormMetadata | undefined,
	itemIndex: number,
	timeZone: string,
): PreparedItem['payload'] {
	if (answers.problems.length) {
		const [first, ...others] = answers.problems;
		throw itemProblem(
			ctx,
			`Question "${first.questionName}" ${first.message}`,
			itemIndex,
			others.length
				? `Also: ${others.map((p) => `"${p.questionName}" ${p.message}`).join('; ')}`
				: undefined,
		);
	}
	const payload: PreparedItem['payload'] = { questions: answers.questions };

	for (const [name, label] of [
		['submissionTime', 'Submission Time'],
		['lastUpdatedAt', 'Last Updated At'],
	] as const) {
		if (isEmptyDate(additional[name])) continue;
		const date = requestDate(additional[name], timeZone);
		if (!date.ok)
			throw itemProblem(
				ctx,
				`"${label}" ${date.message}: ${JSON.stringify(String(additional[name]))}`,
				itemIndex,
			);
		payload[name] = date.value;
	}

	const urlParameters = entries(additional.urlParameters, 'parameter').map((entry) => {
		const field = fieldOf(ctx, metadata?.urlParameters, entry.id, 'URL parameter', itemIndex);
		return { id: field.id, name: field.name, value: String(entry.value ?? '') };
	});
	if (urlParameters.length) payload.urlParameters = urlParameters;

	const checkedEntries = (
		collection: unknown,
		name: string,
		fields: NamedField[] | undefined,
		what: 'scheduling field' | 'payment field',
		check: typeof schedulingValue,
	) =>
		entries(collection, name).map((entry) => {
			const field = fieldOf(ctx, fields, entry.id, what, itemIndex);
			const value = check(entry.value, timeZone);
			if (!value.ok) {
				const label = what === 'scheduling field' ? 'Scheduling field' : 'Payment field';
				throw itemProblem(ctx, `${label} "${field.name}": ${value.message}`, itemIndex);
			}
			return { id: field.id, value: value.value };
		});
	const scheduling = checkedEntries(
		additional.scheduling,
		'booking',
		metadata?.scheduling,
		'scheduling field',
		schedulingValue,
	);
	if (scheduling.length) payload.scheduling = scheduling;
	const payments = checkedEntries(
		additional.payments,
		'payment',
		metadata?.payments,
		'payment field',
		paymentValue,
	);
	if (payments.length) payload.payments = payments;

	return payload;
}

/**
 * Creates one submission per input item, sending up to 10 per request. Every item is
 * checked before anything is sent; each output item is the submission Fillout created
 * for its input item.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const timeZone = this.getTimezone();
	const output: Array<INodeExecutionData | undefined> = new Array(items.length);

	// The questions the editor saved with the node when the form was chosen: with them,
	// an import makes only its create requests. They belong to a fixed form only.
	const savedFormId = fixedFormIdOf(this);
	const savedQuestions =
		savedFormId === undefined
			? undefined
			: questionsFromColumns(
					(this.getNode().parameters.columns as IDataObject | undefined)?.schema,
				);

	// At most one metadata request per form and execution, made only when needed.
	const metadataByForm = new Map<string, MetadataOutcome>();
	const readForm = async (formId: string, itemIndex: number): Promise<FormMetadata> => {
		let outcome = metadataByForm.get(formId);
		if (!outcome) {
			outcome = await sendFilloutRequest<FormMetadata>(this, {
				method: 'GET',
				path: `/forms/${encodeURIComponent(formId)}`,
			});
			metadataByForm.set(formId, outcome);
		}
		if (!outcome.ok) throw filloutError(this, outcome, { formId }, itemIndex);
		return outcome.body;
	};

	const prepared: PreparedItem[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const formId = formIdOf(this, itemIndex);
			const automatic =
				this.getNodeParameter('columns.mappingMode', itemIndex, 'defineBelow') ===
				'autoMapInputData';
			const input = automatic
				? items[itemIndex].json
				: ((this.getNodeParameter('columns.value', itemIndex, {}, { skipValidation: true }) ??
						{}) as IDataObject);
			const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
			const mapAnswers = (questions: FormQuestion[]) =>
				buildAnswers({ questions }, input, automatic ? 'byIdOrName' : 'byId', timeZone);

			const readAlready = metadataByForm.get(formId);
			const saved = formId === savedFormId ? savedQuestions : undefined;
			let metadata =
				readAlready?.ok === true
					? readAlready.body
					: saved === undefined || usesOtherFormFields(additional)
						? await readForm(formId, itemIndex)
						: undefined;
			let questions = metadata?.questions ?? (saved as FormQuestion[]);
			let answers = mapAnswers(questions);
			if (
				metadata === undefined &&
				(answers.unmatched.length > 0 || answers.unlistedChoices.length > 0)
			) {
				// The form may have changed since its columns were saved (n8n flags changed
				// questions, not changed choices): ask it before a field is ignored or refused
				// or a choice is sent as typed.
				metadata = await readForm(formId, itemIndex);
				questions = metadata.questions;
				answers = mapAnswers(questions);
			}
			if (!automatic && answers.unmatched.length) {
				const [key] = answers.unmatched;
				const savedName = savedQuestions?.find((question) => question.id === key)?.name;
				throw itemProblem(
					this,
					`The Answers column ${savedName === undefined ? `"${key}"` : `"${savedName}" (${key})`} is not a question of this form`,
					itemIndex,
					'The question may have been removed from the form. Open the node: it loads the form’s current questions.',
				);
			}
			const payload = preparePayload(this, answers, additional, metadata, itemIndex, timeZone);
			prepared.push({
				itemIndex,
				formId,
				fieldNames: fieldNames(questions, metadata),
				fromSavedColumns: metadata === undefined,
				payload,
			});
		} catch (error) {
			output[itemIndex] = failedItem(this, error, itemIndex);
		}
	}

	const batches = [...groupBy(prepared, (item) => item.formId)].flatMap(([formId, group]) =>
		chunk(group, SUBMISSIONS_PER_REQUEST).map((batch) => ({ formId, batch })),
	);
	// One request at a time: when one fails, every earlier one has been answered and
	// no later one sent, so the error can say exactly what was created.
	for (const [position, { formId, batch }] of batches.entries()) {
		const failures = await sendBatch(this, formId, batch, output, this.continueOnFail());
		if (failures.length === 0) continue;
		if (!this.continueOnFail()) {
			const notSent = batches.slice(position + 1).flatMap((later) => later.batch);
			throw stoppedImportError(
				this,
				failures,
				output,
				notSent.map((item) => item.itemIndex),
			);
		}
		for (const failure of failures)
			output[failure.itemIndex] = errorItem(failure.error, failure.itemIndex);
	}

	return output.filter((entry): entry is INodeExecutionData => entry !== undefined);
}
