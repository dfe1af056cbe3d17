import {
	demoFormId,
	formById,
	jsonOf,
	listDirect,
	newForm,
	pairedIndex,
	runFillout,
	useSandbox,
	control,
	httpCodeOf,
} from './support';

const sandbox = useSandbox();

describe('Submission → Get', () => {
	it('gets one submission, simplified by default, raw when asked, with its edit link', async () => {
		const formId = await demoFormId(sandbox(), 'Customer Feedback');
		const [wanted] = (await listDirect(sandbox(), formId, { limit: '1' })).responses;
		const get = async (extra: Record<string, unknown>) =>
			await runFillout(sandbox(), {
				resource: 'submission',
				operation: 'get',
				form: formById(formId),
				submissionId: wanted.submissionId,
				...extra,
			});
		const simplified = jsonOf(await get({}))[0];
		expect(simplified.submissionId).toBe(wanted.submissionId);
		expect(simplified).toHaveProperty('Email (2)');
		expect(jsonOf(await get({ simplify: false }))[0]).toEqual(wanted);
		const withLink = jsonOf(await get({ simplify: false, options: { includeEditLink: true } }))[0];
		expect(String(withLink.editLink)).toContain(wanted.submissionId);
	});

	it('says which submission was not found, and continues item by item when asked', async () => {
		const formId = await demoFormId(sandbox(), 'Geography Quiz');
		const [real] = (await listDirect(sandbox(), formId, { limit: '1' })).responses;
		const parameters = {
			resource: 'submission',
			operation: 'get',
			form: formById(formId),
			submissionId: '={{ $json.id }}',
		};
		const inputItems = [
			{ id: real.submissionId },
			{ id: 'no-such-submission' },
			{ id: real.submissionId },
		];
		const failing = await runFillout(sandbox(), parameters, { inputItems });
		expect(failing.error?.message).toBe(
			`Submission no-such-submission not found in form ${formId}`,
		);
		expect(httpCodeOf(failing.error)).toBe('404');

		const continued = await runFillout(sandbox(), parameters, { inputItems, continueOnFail: true });
		expect(continued.items.map(pairedIndex)).toEqual([0, 1, 2]);
		expect(continued.items[1].json.error).toBe(
			`Submission no-such-submission not found in form ${formId}`,
		);
		expect(continued.items[0].json.quizScore).toBe(real.quiz.score);
	});

	it('says which form was not found', async () => {
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'get',
			form: formById('doesNotExist1'),
			submissionId: 'x',
		});
		// A 404 for a missing form and for a missing submission look alike (status and
		// shape), so the message names both; Fillout's own words, in the description,
		// say it is the form.
		expect(result.error?.message).toBe('Submission x not found in form doesNotExist1');
		expect(result.error?.description).toBe('Form doesNotExist1 not found');
		expect(httpCodeOf(result.error)).toBe('404');
	});
});

describe('Submission → Delete', () => {
	it('deletes a submission and reports it; a second delete is a clear 404', async () => {
		const form = await newForm(sandbox());
		const { submission } = await control(sandbox(), 'POST', `/forms/${form.id}/respond`, {});
		const parameters = {
			resource: 'submission',
			operation: 'delete',
			form: formById(form.id),
			submissionId: submission.submissionId,
		};
		const deleted = await runFillout(sandbox(), parameters);
		expect(jsonOf(deleted)).toEqual([{ deleted: true, submissionId: submission.submissionId }]);
		expect(pairedIndex(deleted.items[0])).toBe(0);
		expect((await listDirect(sandbox(), form.id)).totalResponses).toBe(0);

		const again = await runFillout(sandbox(), parameters);
		expect(again.error?.message).toBe(
			`Submission ${submission.submissionId} not found in form ${form.id}`,
		);
	});

	it('refuses an empty submission ID naming the item', async () => {
		const form = await newForm(sandbox());
		const result = await runFillout(sandbox(), {
			resource: 'submission',
			operation: 'delete',
			form: formById(form.id),
			submissionId: '={{ "  " }}',
		});
		expect(result.error?.message).toBe('"Submission ID" is empty [item 0]');
	});
});
