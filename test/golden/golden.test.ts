/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads and (on request) writes the golden files beside it */
/**
 * One golden test per operation: a workflow as the editor saves it
 * (`<name>.workflow.json`), run in n8n-core against the sandbox's golden account, and
 * the output of its Fillout node (`<name>.output.json`). Fields Fillout generates (new
 * IDs) are replaced by a placeholder, named per test. `GOLDEN_UPDATE=1` rewrites the
 * outputs instead of comparing them (see README.md here).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { Fillout } from '../../nodes/Fillout/Fillout.node';
import { runWorkflow, type RunWorkflowResult, type SavedWorkflow } from '../harness';
import { control, useSandbox, type Json } from '../nodes/integration/support';

import { GOLDEN_API_KEY, seedGoldenAccount } from './support/seed';

const SET_BY_FILLOUT = '<set by Fillout>';

const sandbox = useSandbox();
beforeAll(async () => await seedGoldenAccount(sandbox()));

const readJson = (file: string): Json => JSON.parse(readFileSync(join(__dirname, file), 'utf8'));

/** The item with each generated field (which must be there) replaced by the placeholder. */
function normalised(json: IDataObject, generated: string[]): IDataObject {
	const copy = { ...json };
	for (const field of generated) {
		expect(copy[field]).toBeDefined();
		copy[field] = SET_BY_FILLOUT;
	}
	return copy;
}

interface GoldenCase {
	name: string;
	/** The Fillout node whose output is the golden output. */
	node: string;
	/** Top-level output fields Fillout generates. */
	generated?: string[];
	/** What the run did at Fillout, checked besides the output. */
	check?: (result: RunWorkflowResult) => Promise<void>;
}

const webhooks = async () => (await control(sandbox(), 'GET', '/webhooks')) as Json[];

/** How many submissions a form of the golden account holds now. */
async function submissionCount(formId: string): Promise<number> {
	const { accounts } = await control(sandbox(), 'GET', '/info');
	const forms = (accounts as Json[]).flatMap((account) => account.forms as Json[]);
	return forms.find((form) => form.formId === formId).submissions as number;
}

const cases: GoldenCase[] = [
	{ name: 'form-get-many', node: 'Get Many Forms' },
	{ name: 'form-get', node: 'Get Form' },
	{ name: 'submission-get-many', node: 'Get Many Submissions' },
	{ name: 'submission-get', node: 'Get Submission' },
	{ name: 'submission-find-by-answer', node: 'Find Submissions' },
	{ name: 'submission-count', node: 'Count Submissions' },
	{
		name: 'submission-create',
		node: 'Create Submissions',
		generated: ['submissionId'],
		check: async () => expect(await submissionCount('signupGold0001')).toBe(2),
	},
	{
		name: 'submission-delete',
		node: 'Delete Submission',
		check: async () => expect(await submissionCount('cleanupGold001')).toBe(0),
	},
	{
		name: 'webhook-create',
		node: 'Create Webhook',
		generated: ['id'],
		check: async (result) => {
			const [{ json }] = result.outputOf('Create Webhook');
			expect(await webhooks()).toContainEqual(
				expect.objectContaining({
					id: json.id,
					formId: 'feedbackGold01',
					url: 'https://n8n.example.com/webhook/fillout-feedback',
				}),
			);
		},
	},
	{
		name: 'webhook-delete',
		node: 'Delete Webhook',
		generated: ['webhookId'],
		check: async (result) => {
			const [created] = result.outputOf('Create Webhook');
			const [deleted] = result.outputOf('Delete Webhook');
			expect(deleted.json.webhookId).toBe(created.json.id);
			expect((await webhooks()).map((webhook) => webhook.id)).not.toContain(created.json.id);
		},
	},
];

describe('golden workflows: one per operation', () => {
	it.each(cases)('$name', async ({ name, node, generated = [], check }) => {
		const workflow = readJson(`${name}.workflow.json`) as SavedWorkflow;
		const result = await runWorkflow({
			workflow,
			nodeTypes: [Fillout],
			credentials: {
				filloutFormsApi: { apiKey: GOLDEN_API_KEY, region: 'custom', baseUrl: sandbox().origin },
			},
		});
		expect(result.errorOf(node)).toBeUndefined();
		const output = result.outputOf(node).map((item) => normalised(item.json, generated));
		const outputFile = `${name}.output.json`;
		if (process.env.GOLDEN_UPDATE === '1') {
			writeFileSync(join(__dirname, outputFile), `${JSON.stringify(output, null, 2)}\n`);
		}
		expect(output).toEqual(readJson(outputFile));
		await check?.(result);
	});
});
