import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { BuiltAnswers } from '../../helpers/answers';
import { buildAnswers, questionsFromColumns } from '../../helpers/answers';
import { chunk, groupBy } from '../../helpers/chunk';
import { attributeIssues, describeItemIndexes } from '../../helpers/createIssues';
import type { FailureContext } from '../../helpers/errors';
import { describeFailure, parseValidationIssues, serviceMessage } from '../../helpers/errors';
import { isEmptyDate } from '../../helpers/dates';
import { paymentValue, requestDate, schedulingValue } from '../../helpers/extraFields';
import type { FormMetadata, FormQuestion, NamedField, Submission } from '../../helpers/interfaces';
import { neverReachedService } from '../../helpers/retry';
import type { FilloutOutcome } from '../../transport';
import { filloutError, sendFilloutRequest } from '../../transport';
import { formLocator } from '../common.descriptions';
import { errorItem, itemError } from '../itemErrors';
import { fixedFormIdOf, formIdOf } from '../parameters';

/** Fillout accepts at most 10 submissions per create request. */
export const SUBMISSIONS_PER_REQUEST = 10;

const SAVED_COLUMNS_HINT =
	'The answers were mapped with the questions saved in the node when the form was chosen. If the form’s questions have changed since, open the node: it loads the current ones.';

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

interface PreparedItem {
	itemIndex: number;
	formId: string;
	/** Names of the form's questions and other fields, to explain a rejection. */
	fieldNames: ReadonlyMap<string, string>;
	/** Answers were mapped with the questions saved in the node, without reading the form. */
	fromSavedColumns: boolean;
	payload: IDataObject & { questions: Array<{ id: string; value: unknown }> };
}

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

function problem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `Item ${itemIndex}: ${message}`, {
		itemIndex,
		description,
	});
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
		throw problem(
			ctx,
			itemIndex,
			`"${String(id)}" is not a ${what} of this form`,
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
		throw problem(
			ctx,
			itemIndex,
			`question "${first.questionName}" ${first.message}`,
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
			throw problem(
				ctx,
				itemIndex,
				`"${label}" ${date.message}: ${JSON.stringify(String(additional[name]))}`,
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
		what: string,
		check: typeof schedulingValue,
	) =>
		entries(collection, name).map((entry) => {
			const field = fieldOf(ctx, fields, entry.id, what, itemIndex);
			const value = check(entry.value, timeZone);
			if (!value.ok) throw problem(ctx, itemIndex, `${what} "${field.name}": ${value.message}`);
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
	const fail = (error: unknown, itemIndex: number) => {
		const failure = itemError(this, error, itemIndex);
		if (!this.continueOnFail()) throw failure;
		output[itemIndex] = errorItem(failure, itemIndex);
	};

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
				throw problem(
					this,
					itemIndex,
					`the Answers column ${savedName === undefined ? `"${key}"` : `"${savedName}" (${key})`} is not a question of this form`,
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
			fail(error, itemIndex);
		}
	}

	for (const [formId, group] of groupBy(prepared, (item) => item.formId)) {
		for (const batch of chunk(group, SUBMISSIONS_PER_REQUEST)) {
			await sendBatch(this, formId, batch, output, fail, true);
		}
	}

	return output.filter((entry): entry is INodeExecutionData => entry !== undefined);
}

async function sendBatch(
	ctx: IExecuteFunctions,
	formId: string,
	batch: PreparedItem[],
	output: Array<INodeExecutionData | undefined>,
	fail: (error: unknown, itemIndex: number) => void,
	mayResend: boolean,
): Promise<void> {
	const outcome = await sendFilloutRequest<{ submissions?: Submission[] }>(ctx, {
		method: 'POST',
		path: `/forms/${encodeURIComponent(formId)}/submissions`,
		body: { submissions: batch.map((item) => item.payload) },
	});

	if (outcome.ok) {
		const created = Array.isArray(outcome.body?.submissions) ? outcome.body.submissions : [];
		batch.forEach((item, position) => {
			const submission = created[position];
			if (submission)
				output[item.itemIndex] = { json: submission, pairedItem: { item: item.itemIndex } };
			else
				fail(
					problem(ctx, item.itemIndex, 'Fillout did not return the created submission'),
					item.itemIndex,
				);
		});
		return;
	}

	const { failure } = outcome;
	const itemList = describeItemIndexes(batch.map((item) => item.itemIndex));
	const issues =
		failure.statusCode === 400 ? parseValidationIssues(serviceMessage(failure.body)) : undefined;
	if (issues) {
		// A rejected request creates nothing: name each item's problems; with Continue On
		// Fail, send the items without problems once more.
		const report = attributeIssues(issues, batch, batch[0].fieldNames);
		const rejected = batch.filter((item) => report.byItem.has(item.itemIndex));
		const innocent = batch.filter((item) => !report.byItem.has(item.itemIndex));
		for (const item of rejected) {
			const messages = report.byItem.get(item.itemIndex) as string[];
			const details = [messages.slice(1).join('; ')];
			if (item.fromSavedColumns) details.push(SAVED_COLUMNS_HINT);
			fail(
				apiError(
					ctx,
					`Item ${item.itemIndex}: Fillout rejected ${messages[0]}`,
					item.itemIndex,
					'400',
					details.filter(Boolean).join('. ') || undefined,
				),
				item.itemIndex,
			);
		}
		if (innocent.length && mayResend && report.general.length === 0 && rejected.length) {
			await sendBatch(ctx, formId, innocent, output, fail, false);
			return;
		}
		const reason = report.general.length
			? report.general.join('; ')
			: `other items of the request (${describeItemIndexes(rejected.map((i) => i.itemIndex))}) were rejected`;
		for (const item of innocent) {
			fail(
				apiError(
					ctx,
					`Item ${item.itemIndex}: not created because ${reason}`,
					item.itemIndex,
					'400',
				),
				item.itemIndex,
			);
		}
		return;
	}

	if (
		neverReachedService(failure) ||
		(failure.statusCode !== undefined && failure.statusCode < 500)
	) {
		// Fillout refused the request as a whole: nothing was created.
		for (const item of batch)
			fail(filloutError(ctx, outcome, { formId }, item.itemIndex), item.itemIndex);
		return;
	}

	// A server error or a broken connection: the request may have been processed.
	const context: FailureContext = { formId, apiRoot: outcome.apiRoot, attempts: outcome.attempts };
	const cause = describeFailure(failure, context);
	for (const item of batch) {
		fail(
			apiError(
				ctx,
				`Fillout may or may not have created the submissions of items ${itemList}`,
				item.itemIndex,
				cause.httpCode,
				`${cause.message}. ${cause.description ?? ''} Check the form's results in Fillout before running these items again: a repeat could create them twice.`
					.replace(/\s+/g, ' ')
					.trim(),
			),
			item.itemIndex,
		);
	}
}

function apiError(
	ctx: IExecuteFunctions,
	message: string,
	itemIndex: number,
	httpCode?: string,
	description?: string,
): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description,
		httpCode,
		itemIndex,
	});
}
