/**
 * Errors the node raises outside Fillout's answers: the pager's own, errors that are not
 * n8n's (wrapped by their message only), and a credential without a usable address.
 */

import {
	apiKeyCredentials,
	clearFaults,
	formById,
	generate,
	newForm,
	pairedIndex,
	runFillout,
	setFaults,
	useSandbox,
} from './support';

const sandbox = useSandbox();
afterEach(async () => await clearFaults(sandbox()));

/** Every string reachable from a value through its own properties (an error's stack and cause included). */
function stringsIn(value: unknown, seen = new Set<unknown>()): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value !== 'object' || value === null || seen.has(value)) return [];
	seen.add(value);
	return Object.getOwnPropertyNames(value).flatMap((key) =>
		stringsIn((value as Record<string, unknown>)[key], seen),
	);
}

/** Nothing of the pager's error is kept but its message: not its stack, not itself as a cause. */
function expectOnlyItsMessage(kept: unknown) {
	expect(stringsIn(kept).filter((text) => text.includes('submissionPaging'))).toEqual([]);
}

describe('the pager’s own errors are item errors', () => {
	/** Two items, each reading a form of 3 submissions; the first form's list contradicts itself. */
	async function readBoth(continueOnFail: boolean) {
		const [broken, fine] = [(await newForm(sandbox())).id, (await newForm(sandbox())).id];
		await generate(sandbox(), broken, { count: 3 });
		await generate(sandbox(), fine, { count: 3 });
		// Fillout counts 5 submissions but lists none, 5 times in a row (once could be a
		// deletion between the count and the page): the pager refuses to return a partial list.
		await setFaults(sandbox(), {
			failNext: {
				count: 5,
				method: 'GET',
				pathPattern: `/forms/${broken}/submissions$`,
				status: 200,
				body: { responses: [], totalResponses: 5, pageCount: 1 },
			},
		});
		const result = await runFillout(
			sandbox(),
			{
				resource: 'submission',
				operation: 'getMany',
				form: { __rl: true, mode: 'id', value: '={{ $json.form }}' },
				returnAll: true,
			},
			{ inputItems: [{ form: broken }, { form: fine }], continueOnFail },
		);
		return { result };
	}

	it('without Continue On Fail the run stops at the item, wrapped as a node error (message only)', async () => {
		const { result } = await readBoth(false);
		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(
			/^Fillout counted 5 submissions in the form but listed only 0/,
		);
		expect(result.error?.context).toEqual({ itemIndex: 0 });
		expect(result.error?.description).toBeUndefined();
		expectOnlyItsMessage(result.run);
	});

	it('with Continue On Fail the item is an error item and the next item is read', async () => {
		const { result } = await readBoth(true);
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 1, 1]);
		expect(Object.keys(result.items[0].json)).toEqual(['error']);
		expect(result.items[0].json.error).toMatch(/^Fillout counted 5 submissions/);
		// The error object rides on the item, as n8n keeps it in memory.
		expectOnlyItsMessage(result.items[0].error);
		expect(result.items.slice(1).map((item) => typeof item.json.submissionId)).toEqual([
			'string',
			'string',
			'string',
		]);
	});
});

describe('a credential without a usable address', () => {
	it.each(['fillout.example.com', 'ftp://fillout.example.com', ''])(
		'Base URL %j: "no valid Base URL", for each item',
		async (baseUrl) => {
			const credentials = apiKeyCredentials(sandbox());
			credentials.filloutFormsApi.baseUrl = baseUrl;
			const form = (await newForm(sandbox())).id;
			const parameters = {
				resource: 'submission',
				operation: 'get',
				form: formById(form),
				submissionId: 'x',
			};
			const stopped = await runFillout(sandbox(), parameters, { credentials });
			expect(stopped.error?.message).toBe('The Fillout credential has no valid Base URL');
			expect(stopped.error?.description).toMatch(/must be an http:\/\/ or https:\/\/ address/);

			const continued = await runFillout(sandbox(), parameters, {
				credentials,
				continueOnFail: true,
				inputItems: [{}, {}],
			});
			expect(continued.items.map((item) => [pairedIndex(item), item.json.error])).toEqual([
				[0, 'The Fillout credential has no valid Base URL'],
				[1, 'The Fillout credential has no valid Base URL'],
			]);
		},
	);
});
