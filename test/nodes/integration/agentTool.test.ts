import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { callFilloutTool, type ToolCall } from './support/agentTool';
import { fileOrigin, newFileForm, respondWith } from './support/files';
import {
	LIST_ROUTE,
	control,
	formById,
	generate,
	jsonOf,
	newForm,
	resetStats,
	runFillout,
	servedCount,
	useSandbox,
} from './support';

/**
 * The Fillout node as an AI tool (n8n-core's createNodeAsTool, as an AI Agent or the MCP
 * Server Trigger calls it), against the sandbox over HTTP: bounded answers with their
 * note, no binary data, no operation the agent picks, errors an agent can act on.
 */

const sandbox = useSandbox();

const START = '2024-03-01T00:00:00.000Z';
/** Submission n of a generated form is at START + n minutes. */
const minute = (n: number) => new Date(Date.parse(START) + n * 60_000).toISOString();

async function formWith(count: number): Promise<string> {
	const form = await newForm(sandbox());
	if (count > 0) await generate(sandbox(), form.id, { count, stepMs: 60_000, startTime: START });
	return form.id as string;
}

let big: string;
beforeAll(async () => {
	big = await formWith(1234);
}, 60_000);

const getMany = (formId: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'submission',
	operation: 'getMany',
	form: formById(formId),
	...extra,
});

/** The tool's one answer object, and the list requests the call cost. */
async function toolRead(
	parameters: INodeParameters,
	args: IDataObject = {},
	typeVersion?: number,
): Promise<{ call: ToolCall; answer: IDataObject; listRequests: number }> {
	await resetStats(sandbox());
	const call = await callFilloutTool(sandbox(), parameters, { args, typeVersion });
	const stats = await control(sandbox(), 'GET', '/stats');
	expect(call.error).toBeUndefined();
	const answers = call.answer as IDataObject[];
	expect(answers).toHaveLength(1);
	return { call, answer: answers[0], listRequests: servedCount(stats, LIST_ROUTE) };
}

const ids = (answer: IDataObject) =>
	(answer.submissions as IDataObject[]).map((submission) => submission.submissionTime);

const NARROW =
	'narrow the request with Submitted After or Submitted Before (a date and time such as 2024-05-01T14:30:00Z), or Search (text found in any answer)';

describe('Fillout as an AI tool: bounded answers', () => {
	it('Get Many without a Limit reads 10 in one request and says how many more match', async () => {
		const { call, answer, listRequests } = await toolRead(getMany(big));
		expect(call.description).toBe('Get many submissions of a form by date or text in Fillout');
		expect(listRequests).toBe(1);
		expect(ids(answer)).toEqual(Array.from({ length: 10 }, (_, n) => minute(n)));
		expect(answer.shown).toBe(10);
		expect(answer.total).toBe(1234);
		expect(answer.note).toBe(
			`10 of 1,234 submissions shown, oldest first; ${NARROW}; for the next ones, ask again with Submitted After ${minute(9)}.`,
		);
	});

	it('a tool of version 1 saved without a Limit reads 50, as it did before 1.1; 1.1 reads 10', async () => {
		const v1 = await toolRead(getMany(big), {}, 1);
		expect(ids(v1.answer)).toEqual(Array.from({ length: 50 }, (_, n) => minute(n)));
		expect(v1.answer).toMatchObject({ shown: 50, total: 1234 });
		expect(v1.answer.note).toMatch(/^50 of 1,234 submissions shown, oldest first; /);
		expect(v1.listRequests).toBe(1);
		const v11 = await toolRead(getMany(big), {}, 1.1);
		expect(ids(v11.answer)).toEqual(Array.from({ length: 10 }, (_, n) => minute(n)));
		// A Limit saved on a version-1 tool holds.
		const saved = await toolRead(getMany(big, { limit: 3 }), {}, 1);
		expect(ids(saved.answer)).toEqual([minute(0), minute(1), minute(2)]);
	});

	it('newest first, the next ones are before the last one shown', async () => {
		const { answer, listRequests } = await toolRead(getMany(big, { filters: { sort: 'desc' } }));
		expect(listRequests).toBe(1);
		expect(ids(answer)).toEqual(Array.from({ length: 10 }, (_, n) => minute(1233 - n)));
		expect(answer.note).toBe(
			`10 of 1,234 submissions shown, newest first; ${NARROW}; for the next ones, ask again with Submitted Before ${minute(1224)}.`,
		);
	});

	it('the author’s Limit and Return All hold', async () => {
		const limited = await toolRead(getMany(big, { limit: 3 }));
		expect(ids(limited.answer)).toEqual([minute(0), minute(1), minute(2)]);
		expect(limited.answer.note).toMatch(/^3 of 1,234 submissions shown, oldest first; /);
		expect(limited.listRequests).toBe(1);

		const small = await formWith(25);
		const all = await toolRead(getMany(small, { returnAll: true }));
		expect(ids(all.answer)).toHaveLength(25);
		expect(all.answer).toMatchObject({ shown: 25, total: 25 });
		expect(all.answer).not.toHaveProperty('note');
	});

	it('all that match shown: no note', async () => {
		const few = await formWith(4);
		const { answer } = await toolRead(getMany(few));
		expect(answer).toEqual({ submissions: expect.any(Array), shown: 4, total: 4 });
	});

	it('an amount the agent chose ($fromAI) is kept to 100', async () => {
		const limit = "={{ $fromAI('limit', 'How many submissions', 'number') }}";
		const asked = await toolRead(getMany(big, { limit }), { limit: 500 });
		expect(asked.answer.shown).toBe(100);
		expect(asked.answer.note).toMatch(/^100 of 1,234 submissions shown/);
		expect(asked.listRequests).toBe(1);
		const fewer = await toolRead(getMany(big, { limit }), { limit: 7 });
		expect(fewer.answer.shown).toBe(7);

		const returnAll = "={{ $fromAI('returnAll', 'Whether to get all', 'boolean') }}";
		const everything = await toolRead(getMany(big, { returnAll }), { returnAll: true });
		expect(everything.answer.shown).toBe(100);
		expect(everything.listRequests).toBe(1);

		const half = await callFilloutTool(sandbox(), getMany(big, { limit }), {
			args: { limit: 2.5 },
		});
		expect(half.error).toMatch(/^"Limit" must be a whole number of at least 1, got 2\.5; /);
		const zero = await callFilloutTool(sandbox(), getMany(big, { limit }), { args: { limit: 0 } });
		expect(zero.error).toBe(
			'"Limit" must be a whole number of at least 1, got 0; give a number from 1 to 100.',
		);
	});

	it('in a workflow, Get Many is unchanged: 50 by default, one item per submission', async () => {
		const result = await runFillout(sandbox(), getMany(big));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((json) => json.submissionTime)).toEqual(
			Array.from({ length: 50 }, (_, n) => minute(n)),
		);
	});
});

describe('Fillout as an AI tool: no binary data, no operation the agent picks', () => {
	beforeEach(() => sandbox().context.files.reset());

	it('Download Files saved on the tool is ignored: the files stay links, none is fetched', async () => {
		const formId = await newFileForm(sandbox());
		const url = `${fileOrigin(sandbox())}/files/t1/cv.pdf`;
		const submissionId = await respondWith(sandbox(), formId, {
			answers: { Name: 'Ann', Résumé: [{ url, filename: 'cv.pdf' }] },
		});
		const downloads = { downloadFiles: true, fileOptions: { allowPrivateAddresses: true } };
		const got = await callFilloutTool(sandbox(), {
			resource: 'submission',
			operation: 'get',
			form: formById(formId),
			submissionId,
			...downloads,
		});
		expect(got.error).toBeUndefined();
		const [submission] = got.answer as IDataObject[];
		expect(submission).not.toHaveProperty('files');
		expect(JSON.stringify(submission.Résumé)).toContain(url);
		const many = await callFilloutTool(sandbox(), getMany(formId, downloads));
		expect(JSON.stringify(many.answer)).toContain(url);
		expect(JSON.stringify(many.answer)).not.toContain('binaryProperty');
		expect(sandbox().context.files.requests).toEqual([]);
	});

	it('refuses a Resource or Operation the agent would set, before any request', async () => {
		const formId = await formWith(3);
		for (const chosen of [
			{ operation: "={{ $fromAI('operation', 'What to do', 'string') }}" },
			{ resource: "={{ $fromAI('resource', 'What to act on', 'string') }}" },
		]) {
			await resetStats(sandbox());
			const call = await callFilloutTool(
				sandbox(),
				{ ...getMany(formId), ...chosen, submissionId: 'x' },
				{ args: { operation: 'delete', resource: 'submission' } },
			);
			expect(call.error).toBe(
				'The Fillout tool’s Resource and Operation must be fixed by the workflow’s author, not set by an expression\n\nDetails: Choose them from the lists in the node; the agent cannot change them.',
			);
			expect((await control(sandbox(), 'GET', '/stats')).total).toBe(0);
		}
	});
});

describe('Fillout as an AI tool: errors an agent can act on', () => {
	const LIST_FORMS = 'list the forms with Form → Get Many and use a formId from its answer';

	it('an unknown form: what was wrong and what to call, in one sentence', async () => {
		const call = await callFilloutTool(sandbox(), getMany('nosuchform'));
		expect(call.error).toBe(`Form nosuchform not found; ${LIST_FORMS}.`);
		const form = await callFilloutTool(sandbox(), {
			resource: 'form',
			operation: 'get',
			form: formById('nosuchform'),
		});
		expect(form.error).toBe(`Form nosuchform not found; ${LIST_FORMS}.`);
	});

	it('a form parameter that names no form', async () => {
		const call = await callFilloutTool(sandbox(), getMany('not a form!'));
		expect(call.error).toBe(
			`"not a form!" does not name a Fillout form; give a form ID such as foAdHjd1Duus (${LIST_FORMS}).`,
		);
	});

	it('an unknown submission', async () => {
		const formId = await formWith(1);
		const call = await callFilloutTool(sandbox(), {
			resource: 'submission',
			operation: 'get',
			form: formById(formId),
			submissionId: 'nosuchsubmission',
		});
		expect(call.error).toBe(
			`Submission nosuchsubmission not found in form ${formId}; find the submission with Submission → Get Many and use its submissionId, or ${LIST_FORMS}.`,
		);
	});

	it('an unreadable date: its format', async () => {
		const afterDate = "={{ $fromAI('after', 'Submitted after', 'string') }}";
		const call = await callFilloutTool(sandbox(), getMany(big, { filters: { afterDate } }), {
			args: { after: 'last Tuesday' },
		});
		expect(call.error).toBe(
			'"Submitted After" is not a readable date: "last Tuesday"; use a date such as 2024-05-01 or 2024-05-01T14:30:00 (with or without an offset), or a Luxon DateTime.',
		);
	});

	it('refused credentials: the author’s to fix', async () => {
		const call = await callFilloutTool(sandbox(), getMany(big), { apiKey: 'sk_wrong' });
		expect(call.error).toBe(
			'Fillout refused the credentials; the workflow’s author must fix the Fillout credential in n8n, so tell the user instead of calling again.',
		);
	});

	it('in a workflow, the same errors keep the editor’s words', async () => {
		const unknown = await runFillout(sandbox(), getMany('nosuchform'));
		expect(unknown.error?.message).toBe('Form nosuchform not found');
		const date = await runFillout(
			sandbox(),
			getMany(big, { filters: { afterDate: 'last Tuesday' } }),
		);
		expect([date.error?.message, date.error?.description]).toEqual([
			'"Submitted After" is not a readable date: "last Tuesday" [item 0]',
			'Use a date such as 2024-05-01 or 2024-05-01T14:30:00 (with or without an offset), or a Luxon DateTime.',
		]);
	});
});
