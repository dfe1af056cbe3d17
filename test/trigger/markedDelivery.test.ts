/**
 * A delivery is marked received (so that a repeat is dropped) only once nothing before its
 * execution can fail: a delivery answered 500 is resent by Fillout, and the resend must
 * start the workflow instead of being dropped as "Already received".
 */
import * as downloadFiles from '../../nodes/Fillout/downloadFiles';
import type { TriggerHarness } from '../harness';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	secretIn,
	useTriggerSandbox,
	webhooksOf,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const body = (formId: string, submissionId: string) => ({
	formId,
	formName: 'Test form',
	submission: { submissionId, questions: [] },
});

async function published(formId: string, parameters = {}): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, instanceUrl, { parameters });
	await trigger.activate();
	return trigger;
}

async function registeredSecret(formId: string): Promise<string> {
	const [webhook] = await webhooksOf(h, formId);
	return secretIn(webhook.url as string)!;
}

it('a delivery whose record could not be signed (the credential read failed) is not marked: its resend starts the workflow', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const secret = await registeredSecret(formId);
	forgetProcessMemory(); // a webhook processor: signing the record reads the credential
	jest
		.spyOn(trigger.credentialsHelper, 'getDecrypted')
		.mockRejectedValueOnce(new Error('the credential store is unavailable'));

	await expect(
		trigger.receive({ query: { secret }, body: body(formId, 'signing-fails') }),
	).rejects.toThrow('the credential store is unavailable');

	const resend = await trigger.receive({ query: { secret }, body: body(formId, 'signing-fails') });
	expect(resend.res.body).toEqual({ message: 'Workflow was started' });
	expect(resend.items.map((item) => item.json.submissionId)).toEqual(['signing-fails']);
	// Once started, it is marked: a third delivery is dropped.
	const third = await trigger.receive({ query: { secret }, body: body(formId, 'signing-fails') });
	expect(third.res.statusCode).toBe(200);
	expect(third.res.body).toEqual({ message: expect.stringContaining('Already received') });
	expect(third.items).toEqual([]);
});

it('with Download Files on, a delivery whose files step throws is forgotten: its resend starts the workflow', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId, { downloadFiles: true });
	const secret = await registeredSecret(formId);
	jest
		.spyOn(downloadFiles, 'itemsWithFiles')
		.mockRejectedValueOnce(new TypeError('a submission the files step cannot read'));

	await expect(
		trigger.receive({ query: { secret }, body: body(formId, 'files-fail') }),
	).rejects.toThrow('a submission the files step cannot read');

	const resend = await trigger.receive({ query: { secret }, body: body(formId, 'files-fail') });
	expect(resend.items.map((item) => item.json.submissionId)).toEqual(['files-fail']);
	const third = await trigger.receive({ query: { secret }, body: body(formId, 'files-fail') });
	expect(third.res.body).toEqual({ message: expect.stringContaining('Already received') });
	expect(third.items).toEqual([]);
});

it('two concurrent deliveries of one submission start the workflow once', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const secret = await registeredSecret(formId);
	forgetProcessMemory(); // both sign the record after a credential read, then race to mark
	const results = await Promise.all(
		[1, 2, 3].map(() => trigger.receive({ query: { secret }, body: body(formId, 'twice') })),
	);
	expect(results.flatMap((r) => r.items).map((item) => item.json.submissionId)).toEqual(['twice']);
});
