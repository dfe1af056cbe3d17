/**
 * A read that stops at its stop time (the polling trigger's share of n8n's poll budget)
 * wakes for it without waiting for an answer, and its page waiting to be tried again
 * leaves: n8n is handed nothing after the read returned (counted where n8n authenticates
 * each request it sends). The reader is the node's own; only the trigger's judgement of
 * whether what was read may be emitted is fixed to "yes".
 */
import { HarnessCredentialsHelper } from '../harness/credentials';
import { control, newForm, resetStats, useSandbox } from '../nodes/integration/support';
import * as reading from '../../nodes/Fillout/reading/readSubmissions';
import { sleep } from '../../sandbox/timers';
import { pollingTrigger, secondsAgo } from './support';

const sandbox = useSandbox();

let handed = 0;
beforeEach(() => {
	handed = 0;
	const authenticate = HarnessCredentialsHelper.prototype.authenticate;
	jest.spyOn(HarnessCredentialsHelper.prototype, 'authenticate').mockImplementation(async function (
		this: HarnessCredentialsHelper,
		...args
	) {
		handed++;
		return await authenticate.apply(this, args);
	});
});
afterEach(async () => {
	jest.restoreAllMocks();
	await control(sandbox(), 'DELETE', '/faults');
});

async function requestsReached(count: number): Promise<void> {
	while (((await control(sandbox(), 'GET', '/stats')).total as number) < count) await sleep(5);
}

it('a read past its stop time returns then, and its page waiting to be tried again is never sent', async () => {
	const form = await newForm(sandbox());
	await control(sandbox(), 'POST', `/forms/${form.id}/generate`, {
		count: 3_000,
		startTime: secondsAgo(7200).toISOString(),
		stepMs: 1000,
	});
	const returned: number[] = [];
	const readUntil = reading.readSubmissionsUntil;
	jest.spyOn(reading, 'readSubmissionsUntil').mockImplementation(async (...args) => {
		const read = await readUntil(args[0], args[1], args[2], args[3], {
			...args[4],
			mayStop: () => true,
		});
		returned.push(Date.now());
		return read;
	});
	// Each answer takes 300 ms. Once a page is served, the next is refused with a wait of
	// 5 s; the read stops 0.6 × 2 s into the poll.
	await control(sandbox(), 'POST', '/faults', { latencyMs: 300 });
	await resetStats(sandbox());
	const trigger = pollingTrigger(
		sandbox(),
		form.id as string,
		{ startFrom: 'beginning', options: { lateWindowMinutes: 1 } },
		{ pollBudgetMs: 2000 },
	);

	const startedAt = Date.now();
	const polling = trigger.activate();
	await requestsReached(1);
	await control(sandbox(), 'POST', '/faults', {
		failNext: {
			count: 1,
			status: 429,
			method: 'GET',
			pathPattern: 'submissions$',
			retryAfter: '5',
		},
	});
	const polled = await polling;
	const handedAtReturn = handed;
	// The retry would have gone 5 s (and some jitter) after the refusal.
	await sleep(6_500);

	expect(polled.error).toBeUndefined();
	expect((await control(sandbox(), 'GET', '/stats')).refused).toEqual({
		'GET /v1/api/forms/:formId/submissions': 1,
	});
	// Returned before the retry was due, not after it was answered.
	expect(returned[0] - startedAt).toBeLessThan(5_000);
	expect(handed).toBe(handedAtReturn);
}, 30_000);
