/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: reads the state file with node:fs in a temp folder */
/** --data / dataFile: state survives a restart; without it, a restart is back to the seed. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, freshForm, startHarness, type Json } from './support';

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'fillout-sandbox-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps forms, submissions, deletions, webhooks and tokens across a restart', async () => {
	const dataFile = join(dir, 'state.json');
	const first = await startHarness({ dataFile });
	const formId = await freshForm(first.control, { name: 'Persistent' });
	const made = (await first.control.post(`/forms/${formId}/generate`, { count: 3 })).body
		.submissionIds;
	await first.api.delete(`/forms/${formId}/submissions/${made[1]}`);
	const webhookId = (
		await first.api.post('/webhook/create', { formId, url: 'https://example.com/hook' })
	).body.id;
	const account = (await first.control.post('/accounts', { apiKey: 'kept-key', basePath: '/apac' }))
		.body;
	await first.sandbox.close();

	expect(existsSync(dataFile)).toBe(true);
	expect(readdirSync(dir)).toEqual(['state.json']);
	expect(JSON.parse(readFileSync(dataFile, 'utf8')).version).toBe(1);

	const second = await startHarness({ dataFile });
	try {
		expect(second.sandbox.demo.apiKey).toBe(first.sandbox.demo.apiKey);
		const list = await second.api.get(`/forms/${formId}/submissions`);
		expect(list.body.responses.map((s: Json) => s.submissionId)).toEqual([made[0], made[2]]);
		expect((await second.control.get('/webhooks')).body.map((w: Json) => w.id)).toEqual([
			webhookId,
		]);
		const next = (
			await second.api.post('/webhook/create', { formId, url: 'https://example.com/2' })
		).body.id;
		expect(next).toBeGreaterThan(webhookId);
		const apac = apiClient(`${second.sandbox.origin}${account.basePath}/v1/api`, 'kept-key');
		expect((await apac.get('/forms')).status).toBe(200);
	} finally {
		await second.sandbox.close();
	}
});

it('writes changes before close returns, even right after them', async () => {
	const dataFile = join(dir, 'quick.json');
	const h = await startHarness({ dataFile });
	const formId = await freshForm(h.control, { name: 'Written at close' });
	await h.sandbox.close();
	const saved = JSON.parse(readFileSync(dataFile, 'utf8'));
	expect(saved.forms.map((f: Json) => f.id)).toContain(formId);
});

it('starts from the seed again without a data file', async () => {
	const first = await startHarness();
	const formId = await freshForm(first.control);
	await first.sandbox.close();
	const second = await startHarness();
	try {
		expect((await second.api.get(`/forms/${formId}`)).status).toBe(404);
	} finally {
		await second.sandbox.close();
	}
});

it('reports a state file it cannot write when closing', async () => {
	const h = await startHarness({ dataFile: join(dir, 'missing-folder', 'state.json') });
	await freshForm(h.control);
	await expect(h.sandbox.close()).rejects.toThrow(/ENOENT/);
});
