/**
 * Submission → Get Many's answer filter and Submission → Count, in n8n-core's engine
 * against the sandbox over HTTP: which submissions each condition selects (exact ids),
 * on every kind of answer, and what it costs (exact requests).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	LIST_ROUTE,
	METADATA_ROUTE,
	control,
	formById,
	generate,
	jsonOf,
	listDirect,
	newForm,
	requestCounts,
	resetStats,
	runFillout,
	useSandbox,
} from './support';
import { callFilloutTool } from './support/agentTool';
import { DEEP_MARKER, startDeepAnswerProxy } from './support/hostileAnswers';

const sandbox = useSandbox();

const QUESTIONS = [
	{ name: 'Email', type: 'EmailInput' },
	{ name: 'Name', type: 'ShortAnswer' },
	{ name: 'Comments', type: 'LongAnswer' },
	{ name: 'Phone', type: 'PhoneNumber' },
	{ name: 'Site', type: 'URLInput' },
	{ name: 'Seats', type: 'NumberInput' },
	{ name: 'Day', type: 'DatePicker' },
	{ name: 'Plan', type: 'MultipleChoice', options: ['Basic', 'Pro'] },
	{ name: 'Size', type: 'Dropdown', options: ['S', 'M', 'L'] },
	{ name: 'Skills', type: 'Checkboxes', options: ['Go', 'Rust', 'Go Lang'] },
	{ name: 'Tags', type: 'MultiSelect', options: ['a', 'b'] },
	{ name: 'Terms', type: 'Checkbox' },
	{ name: 'Where', type: 'Address' },
	{ name: 'CV', type: 'FileUpload' },
];

interface Made {
	formId: string;
	ids: Record<string, string>;
	questionId: (name: string) => string;
	parameterId: string;
}

let minute = 0;
async function respond(formId: string, answers: IDataObject, order = ''): Promise<string> {
	const parameterId = ((await formMeta(formId)).urlParameters as IDataObject[])[0].id;
	const at = new Date(Date.UTC(2024, 4, 1) + ++minute * 60_000).toISOString();
	const answer = await control(sandbox(), 'POST', `/forms/${formId}/respond`, {
		fillUnanswered: false,
		answers,
		submission: {
			submissionTime: at,
			urlParameters: [{ id: parameterId, name: 'order', value: order }],
		},
	});
	return answer.submission.submissionId as string;
}

const metas = new Map<string, IDataObject>();
async function formMeta(formId: string): Promise<IDataObject> {
	return metas.get(formId)!;
}

async function formWithQuestions(): Promise<{ formId: string; meta: IDataObject }> {
	const meta = await newForm(sandbox(), { questions: QUESTIONS, urlParameters: ['order'] });
	metas.set(meta.id as string, meta);
	return { formId: meta.id as string, meta };
}

/** Four respondents whose answers every case below is about. */
async function fourRespondents(): Promise<Made> {
	const { formId, meta } = await formWithQuestions();
	const ids = {
		ann: await respond(
			formId,
			{
				Email: ' Ann@X.com ',
				Name: 'Ann',
				Comments: 'first',
				Phone: '+49 30 1234',
				Site: 'https://ann.example',
				Seats: 3,
				Day: '2024-05-01',
				Plan: 'Pro',
				Size: 'M',
				Skills: ['Go', 'Rust'],
				Tags: ['a'],
				Terms: true,
				Where: { address: '1 Main St', city: 'Berlin', state: '', zipCode: '10115', country: 'DE' },
				CV: [{ url: 'https://uploads.fillout.example/cv-ann.pdf', filename: 'cv-ann.pdf' }],
			},
			'1042',
		),
		jo: await respond(
			formId,
			{
				Email: 'joann@x.com',
				Name: 'Jo',
				Comments: 'please write to ann@x.com',
				Seats: 42,
				Plan: 'Basic',
				Skills: ['Go Lang'],
				Terms: false,
				Where: { address: '', city: 'Paris', state: '', zipCode: '', country: 'FR' },
			},
			'10420',
		),
		empty: await respond(formId, { Email: '', Comments: '   ', Skills: [] }, ''),
		bob: await respond(formId, { Email: 'bob@y.com', Name: 'ANN@X.COM', Seats: 0 }, 'x1042'),
	};
	const questionId = (name: string) =>
		(meta.questions as IDataObject[]).find((q) => q.name === name)!.id as string;
	const parameterId = (meta.urlParameters as IDataObject[])[0].id as string;
	return { formId, ids, questionId, parameterId };
}

function answerFilter(question: string, condition: string, value?: string): INodeParameters {
	return { answer: { filter: { question, condition, ...(value === undefined ? {} : { value }) } } };
}

async function getMany(formId: string, filters: INodeParameters, extra: INodeParameters = {}) {
	await resetStats(sandbox());
	const result = await runFillout(sandbox(), {
		resource: 'submission',
		operation: 'getMany',
		form: formById(formId),
		returnAll: true,
		simplify: false,
		filters,
		...extra,
	});
	const counts = await requestCounts(sandbox());
	return {
		result,
		ids: jsonOf(result).map((s) => s.submissionId as string),
		list: counts[LIST_ROUTE] ?? 0,
		metadata: counts[METADATA_ROUTE] ?? 0,
	};
}

async function count(formId: string, filters: INodeParameters, options: INodeParameters = {}) {
	await resetStats(sandbox());
	const result = await runFillout(sandbox(), {
		resource: 'submission',
		operation: 'count',
		form: formById(formId),
		filters,
		options,
	});
	const counts = await requestCounts(sandbox());
	return {
		result,
		count: jsonOf(result)[0]?.count,
		list: counts[LIST_ROUTE] ?? 0,
		metadata: counts[METADATA_ROUTE] ?? 0,
	};
}

describe('Get Many → Filters → Answer: every condition on every kind of answer', () => {
	let made: Made;
	beforeAll(async () => {
		made = await fourRespondents();
	});

	type Who = 'ann' | 'jo' | 'empty' | 'bob';
	const cases: Array<[string, string, string | undefined, Who[]]> = [
		// Text: case and spaces at either end do not count; another question's text never does.
		['Email', 'equals', 'ann@x.com', ['ann']],
		['Email', 'equals', 'ANN@X.COM  ', ['ann']],
		['Email', 'notEquals', 'ann@x.com', ['jo', 'empty', 'bob']],
		['Email', 'contains', 'ann@x', ['ann', 'jo']],
		['Email', 'notContains', 'ann@x', ['empty', 'bob']],
		['Email', 'isEmpty', undefined, ['empty']],
		['Email', 'isNotEmpty', undefined, ['ann', 'jo', 'bob']],
		['Comments', 'isEmpty', undefined, ['empty', 'bob']],
		['Name', 'equals', 'ann', ['ann']],
		['Phone', 'contains', '30 12', ['ann']],
		['Site', 'equals', 'https://ann.example', ['ann']],
		// Numbers, as text; 0 is an answer.
		['Seats', 'equals', '42', ['jo']],
		['Seats', 'contains', '4', ['jo']],
		['Seats', 'isEmpty', undefined, ['empty']],
		['Day', 'equals', '2024-05-01', ['ann']],
		// One choice, several choices: "is equal to" is one of them.
		['Plan', 'equals', 'pro', ['ann']],
		['Size', 'isNotEmpty', undefined, ['ann']],
		['Skills', 'equals', 'go', ['ann']],
		['Skills', 'equals', 'Go Lang', ['jo']],
		['Skills', 'contains', 'go', ['ann', 'jo']],
		['Skills', 'isEmpty', undefined, ['empty', 'bob']],
		['Tags', 'notEquals', 'a', ['jo', 'empty', 'bob']],
		// A checkbox: true or false; false is an answer.
		['Terms', 'equals', 'true', ['ann']],
		['Terms', 'equals', 'false', ['jo']],
		['Terms', 'isEmpty', undefined, ['empty', 'bob']],
		// An address: its parts; empty when every part is.
		['Where', 'contains', 'berlin', ['ann']],
		['Where', 'equals', 'Berlin', []],
		['Where', 'isEmpty', undefined, ['empty', 'bob']],
		// Files: their names and addresses.
		['CV', 'contains', 'cv-ann', ['ann']],
		['CV', 'isNotEmpty', undefined, ['ann']],
	];

	it.each(cases)('%s %s %j → %j', async (name, condition, value, who) => {
		const { ids, result } = await getMany(
			made.formId,
			answerFilter(made.questionId(name), condition, value),
		);
		expect(result.error).toBeUndefined();
		expect(ids).toEqual(who.map((w) => made.ids[w]));
	});

	it('a URL parameter (hidden field), by the list’s ID or by name in an expression', async () => {
		const byId = await getMany(made.formId, answerFilter(made.parameterId, 'equals', '1042'));
		expect(byId.ids).toEqual([made.ids.ann]);
		const byName = await getMany(made.formId, answerFilter('={{ "ORDER" }}', 'contains', '1042'));
		expect(byName.ids).toEqual([made.ids.ann, made.ids.jo, made.ids.bob]);
		const empty = await getMany(made.formId, answerFilter('order', 'isEmpty'));
		expect(empty.ids).toEqual([made.ids.empty]);
	});

	it('a question by name: one form read, one list read narrowed by search', async () => {
		const run = await getMany(made.formId, answerFilter('email', 'equals', 'ann@x.com'));
		expect(run.ids).toEqual([made.ids.ann]);
		expect([run.metadata, run.list]).toEqual([1, 1]);
	});

	it('the answer filter with Search, Status and dates: all of them hold', async () => {
		// ann, jo, empty and bob answered at 00:01 to 00:04 on 1 May 2024.
		const run = await getMany(made.formId, {
			...answerFilter(made.questionId('Email'), 'contains', 'x.com'),
			status: 'finished',
			afterDate: '2024-05-01T00:01:30Z',
		});
		expect(run.ids).toEqual([made.ids.jo]);
		const before = await getMany(made.formId, {
			...answerFilter(made.questionId('Comments'), 'isNotEmpty'),
			beforeDate: '2024-05-01T00:03:30Z',
		});
		expect(before.ids).toEqual([made.ids.ann, made.ids.jo]);
		const searched = await getMany(made.formId, {
			...answerFilter(made.questionId('Email'), 'notContains', 'ann'),
			search: 'x.com',
		});
		// bob's Name holds ANN@X.COM: found by the search, and his Email holds no "ann".
		expect(searched.ids).toEqual([made.ids.bob]);
		const searchedToo = await getMany(made.formId, {
			...answerFilter(made.questionId('Name'), 'equals', 'ann@x.com'),
			search: 'ann',
		});
		expect(searchedToo.ids).toEqual([made.ids.bob]);
	});

	it('the user’s own Search is sent, not the filter’s value, and both hold', async () => {
		// Search "please" finds jo alone; the filter's value would find ann and jo.
		const run = await getMany(made.formId, {
			...answerFilter(made.questionId('Email'), 'contains', 'x.com'),
			search: 'please',
		});
		expect(run.ids).toEqual([made.ids.jo]);
	});

	it('reads the form once for all items of an execution; a failed read is not kept', async () => {
		const parameters = {
			resource: 'submission',
			operation: 'getMany',
			form: formById(made.formId),
			returnAll: true,
			simplify: false,
			filters: answerFilter('email', 'equals', '={{ $json.email }}'),
		};
		const inputItems = [{ email: 'ann@x.com' }, { email: 'bob@y.com' }, { email: 'nobody@z' }];
		await resetStats(sandbox());
		const result = await runFillout(sandbox(), parameters, { inputItems });
		expect(jsonOf(result).map((s) => s.submissionId)).toEqual([made.ids.ann, made.ids.bob]);
		expect((await requestCounts(sandbox()))[METADATA_ROUTE]).toBe(1);
		// The first read of the form fails: that item fails, the next reads it again.
		await control(sandbox(), 'POST', '/faults', {
			failNext: { count: 1, method: 'GET', pathPattern: '/forms/[^/]+$', status: 404 },
		});
		const retried = await runFillout(sandbox(), parameters, {
			inputItems: inputItems.slice(0, 2),
			continueOnFail: true,
		});
		await control(sandbox(), 'DELETE', '/faults');
		const outputs = jsonOf(retried);
		expect(outputs[0].error).toBeDefined();
		expect(outputs.slice(1).map((s) => s.submissionId)).toEqual([made.ids.bob]);
	});

	it('an unknown question and an empty value fail the item, naming the field', async () => {
		const unknown = await getMany(made.formId, answerFilter('Phone number', 'equals', 'x'));
		expect(unknown.result.error?.message).toMatch(
			/^The form ".*" has no question or URL parameter "Phone number" \(the answer filter's question\) \[item 0\]$/,
		);
		expect(unknown.list).toBe(0);
		const empty = await getMany(made.formId, answerFilter('Email', 'equals', ' '));
		expect(empty.result.error?.message).toBe('The answer filter\'s "Value" is empty [item 0]');
		expect([empty.metadata, empty.list]).toEqual([0, 0]);
		// Continue On Fail: the error is the item's output.
		const kept = await runFillout(
			sandbox(),
			{
				resource: 'submission',
				operation: 'getMany',
				form: formById(made.formId),
				filters: answerFilter('nope', 'isEmpty'),
			},
			{ continueOnFail: true },
		);
		expect(String(jsonOf(kept)[0].error)).toContain('has no question or URL parameter "nope"');
	});
});

describe('Get Many → Answer: Limit counts matches, Return All reads every candidate', () => {
	it('400 search hits, 3 exact matches: each exactly once, in order; Limit 2 stops at 2 matches', async () => {
		const { formId } = await formWithQuestions();
		const exact: string[] = [];
		for (let i = 0; i < 403; i++) {
			const isExact = i === 5 || i === 200 || i === 399;
			const email = isExact ? 'ann@x.com' : `user${i}.joann@x.com`;
			const id = await respond(formId, { Email: email, Comments: 'ann@x.com' });
			if (isExact) exact.push(id);
		}
		const emailId = (metas.get(formId)!.questions as IDataObject[])[0].id as string;
		const all = await getMany(formId, answerFilter(emailId, 'equals', 'ann@x.com'));
		expect(all.ids).toEqual(exact);
		// The form once; 403 hits in pages of 150 (each later page brings 149 new): 3 pages.
		expect([all.metadata, all.list]).toEqual([1, 3]);
		const two = await getMany(formId, answerFilter(emailId, 'equals', 'ann@x.com'), {
			returnAll: false,
			limit: 2,
		});
		expect(two.ids).toEqual(exact.slice(0, 2));
		expect(two.list).toBe(2);
		const newest = await getMany(
			formId,
			{ ...answerFilter(emailId, 'equals', 'ann@x.com'), sort: 'desc' },
			{ returnAll: false, limit: 1 },
		);
		expect(newest.ids).toEqual([exact[2]]);
		expect(newest.list).toBe(1);
	});

	it('one email among 10,000 submissions: 2 requests in all (the form, one page)', async () => {
		const { formId } = await formWithQuestions();
		await generate(sandbox(), formId, { count: 5_000, startTime: '2024-01-01T00:00:00Z' });
		const rare = await respond(formId, { Email: 'Rare.One@Example.org' });
		await generate(sandbox(), formId, { count: 5_000 });
		for (const limit of [undefined, 1]) {
			const run = await getMany(
				formId,
				answerFilter('Email', 'equals', 'rare.one@example.org'),
				limit === undefined ? {} : { returnAll: false, limit },
			);
			expect(run.ids).toEqual([rare]);
			expect(run.metadata + run.list).toBe(2);
		}
	});
});

describe('Submission → Count', () => {
	it('is one request, and equals what Get Many returns for the same filters', async () => {
		const { formId } = await formWithQuestions();
		await generate(sandbox(), formId, {
			count: 700,
			startTime: '2024-02-01T00:00:00Z',
			stepMs: 3_600_000,
		});
		await generate(sandbox(), formId, { count: 3, status: 'in_progress' });
		const filterSets: INodeParameters[] = [
			{},
			{ afterDate: '2024-02-10T00:00:00Z', beforeDate: '2024-02-20T12:00:00Z' },
			{ search: 'example' },
			{ status: 'in_progress' },
			{ search: 'zzzz-nothing' },
		];
		const counts: number[] = [];
		for (const filters of filterSets) {
			const counted = await count(formId, filters);
			expect(counted.result.error).toBeUndefined();
			expect([counted.list, counted.metadata]).toEqual([1, 0]);
			const read = await getMany(formId, filters);
			expect(counted.count).toBe(read.ids.length);
			counts.push(counted.count as number);
		}
		// The direct listing agrees, and the filters did narrow.
		expect(counts[0]).toBe((await listDirect(sandbox(), formId, { limit: '1' })).totalResponses);
		expect(counts).toEqual([700, counts[1], counts[2], 3, 0]);
		// Strictly after 10 Feb 00:00 and before 20 Feb 12:00, one an hour: 01:00 on the 10th to 11:00 on the 20th.
		expect(counts[1]).toBe(10 * 24 + 11);
		expect(counts[2]).toBeGreaterThan(0);
	});

	it('with an answer filter, reads what it must and counts matches only', async () => {
		const made = await fourRespondents();
		const filters = answerFilter(made.questionId('Email'), 'equals', 'ann@x.com');
		const counted = await count(made.formId, filters);
		// Search narrows to the 2 that hold the text; one matches.
		expect(counted.count).toBe(1);
		expect([counted.metadata, counted.list]).toEqual([1, 1]);
		const notEmpty = await count(made.formId, answerFilter('Seats', 'isNotEmpty'));
		expect(notEmpty.count).toBe(
			(await getMany(made.formId, answerFilter('Seats', 'isNotEmpty'))).ids.length,
		);
		expect(notEmpty.count).toBe(3);
	});

	it('counts preview submissions only when asked to', async () => {
		const { formId } = await formWithQuestions();
		await generate(sandbox(), formId, { count: 4 });
		await generate(sandbox(), formId, { count: 2, preview: true });
		expect((await count(formId, {})).count).toBe(4);
		expect((await count(formId, {}, { includePreview: true })).count).toBe(6);
	});

	it.each([[undefined], ['12'], [-1], [2.5]])(
		'an answer whose count is %j fails the item and says what to do',
		async (totalResponses) => {
			const { formId } = await formWithQuestions();
			await control(sandbox(), 'POST', '/faults', {
				failNext: { count: 1, method: 'GET', status: 200, body: { responses: [], totalResponses } },
			});
			const counted = await count(formId, {});
			await control(sandbox(), 'DELETE', '/faults');
			expect(counted.result.error?.message).toBe(
				'Fillout’s answer carried no count of submissions (totalResponses) [item 0]',
			);
		},
	);

	it('asks for the smallest page: limit=1, with the filters as Fillout takes them', async () => {
		const { formId } = await formWithQuestions();
		await generate(sandbox(), formId, { count: 200, startTime: '2024-02-01T00:00:00Z' });
		// A proxy that passes everything through and records what was asked.
		const proxy = await startDeepAnswerProxy(sandbox(), JSON.stringify(DEEP_MARKER));
		try {
			const result = await runFillout(
				sandbox(),
				{
					resource: 'submission',
					operation: 'count',
					form: formById(formId),
					filters: { afterDate: '2024-02-01T01:00:00Z', search: 'a' },
				},
				{
					credentials: {
						filloutFormsApi: {
							apiKey: sandbox().demo.apiKey,
							region: 'custom',
							baseUrl: proxy.url,
						},
					},
				},
			);
			expect(jsonOf(result)[0].count).toBeGreaterThan(0);
			expect(proxy.requests.map((request) => request.query)).toEqual([
				{ search: 'a', afterDate: '2024-02-01T02:00:00.000+01:00', limit: '1' },
			]);
		} finally {
			await proxy.close();
		}
	});
});

describe('Get Many → Answer as an AI tool', () => {
	it('gives no Fillout count (it counts search hits, not matches); more may match at the Limit', async () => {
		const { formId } = await formWithQuestions();
		const exact = [
			await respond(formId, { Email: 'ann@x.com' }),
			await respond(formId, { Email: 'joann@x.com' }),
			await respond(formId, { Email: 'ANN@x.com' }),
		];
		const parameters = {
			resource: 'submission',
			operation: 'getMany',
			form: formById(formId),
			simplify: false,
			filters: answerFilter('Email', 'equals', 'ann@x.com'),
		};
		const all = await callFilloutTool(sandbox(), parameters);
		expect(all.error).toBeUndefined();
		const [answer] = all.answer as IDataObject[];
		expect((answer.submissions as IDataObject[]).map((s) => s.submissionId)).toEqual([
			exact[0],
			exact[2],
		]);
		expect(answer).toEqual({ submissions: expect.any(Array), shown: 2 });
		const one = await callFilloutTool(sandbox(), { ...parameters, limit: 1 });
		const [limited] = one.answer as IDataObject[];
		expect(limited.shown).toBe(1);
		expect(limited).not.toHaveProperty('total');
		expect(String(limited.note)).toMatch(/^1 submissions shown, oldest first \(more may match\); /);
	});
});
