/**
 * A delivery refused with 401 is logged: the first per trigger slot, then at most one an
 * hour (with how many were refused in between), saying what the request carried and the
 * likely causes, never a secret. The throttle lives in process memory.
 */
import type { TriggerHarness } from '../harness';
import { freshForm, type Harness } from '../sandbox/support';
import {
	filloutTrigger,
	forgetProcessMemory,
	n8nLogger,
	slots,
	useTriggerSandbox,
} from './support';

const env = useTriggerSandbox();
let h: Harness;
let instanceUrl: string;
beforeAll(() => ({ h, instanceUrl } = env));
beforeEach(forgetProcessMemory);

const HOUR = 60 * 60 * 1000;
const body = (formId: string, submissionId: string) => ({
	formId,
	submission: { submissionId, questions: [] },
});

/**
 * performance.now() (the throttle's clock) stands still at `now` ms until moved. Whole
 * milliseconds: with a fraction, (start + HOUR) - start can fall just short of an hour.
 */
function clock() {
	const state = { now: Math.floor(performance.now()) };
	jest.spyOn(performance, 'now').mockImplementation(() => state.now);
	return state;
}

async function published(formId: string): Promise<TriggerHarness> {
	const trigger = filloutTrigger(h, formId, instanceUrl);
	await trigger.activate();
	return trigger;
}

const refusalLogs = (warn: jest.SpyInstance) =>
	warn.mock.calls.filter(([message]) => String(message).includes('refused a delivery'));

it('logs the first refusal with its likely cause, then nothing for an hour, then one with the count', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const { secret } = slots(trigger).production!;
	const time = clock();
	const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
	const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;

	const first = await trigger.receive({ query: { secret: wrong }, body: body(formId, 'a') });
	expect(first.res.statusCode).toBe(401);
	expect(refusalLogs(warn)).toHaveLength(1);
	const [message, meta] = refusalLogs(warn)[0];
	expect(message).toContain('production webhook of workflow workflow-');
	expect(message).toContain('it carried a wrong `secret` query parameter');
	expect(message).toContain('Webhook URLs panel lacks it');
	expect(message).toContain('drops query strings');
	expect(message).not.toContain('more since');
	expect(meta).toMatchObject({ slot: 'production', presented: 'wrong', unlogged: 0 });
	const logged = JSON.stringify(warn.mock.calls);
	expect(logged).not.toContain(secret);
	expect(logged).not.toContain(wrong);

	const start = time.now;
	for (let i = 0; i < 5; i++) {
		time.now += (HOUR - 5) / 5; // just under an hour in all
		await trigger.receive({ query: {}, body: body(formId, `b${i}`) });
		await trigger.receive({ query: { secret: [secret, secret] }, body: body(formId, `c${i}`) });
	}
	expect(refusalLogs(warn)).toHaveLength(1);

	time.now = start + HOUR;
	await trigger.receive({ query: { secret: '' }, body: body(formId, 'd') });
	expect(refusalLogs(warn)).toHaveLength(2);
	expect(refusalLogs(warn)[1][0]).toContain('it carried no `secret` query parameter (and 10 more');
	expect(refusalLogs(warn)[1][1]).toMatchObject({ presented: 'none', unlogged: 10 });
	// Accepted deliveries are never logged as refused.
	const ok = await trigger.receive({ query: { secret }, body: body(formId, 'e') });
	expect(ok.items).toHaveLength(1);
	expect(refusalLogs(warn)).toHaveLength(2);
});

it('several values of the parameter are named as such', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const { secret } = slots(trigger).production!;
	const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
	await trigger.receive({ query: { secret: [secret, 'x'] }, body: body(formId, 'a') });
	expect(refusalLogs(warn)[0][0]).toContain('it carried more than one `secret` query parameter');
	expect(JSON.stringify(warn.mock.calls)).not.toContain(secret);
});

it('each trigger and each slot has its own first message', async () => {
	const formA = await freshForm(h.control);
	const formB = await freshForm(h.control);
	const a = await published(formA);
	const b = await published(formB);
	await a.activate({ mode: 'manual' });
	const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);

	await a.receive({ query: {}, body: body(formA, '1') });
	await a.receive({ query: {}, body: body(formA, '2') });
	await b.receive({ query: {}, body: body(formB, '1') });
	await a.receive({ query: {}, body: body(formA, '3') }, { mode: 'manual' });

	expect(refusalLogs(warn).map(([, meta]) => [meta.workflowId, meta.slot])).toEqual([
		[`workflow-${formA}`, 'production'],
		[`workflow-${formB}`, 'production'],
		[`workflow-${formA}`, 'test'],
	]);
});

it('a restarted process logs its first refusal again', async () => {
	const formId = await freshForm(h.control);
	const trigger = await published(formId);
	const warn = jest.spyOn(n8nLogger(), 'warn').mockImplementation(() => undefined);
	await trigger.receive({ query: {}, body: body(formId, '1') });
	forgetProcessMemory();
	await trigger.receive({ query: {}, body: body(formId, '2') });
	expect(refusalLogs(warn)).toHaveLength(2);
});
