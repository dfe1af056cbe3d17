/**
 * A request with a wrong secret is refused without reading the credential: with the
 * record in static data only its secret counts, and without one the secret derived from
 * the credential is read once per process and kept. Reads are counted at the harness's
 * credentials helper (n8n-core's getCredentials decrypts through `getDecrypted`).
 */
import type { TriggerHarness } from '../harness';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	n8nLogger,
	slots,
	useTriggerSandbox,
	forgetProcessMemory,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const REQUESTS = 200;
const AT_ONCE = 50;

/** `count` deliveries with a wrong secret, `AT_ONCE` at a time; their status codes. */
async function wrongSecrets(trigger: TriggerHarness, formId: string, count = REQUESTS) {
	const statuses: number[] = [];
	for (let start = 0; start < count; start += AT_ONCE) {
		const batch = Array.from({ length: Math.min(AT_ONCE, count - start) }, (_, i) =>
			trigger.receive({
				query: { secret: `wrong-${start + i}`.padEnd(43, 'x') },
				body: { formId, submission: { submissionId: `w${start + i}`, questions: [] } },
			}),
		);
		for (const { res } of await Promise.all(batch)) statuses.push(res.statusCode);
	}
	return statuses;
}

function countReads(trigger: TriggerHarness) {
	return jest.spyOn(trigger.credentialsHelper, 'getDecrypted');
}

async function published(formId: string): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	return trigger;
}

it('with the record in static data: no credential read for any number of wrong secrets, in a fresh process', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	forgetProcessMemory(); // a webhook processor that never saw this trigger
	const reads = countReads(trigger);

	const statuses = await wrongSecrets(trigger, formId);

	expect(statuses).toEqual(Array(REQUESTS).fill(401));
	expect(reads).toHaveBeenCalledTimes(0);
	// The right secret still starts the workflow.
	const right = await trigger.receive({
		query: { secret: slots(trigger).production!.secret },
		body: { formId, submission: { submissionId: 'ok', questions: [] } },
	});
	expect(right.items).toHaveLength(1);
});

it('with the record lost: one credential read per process for all of them, none once it is known', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const { secret } = slots(trigger).production!;
	trigger.staticData = { global: { count: 1 } }; // a worker saved over it
	forgetProcessMemory();
	jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);
	const reads = countReads(trigger);

	expect(await wrongSecrets(trigger, formId)).toEqual(Array(REQUESTS).fill(401));
	expect(reads).toHaveBeenCalledTimes(1);
	expect(await wrongSecrets(trigger, formId)).toEqual(Array(REQUESTS).fill(401));
	expect(reads).toHaveBeenCalledTimes(1);

	// The registration's (derived) secret is still accepted without a record.
	const right = await trigger.receive({
		query: { secret },
		body: { formId, submission: { submissionId: 'ok', questions: [] } },
	});
	expect(right.items).toHaveLength(1);
	expect(reads).toHaveBeenCalledTimes(1);
});

it('a credential read that fails is not kept: the next delivery reads again', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const { secret } = slots(trigger).production!;
	trigger.staticData = {};
	forgetProcessMemory();
	jest.spyOn(n8nLogger(), 'error').mockImplementation(() => undefined);
	const reads = countReads(trigger).mockRejectedValueOnce(new Error('database unavailable'));
	const deliver = async (submissionId: string) =>
		await trigger.receive({
			query: { secret },
			body: { formId, submission: { submissionId, questions: [] } },
		});

	await expect(deliver('r1')).rejects.toThrow('database unavailable');
	expect((await deliver('r2')).items).toHaveLength(1);
	expect(reads).toHaveBeenCalledTimes(2);
});
