/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: IMPORT_SEED / IMPORT_CASES from the environment replay cases */
/**
 * Model-based randomized test of Submission → Create with requests in flight: hundreds of
 * seeded imports (1 or 2 forms, with or without Continue On Fail) through a server in front
 * of the sandbox that answers in a random order and injects faults by what each request
 * holds: 429, server errors and dropped connections before or after processing, answers
 * listing fewer submissions, rejected entries, requests refused as a whole. Invariant: each
 * item is reported exactly once; "created" (with its ID) is what the sandbox stored, less
 * what may or may not have been created; "may or may not" is exactly the items whose last
 * request's outcome the node could not know; "not sent" items never reached the server;
 * without Continue On Fail no request starts after a failure is known; at most 5 requests
 * are open at once; with no fault, ceil(n/10) requests per form and the output in input
 * order. Replay one case: IMPORT_SEED=<seed> npx jest submissionCreateInFlight
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Prng } from '../../../sandbox/prng';
import {
	CreateFaultServer,
	type CasePlan,
	type CreateFault,
	type CreateRecord,
} from './createFaultServer';
import {
	formById,
	listDirect,
	newForm,
	pairedIndex,
	runFillout,
	useSandbox,
	type Json,
} from './support';

/** Requests the node keeps in flight (written here, not imported: the test states the rule). */
const IN_FLIGHT = 5;
const CASES = Number(process.env.IMPORT_CASES ?? 300);
const ONLY_SEED =
	process.env.IMPORT_SEED === undefined ? undefined : Number(process.env.IMPORT_SEED);

// The sandbox announces 1,000 requests per second: the pacer never waits, so the order of
// requests is the node's own (the pacer at 5 per second has tests of its own).
const sandbox = useSandbox({ rateLimit: 1000 });
const server = new CreateFaultServer(sandbox);
beforeAll(async () => await server.start());
afterAll(async () => await server.close());

/** `refusedWithRejected`: refused for sharing its request with a rejected item. */
type Category =
	| 'created'
	| 'uncertain'
	| 'rejected'
	| 'refusedWithRejected'
	| 'refused'
	| 'notSent';

interface Case {
	seed: number;
	count: number;
	/** Each item's form (0 or 1). */
	formOf: number[];
	continueOnFail: boolean;
	/** Chance that a request meets a fault. */
	faultRate: number;
}

function caseOf(seed: number): Case {
	const random = new Prng(`case ${seed}`);
	const count = random.int(1, random.chance(0.5) ? 95 : 45);
	const twoForms = random.chance(0.3);
	return {
		seed,
		count,
		formOf: Array.from({ length: count }, () => (twoForms ? random.int(0, 1) : 0)),
		continueOnFail: random.chance(0.3),
		faultRate: random.pick([0, 0.1, 0.25, 0.5]),
	};
}

/** The node's requests: per form in the order of its first item, 10 items each. */
function batchesOf(c: Case): number[][] {
	const byForm = new Map<number, number[]>();
	c.formOf.forEach((form, item) => byForm.set(form, [...(byForm.get(form) ?? []), item]));
	return [...byForm.values()].flatMap((items) =>
		Array.from({ length: Math.ceil(items.length / 10) }, (_, i) =>
			items.slice(i * 10, i * 10 + 10),
		),
	);
}

function faultOf(c: Case, items: number[], occurrence: number): CreateFault {
	const random = new Prng(`fault ${c.seed} ${items.join(',')} ${occurrence}`);
	if (!random.chance(c.faultRate)) return { kind: 'ok' };
	// A 429 twice at most per request, so that the retries' waits stay short.
	const kinds = occurrence < 2 ? FAULT_KINDS : FAULT_KINDS.filter((k) => k !== 'rateLimited');
	const kind = random.pick(kinds);
	switch (kind) {
		case 'serverError':
		case 'drop':
			return { kind, processed: random.chance(0.5) };
		case 'truncate':
			return { kind, keep: random.int(0, items.length - 1) };
		case 'reject':
			return {
				kind,
				positions: random.sample(
					items.map((_, p) => p),
					random.int(1, 2),
				),
			};
		case 'refuse':
			return { kind, status: random.pick([401, 404] as const) };
		default:
			return { kind };
	}
}

const FAULT_KINDS: Array<CreateFault['kind']> = [
	'rateLimited',
	'serverError',
	'drop',
	'truncate',
	'reject',
	'reject',
	'rejectRequest',
	'refuse',
];

function planOf(c: Case): CasePlan {
	return {
		faultOf: ({ items, occurrence }) => faultOf(c, items, occurrence),
		latencyOf: ({ items, occurrence }) =>
			new Prng(`latency ${c.seed} ${items.join(',')} ${occurrence}`).int(0, 25),
		burst: Math.min(IN_FLIGHT, batchesOf(c).length),
		// Long enough for the node to read a failure before any later answer.
		holdAfterFailureMs: c.continueOnFail ? 0 : 250,
	};
}

/** An item's fate in one request, as the service knows it. */
function categoryIn(record: CreateRecord, position: number): Category | 'rateLimited' {
	const { fault } = record;
	switch (fault.kind) {
		case 'ok':
			return record.processed ? 'created' : 'refused';
		case 'rateLimited':
			return 'rateLimited';
		case 'serverError':
		case 'drop':
			return 'uncertain';
		case 'truncate':
			return position < fault.keep ? 'created' : 'uncertain';
		case 'reject':
			return fault.positions.includes(position) ? 'rejected' : 'refusedWithRejected';
		default:
			return 'refused';
	}
}

/** What the service's records say became of each item: its last request decides. */
function expectedCategories(
	count: number,
	records: CreateRecord[],
): Map<number, Category | 'rateLimited'> {
	const expected = new Map<number, Category | 'rateLimited'>();
	for (let item = 0; item < count; item++) expected.set(item, 'notSent');
	for (const record of records)
		record.items.forEach((item, position) => expected.set(item, categoryIn(record, position)));
	return expected;
}

interface Reported {
	category: Category;
	submissionId?: string;
}

/** "items 0–3, 5" → [0, 1, 2, 3, 5]. */
function itemNumbers(text: string): number[] {
	return text
		.replace(/^items? /, '')
		.split(', ')
		.flatMap((part) => {
			const [from, to = from] = part.split('–').map(Number);
			return Array.from({ length: to - from + 1 }, (_, i) => from + i);
		});
}

/** Each item's category as the stopping error's description reports it; duplicates throw. */
function reportedByError(description: string): Map<number, Reported> {
	const reported = new Map<number, Reported>();
	const add = (item: number, entry: Reported) => {
		if (reported.has(item)) throw new Error(`item ${item} is reported twice: ${description}`);
		reported.set(item, entry);
	};
	const created = /Created \(item → submission ID\): (.+?)\.(?: |$)/.exec(description);
	for (const pair of created?.[1].split(', ') ?? []) {
		const [item, submissionId] = pair.split(' → ');
		add(Number(item), { category: 'created', submissionId });
	}
	const uncertain = /May or may not have been created: (items? [\d–, ]+)\./.exec(description);
	for (const item of uncertain ? itemNumbers(uncertain[1]) : [])
		add(item, { category: 'uncertain' });
	const notCreated = /Not created: (.+?)\.(?: |$)/.exec(description)?.[1] ?? '';
	for (const [, items, why] of notCreated.matchAll(/(items? [\d–, ]+) \(([^)]*)\)/g)) {
		for (const item of itemNumbers(items)) add(item, { category: notCreatedCategory(why) });
	}
	return reported;
}

function notCreatedCategory(why: string): Category {
	if (why === 'rejected') return 'rejected';
	if (why === 'not sent') return 'notSent';
	return why.startsWith('sent in the same request') ? 'refusedWithRejected' : 'refused';
}

/** Each item's category as the output items say (Continue On Fail, or no failure). */
function reportedByOutput(items: INodeExecutionData[]): Map<number, Reported> {
	const reported = new Map<number, Reported>();
	for (const item of items) {
		const index = pairedIndex(item)!;
		if (reported.has(index)) throw new Error(`item ${index} has two output items`);
		const error = item.json.error as string | undefined;
		if (error === undefined)
			reported.set(index, { category: 'created', submissionId: item.json.submissionId as string });
		else if (/may or may not|did not return the created submission/.test(error))
			reported.set(index, { category: 'uncertain' });
		else if (/^Fillout rejected (?!the request)/.test(error))
			reported.set(index, { category: 'rejected' });
		else if (/^Not created because items? [\d–, ]+ of the same request/.test(error))
			reported.set(index, { category: 'refusedWithRejected' });
		else reported.set(index, { category: 'refused' });
	}
	return reported;
}

/** The submission IDs the sandbox stored, by item. */
async function storedOf(formIds: string[]): Promise<Map<number, string>> {
	const stored = new Map<number, string>();
	for (const formId of formIds) {
		const { responses } = await listDirect(sandbox(), formId);
		for (const submission of responses as Json[]) {
			const name = String((submission.questions as Json[])[0].value);
			stored.set(Number(/^item-(\d+)$/.exec(name)?.[1]), submission.submissionId);
		}
	}
	return stored;
}

async function runCase(c: Case, plan: CasePlan = planOf(c)) {
	const twoForms = c.formOf.some((form) => form === 1);
	const forms = await Promise.all(
		(twoForms ? [0, 1] : [0]).map(
			async () => await newForm(sandbox(), { questions: [{ name: 'Name', type: 'ShortAnswer' }] }),
		),
	);
	const formIds = forms.map((form) => form.id as string);
	const parameters: INodeParameters = {
		resource: 'submission',
		operation: 'create',
		form: twoForms ? { __rl: true, mode: 'id', value: '={{ $json.form }}' } : formById(formIds[0]),
		columns: { mappingMode: 'autoMapInputData', value: null },
	};
	server.startCase(plan);
	const result = await runFillout(sandbox(), parameters, {
		inputItems: c.formOf.map((form, item) => ({ Name: `item-${item}`, form: formIds[form] })),
		continueOnFail: c.continueOnFail,
		credentials: {
			filloutFormsApi: { apiKey: sandbox().demo.apiKey, region: 'custom', baseUrl: server.url },
		},
	});
	const records = [...server.records];
	return { result, records, maxOpen: server.maxOpen, stored: await storedOf(formIds) };
}

/** The first item the error names: the first failure of the earliest failed request. */
function headlineItem(batches: number[][], records: CreateRecord[]): number | undefined {
	for (const batch of batches) {
		const last = records.filter((r) => r.items.join() === batch.join()).at(-1);
		if (!last?.finalFailure) continue;
		const { fault } = last;
		if (fault.kind === 'reject') return batch[Math.min(...fault.positions)];
		if (fault.kind === 'truncate') return batch[fault.keep];
		return batch[0];
	}
	return undefined;
}

async function checkCase(c: Case) {
	const { result, records, maxOpen, stored } = await runCase(c);
	const batches = batchesOf(c);
	const expected = expectedCategories(c.count, records);
	const failed = records.some((record) => record.finalFailure);

	if (!c.continueOnFail && failed) expect(result.error?.description).toBeDefined();
	else expect(result.error).toBeUndefined();
	const reported = result.error
		? reportedByError(result.error.description ?? '')
		: reportedByOutput(result.items);
	// Each item exactly once, in the category the service's side of the story gives it.
	expect(new Map([...reported].map(([item, entry]) => [item, entry.category]))).toEqual(expected);
	// "Created" with the ID the sandbox stored; what else it stored may or may not have been created.
	for (const [item, entry] of reported) {
		if (entry.category === 'created') expect(entry.submissionId).toBe(stored.get(item));
		else if (stored.has(item)) expect(entry.category).toBe('uncertain');
	}
	const processed = records.filter((r) => r.processed).flatMap((r) => r.items);
	expect([...stored.keys()].sort((a, b) => a - b)).toEqual(processed.sort((a, b) => a - b));

	expect(maxOpen).toBe(Math.min(IN_FLIGHT, batches.length));
	const sent = batches.filter((batch) => records.some((r) => r.items[0] === batch[0]));
	expect(sent).toEqual(batches.slice(0, sent.length));
	if (!c.continueOnFail && failed) {
		// A request starts only when one before it succeeded while no failure was known.
		const firstFailure = Math.min(
			...records.filter((r) => r.finalFailure).map((r) => r.answeredAs!),
		);
		const succeededBefore = records.filter(
			(r) => r.succeeded && r.answeredAs! < firstFailure,
		).length;
		expect(sent.length).toBeLessThanOrEqual(Math.min(IN_FLIGHT, batches.length) + succeededBefore);
		expect(result.error?.context?.itemIndex).toBe(headlineItem(batches, records));
	} else {
		expect(sent.length).toBe(batches.length);
		expect(result.items.map(pairedIndex)).toEqual(c.formOf.map((_, item) => item));
	}
	if (records.every((record) => record.fault.kind === 'ok')) {
		expect(records).toHaveLength(batches.length);
		const names = result.items.map((item) => (item.json.questions as Json[])[0].value);
		expect(names).toEqual(c.formOf.map((_, item) => `item-${item}`));
	}
}
describe('requests in flight when a request fails (no Continue On Fail)', () => {
	const ok: CreateFault = { kind: 'ok' };
	/** A case without randomness: `faults` by the request's first item, the rest succeed. */
	const scripted = (count: number, faults: Record<number, CreateFault>): [Case, CasePlan] => {
		const c: Case = {
			seed: 0,
			count,
			formOf: Array(count).fill(0),
			continueOnFail: false,
			faultRate: 0,
		};
		const plan: CasePlan = {
			faultOf: ({ items }) => faults[items[0]] ?? ok,
			// The failures answer first; the others after them (and after the hold).
			latencyOf: ({ items }) => (faults[items[0]] ? 0 : 30),
			burst: IN_FLIGHT,
			holdAfterFailureMs: 250,
		};
		return [c, plan];
	};

	it('the first request refused: the four in flight are created and listed with their IDs, nothing else is sent', async () => {
		const [c, plan] = scripted(100, { 0: { kind: 'refuse', status: 401 } });
		const { result, records, stored } = await runCase(c, plan);
		expect(records.map((record) => record.items[0])).toEqual([0, 10, 20, 30, 40]);
		expect(result.error?.message).toBe(
			'Import stopped after items 10–49 were created: Fillout refused the credentials [item 0]',
		);
		const ids = Array.from({ length: 40 }, (_, i) => `${i + 10} → ${stored.get(i + 10)}`);
		expect(result.error?.description).toContain(
			`Created (item → submission ID): ${ids.join(', ')}. ` +
				'Not created: items 0–9 (Fillout refused their request), items 50–99 (not sent).',
		);
		expect(stored.size).toBe(40);
	});

	it('two requests in flight fail, one rejected and one whose answer is lost: both are accounted for', async () => {
		const [c, plan] = scripted(60, {
			10: { kind: 'reject', positions: [3] },
			30: { kind: 'drop', processed: true },
		});
		const { result, stored } = await runCase(c, plan);
		const createdItems = [...Array(10).keys()]
			.flatMap((i) => [i, i + 20, i + 40])
			.sort((a, b) => a - b);
		const ids = createdItems.map((item) => `${item} → ${stored.get(item)}`);
		expect(result.error?.message).toBe(
			'Import stopped after items 0–9, 20–29, 40–49 were created: Fillout rejected question "Name" (id): No question with id "no-such-question" exists on this form [item 13]',
		);
		expect(result.error?.description).toContain(
			`Created (item → submission ID): ${ids.join(', ')}. ` +
				'May or may not have been created: items 30–39. ' +
				'Not created: item 13 (rejected), items 10–12, 14–19 (sent in the same request, which Fillout refused as a whole), items 50–59 (not sent).',
		);
		// The lost answer's submissions were stored: "may or may not" was right to say so.
		expect([...stored.keys()].sort((a, b) => a - b)).toEqual(
			[...createdItems, ...Array.from({ length: 10 }, (_, i) => 30 + i)].sort((a, b) => a - b),
		);
	});
});

const seeds =
	ONLY_SEED !== undefined ? [ONLY_SEED] : Array.from({ length: CASES }, (_, i) => i + 1);

it(`${seeds.length} seeded imports with faults: every item reported once, as the service saw it`, async () => {
	for (const seed of seeds) {
		const c = caseOf(seed);
		const failure = await checkCase(c).then(
			() => undefined,
			(error: Error) => error,
		);
		if (failure) {
			const replay = `Case ${JSON.stringify({ ...c, formOf: undefined })} (replay: IMPORT_SEED=${seed})`;
			throw new Error(`${replay}:\n${failure.message}`);
		}
	}
}, 600_000);
