/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: routes the official client's global fetch to the sandbox by rewriting its fixed host */
/**
 * Conformance: Fillout's own JavaScript client (@fillout/api 1.5.0), written by someone else,
 * drives the sandbox. The client has no base-URL option (it builds https://api.fillout.com,
 * eu-api…, ca-api… itself) and calls the global fetch, so the test rewrites those hosts to the
 * sandbox at the transport level; responses are the sandbox's own, never mocked.
 */
import { Fillout } from '@fillout/api';
import { useHarness } from './support';

const realFetch = globalThis.fetch;
const hostsSeen: string[] = [];

const h = useHarness();
beforeAll(async () => {
	const regionRoots: Record<string, string> = {
		'https://api.fillout.com': h.sandbox.origin,
		'https://eu-api.fillout.com': `${h.sandbox.origin}/eu`,
	};
	globalThis.fetch = (input: string | URL | Request, init?: RequestInit) => {
		const url = String(input instanceof Request ? input.url : input);
		const host = Object.keys(regionRoots).find((root) => url.startsWith(`${root}/`));
		if (!host) throw new Error(`the official client called an unexpected address: ${url}`);
		hostsSeen.push(host);
		return realFetch(regionRoots[host] + url.slice(host.length), init);
	};
});
afterAll(async () => {
	globalThis.fetch = realFetch;
});

const client = () => new Fillout(h.sandbox.demo.apiKey);

it('lists forms and reads metadata', async () => {
	const forms = await client().getForms();
	expect(forms.map((f) => f.formId)).toEqual(h.sandbox.demo.formIds);
	expect(forms.every((f) => Array.isArray(f.tags))).toBe(true);
	const quiz = await client().getForm(h.sandbox.demo.formIds[2]);
	expect(quiz.id).toBe(h.sandbox.demo.formIds[2]);
	expect(quiz.questions.length).toBeGreaterThan(0);
	expect(hostsSeen).toContain('https://api.fillout.com');
});

it('lists submissions with every parameter it knows', async () => {
	const formId = h.sandbox.demo.formIds[0];
	const everything = await client().getSubmissions(formId, { limit: 150, includePreview: true });
	const page = await client().getSubmissions(formId, {
		limit: 5,
		offset: 2,
		sort: 'desc',
		status: 'finished',
		includeEditLink: true,
		afterDate: '2024-01-01T00:00:00.000Z',
		beforeDate: '2030-01-01T00:00:00.000Z',
	});
	expect(page.responses).toHaveLength(5);
	expect(page.pageCount).toBe(Math.ceil(page.totalResponses / 5));
	expect(page.responses[0].editLink).toContain('session=');
	expect(everything.totalResponses).toBeGreaterThan(page.totalResponses);
	const inProgress = await client().getSubmissions(formId, { status: 'in_progress' });
	expect(inProgress.totalResponses).toBeGreaterThan(0);
	const needle = page.responses[0].submissionId;
	const found = await client().getSubmissions(formId, { search: needle });
	expect(found.responses.map((s) => s.submissionId)).toEqual([needle]);
});

it('creates, reads and deletes a submission', async () => {
	const form = await client().getForm(h.sandbox.demo.formIds[3]);
	const created = (await client().createSubmissions(form.id, [
		{
			questions: [{ id: form.questions[0].id, value: 'Grace Hopper' }],
			submissionTime: '2024-08-01T09:00:00Z',
		},
	])) as unknown as { submissions: Array<{ submissionId: string }> };
	const id = created.submissions[0].submissionId;
	const one = await client().getSubmission(form.id, id, { includeEditLink: true });
	expect(one.questions[0].value).toBe('Grace Hopper');
	expect(one.editLink).toBe(`${h.sandbox.origin}/t/${form.id}?session=${id}`);
	await client().deleteSubmission(form.id, id);
	await expect(client().getSubmission(form.id, id)).rejects.toThrow(`Submission ${id} not found`);
});

it('surfaces the sandbox’s validation issues through its error', async () => {
	const formId = h.sandbox.demo.formIds[3];
	await expect(
		client().createSubmissions(
			formId,
			Array.from({ length: 11 }, () => ({ questions: [] })),
		),
	).rejects.toThrow(/Array must contain at most 10 element\(s\)/);
});

it('creates and deletes webhooks', async () => {
	const formId = h.sandbox.demo.formIds[0];
	const { id } = await client().createWebhook(formId, 'https://example.com/official-client');
	expect(Number.isInteger(id)).toBe(true);
	await client().deleteWebhook(id);
	await expect(client().deleteWebhook(id)).rejects.toThrow(`Webhook ${id} not found`);
});

it('reaches the EU region with region: "eu"', async () => {
	const eu = new Fillout(h.sandbox.demo.euApiKey, { region: 'eu' });
	const forms = await eu.getForms();
	expect(forms.length).toBeGreaterThan(0);
	expect(forms.map((f) => f.formId)).not.toContain(h.sandbox.demo.formIds[0]);
	expect(hostsSeen).toContain('https://eu-api.fillout.com');
});

it('reports the live credential message for a wrong key', async () => {
	await expect(new Fillout('sk_prod_not_a_real_key').getForms()).rejects.toThrow('API Key invalid');
	await expect(new Fillout(h.sandbox.demo.euApiKey).getForms()).rejects.toThrow('API Key invalid');
});
