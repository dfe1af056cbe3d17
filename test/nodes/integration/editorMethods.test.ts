import { callListSearch, callLoadOptions, callResourceMapping } from '../../harness';
import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { apiKeyCredentials, demoFormId, formById, useSandbox } from './support';

const sandbox = useSandbox();

describe('Form list (resource locator "From List")', () => {
	it('lists all forms, and filters by name ignoring case', async () => {
		const credentials = apiKeyCredentials(sandbox());
		const all = await callListSearch(Fillout, 'searchForms', { credentials });
		expect(all.results.map((r) => r.name)).toEqual(
			expect.arrayContaining([
				'Customer Feedback Survey',
				'Geography Quiz 🌍',
				'Newsletter signup',
			]),
		);
		const quiz = await callListSearch(Fillout, 'searchForms', { credentials, filter: 'geography' });
		expect(quiz.results).toEqual([
			{
				name: 'Geography Quiz 🌍',
				value: await demoFormId(sandbox(), 'Geography Quiz'),
				url: expect.stringContaining('/editor/'),
			},
		]);
		expect(
			(await callListSearch(Fillout, 'searchForms', { credentials, filter: 'nothing like it' }))
				.results,
		).toEqual([]);
	});

	it('fails with the credential error for a wrong key', async () => {
		await expect(
			callListSearch(Fillout, 'searchForms', {
				credentials: apiKeyCredentials(sandbox(), 'sk_prod_wrong'),
			}),
		).rejects.toThrow('Fillout refused the credentials');
	});
});

describe('Question columns (resource mapper)', () => {
	it('offers one typed column per known question of the chosen form', async () => {
		const formId = await demoFormId(sandbox(), 'Customer Feedback');
		const { fields } = await callResourceMapping(Fillout, 'getQuestionColumns', {
			credentials: apiKeyCredentials(sandbox()),
			parameters: { resource: 'submission', operation: 'create', form: formById(formId) },
		});
		const byName = Object.fromEntries(fields.map((f) => [f.displayName, f]));
		expect(byName['Your name (ShortAnswer)'].type).toBe('string');
		expect(byName['Team size (NumberInput)'].type).toBe('number');
		expect(byName['How would you rate us? (StarRating)'].type).toBe('number');
		expect(byName['Customer since (DatePicker)'].type).toBe('dateTime');
		expect(byName['Subscribe to product updates (Switch)'].type).toBe('boolean');
		expect(byName['Which features do you use? (Checkboxes)'].type).toBe('array');
		expect(byName['Which product do you use most? (MultipleChoice)']).toEqual(
			expect.objectContaining({
				type: 'options',
				options: expect.arrayContaining([{ name: 'Forms', value: 'Forms' }]),
			}),
		);
		// Both "Email" questions are there (ids differ); the unknown HologramInput is not.
		expect(fields.filter((f) => f.displayName === 'Email (EmailInput)')).toHaveLength(2);
		expect(fields.some((f) => f.displayName.includes('HologramInput'))).toBe(false);
		expect(fields.every((f) => /^[A-Za-z0-9]{4}$/.test(f.id))).toBe(true);
	});

	it('reads the form from a URL too', async () => {
		const formId = await demoFormId(sandbox(), 'Job Application');
		const { fields } = await callResourceMapping(Fillout, 'getQuestionColumns', {
			credentials: apiKeyCredentials(sandbox()),
			parameters: {
				resource: 'submission',
				operation: 'create',
				form: { __rl: true, mode: 'url', value: `https://forms.fillout.com/t/${formId}` },
			},
		});
		expect(fields.length).toBeGreaterThan(20);
	});
});

describe('URL parameter, scheduling and payment field lists', () => {
	it('lists the chosen form’s fields by name', async () => {
		const formId = await demoFormId(sandbox(), 'Event Registration');
		const options = {
			credentials: apiKeyCredentials(sandbox()),
			parameters: { resource: 'submission', operation: 'create', form: formById(formId) },
		};
		expect(await callLoadOptions(Fillout, 'getUrlParameters', options)).toEqual([
			{ name: 'utm_source', value: expect.any(String) },
		]);
		expect(await callLoadOptions(Fillout, 'getSchedulingFields', options)).toEqual([
			{ name: 'Intro call', value: expect.any(String) },
		]);
		expect(await callLoadOptions(Fillout, 'getPaymentFields', options)).toEqual([
			{ name: 'Ticket payment', value: expect.any(String) },
		]);
	});
});
