/**
 * Submission → Create when Fillout fails part of an import: each path is one fault of
 * the sandbox (sandbox/faults.ts), and each test checks what was really created there.
 */
import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { callResourceMapping, closedPortUrl } from '../../harness';

import {
	apiKeyCredentials,
	clearFaults,
	CREATE_ROUTE,
	formById,
	listDirect,
	METADATA_ROUTE,
	newForm,
	pairedIndex,
	requestCounts,
	resetStats,
	runFillout,
	setFaults,
	useSandbox,
	type Json,
} from './support';

const sandbox = useSandbox();
afterEach(async () => await clearFaults(sandbox()));

const questions = [{ name: 'Name', type: 'ShortAnswer' }];
const people = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ Name: `Person ${i}` }));
const automatic: INodeParameters = { mappingMode: 'autoMapInputData', value: null };

/** The Answers columns as the editor saves them with the node: Create then reads no form. */
async function savedColumns(formId: string): Promise<INodeParameters> {
	const { fields } = await callResourceMapping(Fillout, 'getQuestionColumns', {
		credentials: apiKeyCredentials(sandbox()),
		parameters: { resource: 'submission', operation: 'create', form: formById(formId) },
	});
	const schema = fields as ResourceMapperField[];
	return { ...automatic, matchingColumns: [], schema: schema as unknown as INodeParameters[] };
}

interface CreateRun {
	inputItems: IDataObject[];
	parameters?: INodeParameters;
	continueOnFail?: boolean;
	baseUrl?: string;
}

/** Create on `formId` with its saved columns; the run, and the requests the sandbox counted. */
async function create(formId: string, run: CreateRun) {
	await resetStats(sandbox());
	const credentials = apiKeyCredentials(sandbox());
	if (run.baseUrl !== undefined) credentials.filloutFormsApi.baseUrl = run.baseUrl;
	const result = await runFillout(
		sandbox(),
		{
			resource: 'submission',
			operation: 'create',
			form: formById(formId),
			columns: await savedColumns(formId),
			...run.parameters,
		},
		{ inputItems: run.inputItems, continueOnFail: run.continueOnFail, credentials },
	);
	const counts = await requestCounts(sandbox());
	return { result, posts: counts[CREATE_ROUTE] ?? 0, formReads: counts[METADATA_ROUTE] ?? 0 };
}

/** The Name answers Fillout stored for a form, sorted (one request's submissions share a time). */
async function storedNames(formId: string): Promise<string[]> {
	const { responses } = await listDirect(sandbox(), formId);
	return (responses as Json[]).map((s) => (s.questions as Json[])[0].value as string).sort();
}

const POST = { method: 'POST', pathPattern: '/submissions$' };

describe('a batch Fillout refuses as a whole: nothing of it is created', () => {
	it.each([
		['401', { failNext: { ...POST, count: 1, status: 401 } }, 1, 'Fillout refused the credentials'],
		[
			'404',
			{
				failNext: {
					...POST,
					count: 1,
					status: 404,
					body: { statusCode: 404, error: 'Not Found', message: 'Form gone' },
				},
			},
			1,
			'Form FORM not found',
		],
		[
			'a plain-text 400',
			{ failNext: { ...POST, count: 1, status: 400, text: 'Bad Request' } },
			1,
			'Fillout rejected the request: Bad Request',
		],
		[
			'429 beyond the retry budget',
			{ failNext: { ...POST, count: 6, status: 429, retryAfter: '61' } },
			1,
			'Fillout’s rate limit (5 requests per second) was still exceeded after retrying',
		],
	])(
		'%s: the import stops at item 0, every item listed as not created',
		async (_, faults, posts, cause) => {
			const form = await newForm(sandbox(), { questions });
			await setFaults(sandbox(), faults);
			const run = await create(form.id, { inputItems: people(3) });
			expect(run.posts).toBe(posts);
			expect(run.result.error?.message).toBe(`${cause.replace('FORM', form.id)} [item 0]`);
			expect(run.result.error?.description).toContain(
				'No submission was created. Not created: items 0–2 (Fillout refused their request).',
			);
			expect(await storedNames(form.id)).toEqual([]);
		},
		20_000,
	);

	it('connection refused: nothing sent, the host named', async () => {
		const form = await newForm(sandbox(), { questions });
		const baseUrl = await closedPortUrl();
		const run = await create(form.id, { inputItems: people(3), baseUrl });
		expect(run.posts).toBe(0);
		expect(run.result.error?.message).toBe(`Could not reach Fillout at ${baseUrl}/v1/api [item 0]`);
		expect(run.result.error?.description).toMatch(/ECONNREFUSED/);
		expect(run.result.error?.description).toContain(
			'No submission was created. Not created: items 0–2 (Fillout refused their request).',
		);
	});

	it('a credential without a usable Base URL: the import fails with its error, nothing is sent', async () => {
		const form = await newForm(sandbox(), { questions });
		const run = await create(form.id, { inputItems: people(25), baseUrl: 'fillout.example.com' });
		expect(run.posts).toBe(0);
		expect(run.result.error?.message).toBe('The Fillout credential has no valid Base URL');
		expect(run.result.items).toEqual([]);
	});

	it('with Continue On Fail, each item of the refused batch is an error item and the next batch is sent', async () => {
		const form = await newForm(sandbox(), { questions });
		// Both batches are in flight together: the 401 goes to the first.
		await setFaults(sandbox(), {
			failNext: { ...POST, count: 1, status: 401, bodyPattern: '"Person 0"' },
		});
		const { result, posts } = await create(form.id, {
			inputItems: people(12),
			continueOnFail: true,
		});
		expect(posts).toBe(2);
		expect(result.items.map(pairedIndex)).toEqual(people(12).map((_, i) => i));
		// Fillout's refusal, the same for each of them (each paired to its own item).
		expect(new Set(result.items.slice(0, 10).map((item) => item.json.error))).toEqual(
			new Set(['Fillout refused the credentials']),
		);
		expect(result.items.slice(10).map((item) => typeof item.json.submissionId)).toEqual([
			'string',
			'string',
		]);
		expect(await storedNames(form.id)).toEqual(['Person 10', 'Person 11']);
	});
});

describe('Fillout answers with fewer submissions than it was sent', () => {
	it('the items without a submission are reported as maybe created, the others with their IDs', async () => {
		const form = await newForm(sandbox(), { questions });
		await setFaults(sandbox(), { truncateNext: { ...POST, count: 1, keep: 1 } });
		const { result } = await create(form.id, { inputItems: people(3) });
		// Fillout made all three; its answer named one.
		expect(await storedNames(form.id)).toEqual(['Person 0', 'Person 1', 'Person 2']);
		const first = ((await listDirect(sandbox(), form.id)).responses as Json[]).find(
			(s) => (s.questions as Json[])[0].value === 'Person 0',
		);
		expect(result.error?.message).toBe(
			'Import stopped after item 0 was created: Fillout did not return the created submission [item 1]',
		);
		expect(result.error?.description).toContain(
			`Created (item → submission ID): 0 → ${first.submissionId}. May or may not have been created: items 1–2.`,
		);
	});

	it('with Continue On Fail: the named one is output, the others are error items', async () => {
		const form = await newForm(sandbox(), { questions });
		await setFaults(sandbox(), { truncateNext: { ...POST, count: 1, keep: 1 } });
		const { result } = await create(form.id, { inputItems: people(3), continueOnFail: true });
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2]);
		expect(typeof result.items[0].json.submissionId).toBe('string');
		expect(result.items.slice(1).map((item) => item.json.error)).toEqual([
			'Fillout did not return the created submission [item 1]',
			'Fillout did not return the created submission [item 2]',
		]);
	});
});

describe('a rejected batch is sent again once without the rejected items (Continue On Fail)', () => {
	const rejecting = (position: number) => ({
		...POST,
		count: 1,
		status: 400,
		body: {
			statusCode: 400,
			error: 'Bad Request',
			message: JSON.stringify([
				{
					code: 'custom',
					path: ['submissions', position, 'questions', 0, 'value'],
					message: 'Not allowed',
				},
			]),
		},
	});

	it.each([
		[
			'refused again: not sent a third time, nothing created, every item says why',
			// The resent batch (items 0 and 2) is rejected for its second entry.
			rejecting(1),
			[
				'Not created because item 2 of the same request was rejected [item 0]',
				'Fillout rejected question "Name": Not allowed [item 1]',
				'Fillout rejected question "Name": Not allowed [item 2]',
			],
		],
		[
			'failing with a server error: its items may or may not have been created',
			{ ...POST, count: 1, status: 500 },
			[
				'Fillout may or may not have created the submissions of items 0, 2 [item 0]',
				'Fillout rejected question "Name": Not allowed [item 1]',
				'Fillout may or may not have created the submissions of items 0, 2 [item 2]',
			],
		],
	])('the resend %s', async (_, resendFault, errors) => {
		const form = await newForm(sandbox(), { questions });
		await setFaults(sandbox(), { failNext: [rejecting(1), resendFault] });
		const { result, posts } = await create(form.id, {
			inputItems: people(3),
			continueOnFail: true,
		});
		expect(posts).toBe(2);
		expect(result.items.map((item) => item.json.error)).toEqual(errors);
		expect(await storedNames(form.id)).toEqual([]);
	});
});

/** Create with the form taken from each item's `form` field (so the form is read). */
async function createOnEachItemsForm(inputItems: IDataObject[], continueOnFail = false) {
	await resetStats(sandbox());
	const result = await runFillout(
		sandbox(),
		{
			resource: 'submission',
			operation: 'create',
			form: { __rl: true, mode: 'id', value: '={{ $json.form }}' },
			columns: automatic,
		},
		{ inputItems, continueOnFail },
	);
	return { result, counts: await requestCounts(sandbox()) };
}

describe('items for two forms in one run', () => {
	it('each item goes to its own form, one request per form, output in item order', async () => {
		const [a, b] = [
			await newForm(sandbox(), { questions }),
			await newForm(sandbox(), { questions }),
		];
		const inputItems = people(4).map((person, i) => ({ ...person, form: i % 2 ? b.id : a.id }));
		const { result, counts } = await createOnEachItemsForm(inputItems);
		expect(result.error).toBeUndefined();
		expect([counts[CREATE_ROUTE], counts[METADATA_ROUTE]]).toEqual([2, 2]);
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2, 3]);
		expect(result.items.map((item) => (item.json.questions as IDataObject[])[0].value)).toEqual([
			'Person 0',
			'Person 1',
			'Person 2',
			'Person 3',
		]);
		expect(await storedNames(a.id)).toEqual(['Person 0', 'Person 2']);
		expect(await storedNames(b.id)).toEqual(['Person 1', 'Person 3']);
	});
});

describe('a form that cannot be read', () => {
	it('is read once: its failure is every one of its items’ error, other forms go on', async () => {
		const [broken, fine] = [
			await newForm(sandbox(), { questions }),
			await newForm(sandbox(), { questions }),
		];
		// Every attempt (1 + 3 retries) to read the first form fails.
		await setFaults(sandbox(), {
			failNext: { count: 4, method: 'GET', pathPattern: `/forms/${broken.id}$`, status: 503 },
		});
		const inputItems = people(4).map((person, i) => ({
			...person,
			form: i < 3 ? broken.id : fine.id,
		}));
		const { result, counts } = await createOnEachItemsForm(inputItems, true);
		// 4 attempts for the broken form, 1 read of the other.
		expect(counts[METADATA_ROUTE]).toBe(5);
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2, 3]);
		expect(result.items.slice(0, 3).map((item) => item.json.error)).toEqual(
			Array(3).fill('Fillout failed to process the request (HTTP 503)'),
		);
		expect(await storedNames(fine.id)).toEqual(['Person 3']);
		expect(await storedNames(broken.id)).toEqual([]);
	});
});
