import type { IDataObject, INodeParameters, ResourceMapperField } from 'n8n-workflow';

import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { callResourceMapping } from '../../harness';

import {
	apiKeyCredentials,
	clearFaults,
	CREATE_ROUTE,
	demoFormId,
	formById,
	listDirect,
	METADATA_ROUTE,
	metadataDirect,
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

let form: Json;
const idOf = (name: string) => (form.questions as Json[]).find((q) => q.name === name).id as string;

beforeAll(async () => {
	form = await newForm(sandbox(), {
		questions: [
			{ name: 'Name', type: 'ShortAnswer' },
			{ name: 'Age', type: 'NumberInput' },
			{ name: 'Born', type: 'DatePicker' },
			{ name: 'Agree', type: 'Checkbox' },
			{ name: 'Plan', type: 'Dropdown', options: [{ value: 'pro', label: 'Pro plan' }, 'basic'] },
		],
	});
});

const automatic: INodeParameters = { mappingMode: 'autoMapInputData', value: null };

async function create(
	inputItems: IDataObject[],
	extra: INodeParameters = {},
	continueOnFail = false,
) {
	await resetStats(sandbox());
	const result = await runFillout(
		sandbox(),
		{
			resource: 'submission',
			operation: 'create',
			form: formById(form.id),
			columns: automatic,
			...extra,
		},
		{ inputItems, continueOnFail },
	);
	const counts = await requestCounts(sandbox());
	return { result, posts: counts[CREATE_ROUTE] ?? 0, formReads: counts[METADATA_ROUTE] ?? 0 };
}

const answer = (submission: IDataObject, questionId: string) =>
	(submission.questions as IDataObject[]).find((q) => q.id === questionId)?.value;

/** Create on the seeded "Event Registration" form (scheduling, payments, URL parameters). */
async function createOnEventForm(
	additionalFields: (metadata: Json) => INodeParameters,
	inputItems: IDataObject[] = [{}],
) {
	const eventFormId = await demoFormId(sandbox(), 'Event Registration');
	const metadata = await metadataDirect(sandbox(), eventFormId);
	const result = await runFillout(
		sandbox(),
		{
			resource: 'submission',
			operation: 'create',
			form: formById(eventFormId),
			columns: automatic,
			additionalFields: additionalFields(metadata),
		},
		{ inputItems },
	);
	return { result, metadata };
}

const people = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ Name: `Person ${i}`, Age: String(20 + i) }));

describe('Submission → Create: batches of 10, each output paired to its input', () => {
	it.each([
		[1, 1],
		[10, 1],
		[11, 2],
		[25, 3],
	])('%i items → %i request(s)', async (count, requests) => {
		const { result, posts } = await create(people(count));
		expect(result.error).toBeUndefined();
		expect(posts).toBe(requests);
		expect(result.items).toHaveLength(count);
		result.items.forEach((item, i) => {
			expect(pairedIndex(item)).toBe(i);
			expect(answer(item.json, idOf('Name'))).toBe(`Person ${i}`);
			expect(answer(item.json, idOf('Age'))).toBe(20 + i);
			expect(typeof item.json.submissionId).toBe('string');
		});
	});
});

describe('Submission → Create: mapping', () => {
	it('maps columns defined below by question id, with expressions and type conversion', async () => {
		const { result } = await create(
			[{ who: 'Ana', years: '41', day: '2024-02-01T00:00:00', ok: 'true', plan: 'Pro plan' }],
			{
				columns: {
					mappingMode: 'defineBelow',
					value: {
						[idOf('Name')]: '={{ $json.who }}',
						[idOf('Age')]: '={{ $json.years }}',
						[idOf('Born')]: '={{ $json.day }}',
						[idOf('Agree')]: '={{ $json.ok }}',
						[idOf('Plan')]: '={{ $json.plan }}',
					},
					matchingColumns: [],
					schema: [],
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			},
		);
		expect(result.error).toBeUndefined();
		const created = result.items[0].json;
		expect(answer(created, idOf('Name'))).toBe('Ana');
		expect(answer(created, idOf('Age'))).toBe(41);
		expect(answer(created, idOf('Born'))).toBe('2024-02-01');
		expect(answer(created, idOf('Agree'))).toBe(true);
		expect(answer(created, idOf('Plan'))).toBe('pro');
	});

	it('maps automatically by question name or id, ignoring other fields', async () => {
		const { result } = await create([
			{ Name: 'Bo', [idOf('Age')]: 7, unrelated: 'x', submissionId: 'ignored' },
		]);
		const created = result.items[0].json;
		expect(answer(created, idOf('Name'))).toBe('Bo');
		expect(answer(created, idOf('Age'))).toBe(7);
		expect(created.submissionId).not.toBe('ignored');
	});

	it('Map Automatically: the run’s hints name the input fields that match no question', async () => {
		const { result } = await create([
			{ Name: 'Bo', unrelated: 'x', submissionId: 'ignored' },
			{ Name: 'Cy', unrelated: 'y', Nickname: 'C' },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.hints).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'Map Automatically ignored 2 input fields that match no question of the form: "unrelated", "Nickname". Name a field after a question (or its ID) to import it.',
			},
		]);
		const { result: allMatched } = await create(people(2));
		expect(allMatched.hints).toEqual([]);
	});

	it('sets submission time (workflow zone), URL parameters, scheduling and payments', async () => {
		const booking = {
			fullName: 'Ana López',
			email: 'ana@example.com',
			timezone: 'America/New_York',
			eventStartTime: '2024-06-01T10:00:00',
			eventEndTime: '2024-06-01T10:30:00',
		};
		const payment = {
			paymentId: 'pi_123',
			totalAmount: 4900,
			currency: 'eur',
			stripeCustomerId: 'cus_9',
		};
		const { result, metadata } = await createOnEventForm(
			(form) => ({
				submissionTime: '2024-05-01T10:00:00',
				urlParameters: { parameter: [{ id: form.urlParameters[0].id, value: 'newsletter' }] },
				scheduling: { booking: [{ id: form.scheduling[0].id, value: JSON.stringify(booking) }] },
				payments: { payment: [{ id: form.payments[0].id, value: JSON.stringify(payment) }] },
			}),
			[{ 'Full name': 'Ana López' }],
		);
		expect(result.error).toBeUndefined();
		const created = result.items[0].json;
		expect(created.submissionTime).toBe('2024-05-01T08:00:00.000Z');
		expect(created.urlParameters).toEqual([
			{ id: metadata.urlParameters[0].id, name: 'utm_source', value: 'newsletter' },
		]);
		const scheduling = (created.scheduling as IDataObject[])[0].value as IDataObject;
		// Read in the booking's own zone.
		expect(scheduling.eventStartTime).toBe('2024-06-01T10:00:00.000-04:00');
		expect((created.payments as IDataObject[])[0].value).toEqual(expect.objectContaining(payment));
	});
});

describe('Submission → Create: a DatePicker answer keeps the date it is written with', () => {
	/** The Born date Fillout stored for a submission created with `born` in a workflow zone. */
	async function storedBorn(timeZone: string, born: string, day?: string): Promise<unknown> {
		const result = await runFillout(
			sandbox(),
			{
				resource: 'submission',
				operation: 'create',
				form: formById(form.id),
				columns: {
					mappingMode: 'defineBelow',
					value: { [idOf('Born')]: born },
					matchingColumns: [],
					schema: [],
				},
			},
			{ inputItems: [{ day }], timezone: timeZone },
		);
		expect(result.error).toBeUndefined();
		const submissionId = result.items[0].json.submissionId;
		// Read back from Fillout, not from the node's output.
		const { responses } = await listDirect(sandbox(), form.id, { sort: 'desc' });
		const stored = (responses as Json[]).find((r) => r.submissionId === submissionId);
		return answer(stored, idOf('Born'));
	}

	it.each([
		['America/New_York', '2024-05-01T00:00:00.000Z'],
		['Asia/Tokyo', '2024-05-01T23:30:00+02:00'],
		['Pacific/Honolulu', '2024-05-01T00:00:00+14:00'],
	])('in %s, text %s → 2024-05-01', async (timeZone, day) => {
		expect(await storedBorn(timeZone, '={{ $json.day }}', day)).toBe('2024-05-01');
	});

	it('a Luxon DateTime from an expression: its date in its own zone', async () => {
		// 08:00 on 1 May in Tokyo is 30 April in New York: the DateTime says 1 May.
		const tokyoMorning = "={{ DateTime.fromISO('2024-05-01T08:00', { zone: 'Asia/Tokyo' }) }}";
		expect(await storedBorn('America/New_York', tokyoMorning)).toBe('2024-05-01');
		// $now is in the workflow's zone: today there.
		const today = () => todayIn('Pacific/Kiritimati');
		const before = today();
		const stored = await storedBorn('Pacific/Kiritimati', '={{ $now }}');
		expect([before, today()]).toContain(stored);
	});

	it('a JavaScript Date, an instant without a written date: its date in the workflow’s zone', async () => {
		const date = "={{ new Date('2024-05-01T02:00:00Z') }}";
		expect(await storedBorn('America/New_York', date)).toBe('2024-04-30');
		expect(await storedBorn('Europe/Berlin', date)).toBe('2024-05-01');
	});
});

/** Today's date in a zone, as YYYY-MM-DD. */
function todayIn(timeZone: string): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
}

/** The Answers columns as the editor loads them for the form (and saves them with the node). */
async function editorColumns(formId: string): Promise<ResourceMapperField[]> {
	const { fields } = await callResourceMapping(Fillout, 'getQuestionColumns', {
		credentials: apiKeyCredentials(sandbox()),
		parameters: { resource: 'submission', operation: 'create', form: formById(formId) },
	});
	return fields;
}

const savedColumns = (
	schema: ResourceMapperField[],
	mapping: INodeParameters = automatic,
): INodeParameters => ({
	columns: { matchingColumns: [], ...mapping, schema: schema as unknown as INodeParameters[] },
});

describe('Submission → Create: with the columns the editor saved, no read of the form', () => {
	let schema: ResourceMapperField[];
	beforeAll(async () => {
		schema = await editorColumns(form.id);
	});

	it.each([
		['Map Automatically', () => automatic],
		[
			'defined below',
			(): INodeParameters => ({
				mappingMode: 'defineBelow',
				value: {
					[idOf('Name')]: '={{ $json.Name }}',
					[idOf('Age')]: '={{ $json.Age }}',
					[idOf('Born')]: '={{ $json.Born }}',
					[idOf('Plan')]: '={{ $json.Plan }}',
				},
			}),
		],
	])('%s: 25 items → 3 create requests and nothing else', async (_, mapping) => {
		const items = people(25).map((person) => ({
			...person,
			Born: '2024-02-01T23:30:00',
			Plan: 'Pro plan',
		}));
		const { result, posts, formReads } = await create(items, savedColumns(schema, mapping()));
		expect(result.error).toBeUndefined();
		expect([posts, formReads]).toEqual([3, 0]);
		expect(result.items).toHaveLength(25);
		const [first] = result.items;
		expect(answer(first.json, idOf('Age'))).toBe(20);
		// Converted by the Fillout type read back from the columns: a date, a choice's value.
		expect(answer(first.json, idOf('Born'))).toBe('2024-02-01');
		expect(answer(first.json, idOf('Plan'))).toBe('pro');
	});

	it('reads the form when the columns cannot be its own (the form is an expression)', async () => {
		const { result, posts, formReads } = await create(people(3), {
			form: { __rl: true, mode: 'id', value: `={{ ${JSON.stringify(form.id)} }}` },
			...savedColumns(schema),
		});
		expect(result.error).toBeUndefined();
		expect([posts, formReads]).toEqual([1, 1]);
	});

	it('reads the form for URL parameters, which the columns do not carry', async () => {
		const eventFormId = await demoFormId(sandbox(), 'Event Registration');
		const metadata = await metadataDirect(sandbox(), eventFormId);
		const eventColumns = await editorColumns(eventFormId);
		await resetStats(sandbox());
		const result = await runFillout(
			sandbox(),
			{
				resource: 'submission',
				operation: 'create',
				form: formById(eventFormId),
				...savedColumns(eventColumns),
				additionalFields: {
					urlParameters: { parameter: [{ id: metadata.urlParameters[0].id, value: 'ad' }] },
				},
			},
			{ inputItems: [{ 'Full name': 'Ana' }, { 'Full name': 'Bo' }] },
		);
		expect(result.error).toBeUndefined();
		expect((await requestCounts(sandbox()))[METADATA_ROUTE]).toBe(1);
	});
});

describe('Submission → Create: saved columns that no longer fit the form', () => {
	let schema: ResourceMapperField[];
	beforeAll(async () => {
		schema = await editorColumns(form.id);
	});

	it('a field that matches no saved column: the form is read once, and a renamed question still gets its answer', async () => {
		// As if "Name" was called "Full name" when the columns were saved.
		const stale = schema.map((column) =>
			column.id === idOf('Name') ? { ...column, displayName: 'Full name (ShortAnswer)' } : column,
		);
		const { result, posts, formReads } = await create(people(12), savedColumns(stale));
		expect(result.error).toBeUndefined();
		expect([posts, formReads]).toEqual([2, 1]);
		expect(answer(result.items[11].json, idOf('Name'))).toBe('Person 11');
	});

	it('a choice that is not among the saved choices: the form is read for its current ones', async () => {
		// As if "Pro plan" was added to the form after the columns were saved.
		const stale = schema.map((column) =>
			column.id === idOf('Plan')
				? { ...column, options: [{ name: 'basic', value: 'basic' }] }
				: column,
		);
		const { result, formReads } = await create(
			[
				{ Name: 'Ana', Plan: 'basic' },
				{ Name: 'Bo', Plan: 'Pro plan' },
			],
			savedColumns(stale),
		);
		expect(result.error).toBeUndefined();
		expect(formReads).toBe(1);
		expect(result.items.map((item) => answer(item.json, idOf('Plan')))).toEqual(['basic', 'pro']);
	});

	it('a column of a question that is gone: Fillout’s rejection names it and says to reload the columns', async () => {
		const withRemoved: ResourceMapperField[] = [
			...schema,
			{ ...schema[0], id: 'gone', displayName: 'Old question (ShortAnswer)' },
		];
		const { result, formReads } = await create(
			[{ who: 'Ana' }],
			savedColumns(withRemoved, {
				mappingMode: 'defineBelow',
				value: { [idOf('Name')]: '={{ $json.who }}', gone: 'left over' },
			}),
		);
		expect(formReads).toBe(0);
		expect(result.error?.message).toBe(
			'Fillout rejected question "Old question" (id): No question with id "gone" exists on this form [item 0]',
		);
		expect(result.error?.description).toMatch(/open the node: it loads the current ones/);
	});

	it('a value for a column the form does not have is refused before anything is sent', async () => {
		const { result, posts, formReads } = await create(
			[{ who: 'Ana' }],
			savedColumns(schema, {
				mappingMode: 'defineBelow',
				value: { [idOf('Name')]: '={{ $json.who }}', nope: 'x' },
			}),
		);
		expect([posts, formReads]).toEqual([0, 1]);
		expect(result.error?.message).toBe(
			'The Answers column "nope" is not a question of this form [item 0]',
		);
	});
	it('a saved column the form no longer has, once the form was read anyway, is refused by its saved name', async () => {
		const eventFormId = await demoFormId(sandbox(), 'Event Registration');
		const metadata = await metadataDirect(sandbox(), eventFormId);
		const columns = await editorColumns(eventFormId);
		const gone = { ...columns[0], id: 'gone', displayName: 'Old question (ShortAnswer)' };
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'create',
			form: formById(eventFormId),
			...savedColumns([...columns, gone], {
				mappingMode: 'defineBelow',
				value: { gone: 'left over' },
			}),
			// URL parameters make the node read the form.
			additionalFields: {
				urlParameters: { parameter: [{ id: metadata.urlParameters[0].id, value: 'ad' }] },
			},
		});
		expect(result.error?.message).toBe(
			'The Answers column "Old question" (gone) is not a question of this form [item 0]',
		);
	});
});

describe('Submission → Create: bad input is reported for its item and field', () => {
	it.each([
		[{ Name: 'x', Age: 'abc' }, 'Question "Age" expects a number, got "abc" [item 2]'],
		[
			{ Name: 'x', Born: '2024-02-30' },
			'Question "Born" expects a date (such as 2024-05-01), got "2024-02-30" [item 2]',
		],
		[
			{ Name: 'x', Agree: 'perhaps' },
			'Question "Agree" expects true or false, got "perhaps" [item 2]',
		],
	])('%j', async (bad, message) => {
		const items = [...people(2), bad, ...people(2)];
		const { result, posts } = await create(items);
		expect(result.error?.message).toBe(message);
		expect(result.error?.context?.itemIndex).toBe(2);
		// Every item is checked before anything is sent.
		expect(posts).toBe(0);
	});

	it('with Continue On Fail, the bad item becomes an error item and the rest of its batch is sent', async () => {
		const items = people(12);
		items[3] = { Name: 'x', Age: 'abc' };
		const { result, posts } = await create(items, {}, true);
		expect(posts).toBe(2);
		expect(result.items).toHaveLength(12);
		expect(result.items.map(pairedIndex)).toEqual(Array.from({ length: 12 }, (_, i) => i));
		expect(result.items[3].json.error).toBe('Question "Age" expects a number, got "abc" [item 3]');
		expect(result.items.filter((item) => typeof item.json.submissionId === 'string')).toHaveLength(
			11,
		);
	});

	it('rejects bad additional fields (date, URL parameter id, scheduling JSON)', async () => {
		const cases: Array<[INodeParameters, RegExp]> = [
			[
				{ submissionTime: 'tomorrow' },
				/^"Submission Time" is not a readable date and time: "tomorrow" \[item 0\]$/,
			],
			[
				{ urlParameters: { parameter: [{ id: 'nope', value: 'x' }] } },
				/^"nope" is not a URL parameter of this form \[item 0\]$/,
			],
		];
		for (const [additionalFields, message] of cases) {
			const { result } = await create([{ Name: 'x' }], { additionalFields });
			expect(result.error?.message).toMatch(message);
		}
		const { result } = await createOnEventForm((form) => ({
			scheduling: {
				booking: [
					{ id: form.scheduling[0].id, value: '{"fullName": "A", "email": "not-an-email"}' },
				],
			},
		}));
		expect(result.error?.message).toBe(
			'Scheduling field "Intro call": "email" is not an email address [item 0]',
		);
	});

	it('maps Fillout’s validation issues back to items and question names', async () => {
		const issues = [
			{
				code: 'invalid_type',
				path: ['submissions', 1, 'questions', 0, 'value'],
				message: 'Expected string, received number',
			},
		];
		const fault = {
			count: 1,
			method: 'POST',
			status: 400,
			body: { statusCode: 400, error: 'Bad Request', message: JSON.stringify(issues) },
		};
		await setFaults(sandbox(), { failNext: fault });
		const { result } = await create(people(3));
		expect(result.error?.message).toBe(
			'Fillout rejected question "Name": Expected string, received number [item 1]',
		);

		// With Continue On Fail the others are sent again (a rejected request creates nothing).
		await setFaults(sandbox(), { failNext: fault });
		const { result: continued, posts } = await create(people(3), {}, true);
		expect(posts).toBe(2);
		expect(continued.items.map(pairedIndex)).toEqual([0, 1, 2]);
		expect(continued.items[1].json.error).toBe(
			'Fillout rejected question "Name": Expected string, received number [item 1]',
		);
		expect(answer(continued.items[2].json, idOf('Name'))).toBe('Person 2');
	});
});

describe('Submission → Create: retried only when Fillout certainly did not process it', () => {
	it('retries after a 429 (nothing was processed)', async () => {
		await setFaults(sandbox(), { failNext: { count: 1, method: 'POST', status: 429 } });
		const { result, posts } = await create(people(2));
		expect(result.error).toBeUndefined();
		expect(posts).toBe(2);
		expect(result.items).toHaveLength(2);
	});

	it.each([
		[
			'a connection dropped after processing',
			{ dropAfterProcessingNext: { count: 1, method: 'POST' } },
			3,
		],
		['a connection dropped before processing', { dropNext: { count: 1, method: 'POST' } }, 0],
		['a 503', { failNext: { count: 1, method: 'POST', status: 503 } }, 0],
	])(
		'does not repeat a create after %s, and says it may or may not have happened',
		async (_, faults, created) => {
			const target = await newForm(sandbox(), {
				questions: [{ name: 'Name', type: 'ShortAnswer' }],
			});
			await setFaults(sandbox(), faults);
			await resetStats(sandbox());
			const result = await runFillout(
				sandbox(),
				{
					resource: 'submission',
					operation: 'create',
					form: formById(target.id),
					columns: automatic,
				},
				{ inputItems: people(3) },
			);
			expect((await requestCounts(sandbox()))[CREATE_ROUTE]).toBe(1);
			expect(result.error?.message).toBe(
				'Fillout may or may not have created the submissions of items 0–2 [item 0]',
			);
			expect(result.error?.description).toMatch(/before running these items again/);
			expect((await listDirect(sandbox(), target.id)).totalResponses).toBe(created);
		},
	);

	it('with Continue On Fail, every item of the uncertain batch is an error item', async () => {
		// Batches of 10 and 2 are in flight together: the 500 goes to the first.
		await setFaults(sandbox(), {
			failNext: { count: 1, method: 'POST', status: 500, bodyPattern: '"Person 0"' },
		});
		const { result } = await create(people(12), {}, true);
		expect(result.items).toHaveLength(12);
		expect(
			result.items.slice(0, 10).every((item) => /may or may not/.test(String(item.json.error))),
		).toBe(true);
		expect(result.items.slice(10).every((item) => typeof item.json.submissionId === 'string')).toBe(
			true,
		);
	});
});

describe('Submission → Create: an import that stops part way says what was created', () => {
	const questions = [
		{ name: 'Name', type: 'ShortAnswer' },
		{ name: 'Age', type: 'NumberInput' },
	];
	/** Submission IDs as Fillout stored them, by the Name answer. */
	const storedIdsByName = async (formId: string) =>
		new Map(
			((await listDirect(sandbox(), formId)).responses as Json[]).map(
				(submission): [string, string] => [
					(submission.questions as Json[]).find((q) => q.name === 'Name').value,
					submission.submissionId,
				],
			),
		);

	it('100 items, the 57th refused by Fillout: the error lists every item Fillout stored with its ID, and the items not created', async () => {
		const target = await newForm(sandbox(), { questions, payments: ['Deposit'] });
		const items: IDataObject[] = Array.from({ length: 100 }, (_, i) => ({
			Name: `Row ${i}`,
			payment: { paymentId: `pi_${i}` },
		}));
		// The node passes the processor's own payment fields through; Fillout checks this address.
		items[56].payment = { paymentId: 'pi_56', stripeCustomerUrl: 'not an address' };
		const { result, posts } = await create(items, {
			form: formById(target.id),
			additionalFields: {
				payments: {
					payment: [{ id: target.payments[0].id, value: '={{ JSON.stringify($json.payment) }}' }],
				},
			},
		});
		// Requests go in item order, 5 in flight: 0–49 created, 50–59 refused, and of 60–99
		// those whose requests had started before the refusal came back.
		const idOfRow = await storedIdsByName(target.id);
		const createdRows = items.flatMap((_, i) => (idOfRow.has(`Row ${i}`) ? [i] : []));
		const later = createdRows.length - 50;
		expect(posts).toBe(6 + later / 10);
		expect(createdRows).toEqual([
			...Array.from({ length: 50 }, (_, i) => i),
			...Array.from({ length: later }, (_, i) => 60 + i),
		]);
		const created = createdRows.map((i) => `${i} → ${idOfRow.get(`Row ${i}`)}`);

		expect(result.error?.message).toBe(
			`Import stopped after items 0–49${later ? `, 60–${59 + later}` : ''} were created: Fillout rejected payment field "Deposit" (stripeCustomerUrl): Invalid url [item 56]`,
		);
		expect(result.error?.context?.itemIndex).toBe(56);
		expect(result.error?.description).toContain(
			`Created (item → submission ID): ${created.join(', ')}.`,
		);
		expect(result.error?.description).toContain(
			`Not created: item 56 (rejected), items 50–55, 57–59 (sent in the same request, which Fillout refused as a whole)${later < 40 ? `, items ${60 + later}–99 (not sent)` : ''}.`,
		);
	});

	it('a request whose answer was lost is told apart from the created items, those of the requests in flight with it included', async () => {
		const [first, second] = [
			await newForm(sandbox(), { questions }),
			await newForm(sandbox(), { questions }),
		];
		// Items 0–11 go to the first form, 12–24 to the second, whose first request is
		// processed but its answer lost. The four requests are in flight together.
		const items = people(25).map((person, i) => ({
			...person,
			form: (i < 12 ? first : second).id,
		}));
		await setFaults(sandbox(), {
			dropAfterProcessingNext: { count: 1, method: 'POST', bodyPattern: '"Person 12"' },
		});
		const { result, posts } = await create(items, {
			form: { __rl: true, mode: 'id', value: '={{ $json.form }}' },
		});
		expect(posts).toBe(4);
		const idOfRow = new Map([
			...(await storedIdsByName(first.id)),
			...(await storedIdsByName(second.id)),
		]);
		expect(result.error?.message).toBe(
			'Import stopped after items 0–11, 22–24 were created: Fillout may or may not have created the submissions of items 12–21 [item 12]',
		);
		const description = result.error?.description;
		const created = [...Array(12).keys(), 22, 23, 24];
		expect(description).toContain(
			`Created (item → submission ID): ${created
				.map((i) => `${i} → ${idOfRow.get(people(25)[i].Name)}`)
				.join(', ')}. May or may not have been created: items 12–21. Run again only`,
		);
		expect((await listDirect(sandbox(), second.id)).totalResponses).toBe(13);
	});
});

export {};
