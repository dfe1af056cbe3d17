/**
 * n8n's node setting "Retry On Fail" runs the whole node again with all its input
 * items. What the README tells users about it, shown in n8n's own engine: Create then
 * resends batches Fillout already created, while the node's own retries never do.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	clearFaults,
	listDirect,
	newForm,
	runFillout,
	setFaults,
	useSandbox,
	type Json,
} from './support';

const sandbox = useSandbox();
afterEach(async () => await clearFaults(sandbox()));

const retryOnFail = { maxTries: 2, waitBetweenTries: 0 };

async function twoForms(): Promise<[Json, Json]> {
	const questions = [
		{ name: 'Name', type: 'ShortAnswer' },
		{ name: 'Age', type: 'NumberInput' },
	];
	return [await newForm(sandbox(), { questions }), await newForm(sandbox(), { questions })];
}

/** Create with each item's form taken from the item, answers matched by question name. */
const createByItem: INodeParameters = {
	resource: 'submission',
	operation: 'create',
	form: { __rl: true, mode: 'id', value: '={{ $json.formId }}' },
	columns: { mappingMode: 'autoMapInputData', value: null },
};

function people(formId: string, count: number, from = 0): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({ formId, Name: `Person ${from + i}` }));
}

async function countIn(formId: string): Promise<number> {
	return (await listDirect(sandbox(), formId)).totalResponses as number;
}

describe('Create with n8n’s Retry On Fail', () => {
	it('creates again the batches sent before the one that failed', async () => {
		const [first, second] = await twoForms();
		const inputItems = [...people(first.id, 3), ...people(second.id, 2, 3)];
		const failSecondForm = {
			count: 1,
			method: 'POST',
			pathPattern: `/forms/${second.id}/submissions$`,
			status: 500,
		};

		await setFaults(sandbox(), { failNext: failSecondForm });
		const alone = await runFillout(sandbox(), createByItem, { inputItems });
		// Without it, the run stops at the failed batch; the first form's batch stays created once.
		expect(alone.error?.name).toBe('NodeApiError');
		expect([await countIn(first.id), await countIn(second.id)]).toEqual([3, 0]);

		await setFaults(sandbox(), { failNext: failSecondForm });
		const retried = await runFillout(sandbox(), createByItem, { inputItems, retryOnFail });
		expect(retried.error).toBeUndefined();
		// This run's first try created the first form's 3, and its second try the same 3 again.
		expect([await countIn(first.id), await countIn(second.id)]).toEqual([3 + 3 + 3, 2]);
	});

	it('with On Error → Continue, also reruns when the first item failed', async () => {
		const [form] = await twoForms();
		const inputItems = [{ formId: form.id, Age: 'twelve' }, ...people(form.id, 2, 1)];

		const continued = await runFillout(sandbox(), createByItem, {
			inputItems,
			continueOnFail: true,
			retryOnFail,
		});
		expect(continued.items.map((item) => item.json.error !== undefined)).toEqual([
			true,
			false,
			false,
		]);
		// n8n retries a node whose first output item is an error: items 1 and 2 twice.
		expect(await countIn(form.id)).toBe(4);
	});
});
