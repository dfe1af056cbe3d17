/**
 * Each request reads its credential once, before it asks the pacer for its turn, and hands
 * it to n8n's helper, which then reads nothing more. In a poll n8n 2.41 takes up to half a
 * second to read a credential (a fresh expression isolate each time), and a read after the
 * turn held a request that already counted against the limit: reads were twice the
 * requests (docs/rate-limits.md, "Reading the credential"). Counted where n8n-core asks
 * the credentials helper, through the real engine, against the sandbox.
 */
import { HarnessCredentialsHelper } from '../../harness/credentials';
import { pollingTrigger, secondsAgo } from '../../polling/support';
import {
	control,
	formById,
	generate,
	newForm,
	resetStats,
	runFillout,
	useSandbox,
} from './support';

const sandbox = useSandbox();

let reads = 0;
beforeEach(() => {
	reads = 0;
	const getDecrypted = HarnessCredentialsHelper.prototype.getDecrypted;
	jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted').mockImplementation(async function (
		this: HarnessCredentialsHelper,
		...args
	) {
		reads++;
		return await getDecrypted.apply(this, args);
	});
});
afterEach(() => jest.restoreAllMocks());

async function requestsOfDemoKey(): Promise<number> {
	const stats = await control(sandbox(), 'GET', '/stats');
	return stats.byKey[sandbox().demo.apiKey].total as number;
}

async function formWith(count: number): Promise<string> {
	const form = await newForm(sandbox());
	await generate(sandbox(), form.id as string, {
		count,
		startTime: secondsAgo(7200).toISOString(),
		stepMs: 1000,
	});
	await resetStats(sandbox());
	return form.id as string;
}

it("Return All: one credential read per request, none by n8n's helper", async () => {
	const formId = await formWith(1000);
	const result = await runFillout(sandbox(), {
		resource: 'submission',
		operation: 'getMany',
		form: formById(formId),
		returnAll: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1000);
	const requests = await requestsOfDemoKey();
	// The first page, the range probes and their pages: several, so a double read shows.
	expect(requests).toBeGreaterThanOrEqual(4);
	expect(reads).toBe(requests);
});

it("the polling trigger's backfill: one credential read per request", async () => {
	const formId = await formWith(1000);
	const trigger = pollingTrigger(sandbox(), formId, { startFrom: 'beginning' });
	const polled = await trigger.activate();
	expect(polled.error).toBeUndefined();
	expect(polled.items).toHaveLength(1000);
	const requests = await requestsOfDemoKey();
	expect(requests).toBeGreaterThanOrEqual(5);
	expect(reads).toBe(requests);
});
