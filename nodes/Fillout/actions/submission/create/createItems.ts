import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { questionsFromColumns } from './answerColumns';
import type { CheckedItem, CreateInput } from './createPayload';
import { checkWithForm, checkWithSavedColumns } from './createPayload';
import type { PreparedItem } from './batchOutcome';
import type { FormMetadata, FormQuestion } from '../../../shared/interfaces';
import { failedItem } from '../../../shared/itemLoop';
import { filloutError, itemProblem } from '../../../shared/nodeErrors';
import { fixedFormIdOf, formIdOf } from '../../../shared/parameters';
import type { FilloutOutcome } from '../../../transport';
import { sendFilloutRequest } from '../../../transport';

/**
 * Create's input items, each checked and turned into its request entry before anything
 * is sent. A failing item throws, or with Continue On Fail takes its place in `output`.
 * Returns the items ready to send and the input fields Map Automatically ignored.
 */
export async function prepareItems(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	output: Array<INodeExecutionData | undefined>,
): Promise<{ prepared: PreparedItem[]; ignoredFields: string[] }> {
	const timeZone = ctx.getTimezone();
	const saved = savedColumns(ctx);
	const forms = formReader(ctx);

	// The saved columns decide when they can; otherwise the form is read.
	const check = async (formId: string, input: CreateInput, itemIndex: number) => {
		const savedQuestions = formId === saved?.formId ? saved.questions : undefined;
		const known = forms.known(formId);
		if (known) return checkWithForm(input, known, savedQuestions, timeZone);
		const checked = checkWithSavedColumns(input, savedQuestions, timeZone);
		if (checked) return checked;
		const metadata = await forms.read(formId, itemIndex);
		return checkWithForm(input, metadata, savedQuestions, timeZone);
	};

	const prepared: PreparedItem[] = [];
	const ignoredFields = new Set<string>();
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const formId = formIdOf(ctx, itemIndex);
			const checked: CheckedItem = await check(
				formId,
				inputOf(ctx, items[itemIndex], itemIndex),
				itemIndex,
			);
			if (!checked.ok) throw itemProblem(ctx, checked.message, itemIndex, checked.description);
			const { payload, fieldNames, fromSavedColumns } = checked;
			prepared.push({ itemIndex, formId, payload, fieldNames, fromSavedColumns });
			for (const field of checked.ignoredFields) ignoredFields.add(field);
		} catch (error) {
			output[itemIndex] = failedItem(ctx, error, itemIndex);
		}
	}
	return { prepared, ignoredFields: [...ignoredFields] };
}

function inputOf(ctx: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): CreateInput {
	const automatic =
		ctx.getNodeParameter('columns.mappingMode', itemIndex, 'defineBelow') === 'autoMapInputData';
	const values = automatic
		? item.json
		: ((ctx.getNodeParameter('columns.value', itemIndex, {}, { skipValidation: true }) ??
				{}) as IDataObject);
	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return { values, automatic, additional };
}

/**
 * The questions the editor saved with the node when the form was chosen: with them, an
 * import makes only its create requests. They belong to a fixed form only.
 */
function savedColumns(
	ctx: IExecuteFunctions,
): { formId: string; questions: FormQuestion[] | undefined } | undefined {
	const formId = fixedFormIdOf(ctx);
	if (formId === undefined) return undefined;
	const columns = ctx.getNode().parameters.columns as IDataObject | undefined;
	return { formId, questions: questionsFromColumns(columns?.schema) };
}

/** Reads each form when an item needs it, at most once per execution (a failure too). */
function formReader(ctx: IExecuteFunctions) {
	const outcomes = new Map<string, FilloutOutcome<FormMetadata>>();
	return {
		known(formId: string): FormMetadata | undefined {
			const outcome = outcomes.get(formId);
			return outcome?.ok ? outcome.body : undefined;
		},
		async read(formId: string, itemIndex: number): Promise<FormMetadata> {
			let outcome = outcomes.get(formId);
			if (!outcome) {
				outcome = await sendFilloutRequest<FormMetadata>(ctx, {
					method: 'GET',
					path: `/forms/${encodeURIComponent(formId)}`,
				});
				outcomes.set(formId, outcome);
			}
			if (!outcome.ok) throw filloutError(ctx, outcome, { formId }, itemIndex);
			return outcome.body;
		},
	};
}
