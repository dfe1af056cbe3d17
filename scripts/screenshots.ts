/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- dev script, not node code: `npm run screenshots` starts its own n8n and sandbox, writes PNGs with node:fs/path and reports on process.stdout */
/**
 * `npm run screenshots`: regenerates docs/images/*.png. Starts its own n8n (the package
 * packed and installed as a community package) and sandbox through the e2e library,
 * prepares workflows over REST, and photographs the editor in headless Chromium at
 * 1280×800:
 *
 *   node-operations.png       the node creator after a search for "Fillout": the actions
 *   get-many-submissions.png  Submission → Get Many configured (Return All, Filters,
 *                             Options) and executed, with its output
 *   trigger.png               the Fillout Trigger's panel with a test event received
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

import { launchChromium } from '../test/e2e/browser/support/chromium';
import {
	dismissPopups,
	openNode,
	openWorkflow,
	searchNodeCreator,
	useSession,
} from '../test/e2e/browser/support/editor';
import {
	createApiKeyCredential,
	FilloutApi,
	NODE_TYPES,
	REPO_ROOT,
	startE2eEnvironment,
	waitFor,
	type CredentialRef,
	type E2eEnvironment,
	type NodeDefinition,
} from '../test/e2e/support';

const OUT = join(REPO_ROOT, 'docs', 'images');
const FORM_NAME = 'Customer Feedback Survey';

function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

const manualTrigger: NodeDefinition = {
	id: randomUUID(),
	name: 'When clicking ‘Execute workflow’',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function credentialsOf(credential: CredentialRef) {
	return { [credential.type]: { id: credential.id, name: credential.name } };
}

async function shoot(page: Page, name: string): Promise<void> {
	// Toasts ("Node executed successfully") would cover the output.
	for (const close of await page.locator('.el-notification__closeBtn:visible').all()) {
		await close.click();
	}
	await page.locator('.el-notification').first().waitFor({ state: 'detached' });
	// Hints n8n pops up by itself ("You can pin this output…").
	await page.addStyleTag({ content: '.el-popper[role="tooltip"] { display: none !important; }' });
	await page.mouse.move(0, 799);
	await page.waitForTimeout(400); // transitions and tooltips settle
	const path = join(OUT, name);
	await page.screenshot({ path });
	say(`  ${path}`);
}

/** More room for the output: the parameters panel dragged to the left (n8n keeps the layout). */
async function widenOutput(page: Page, ndv: Locator): Promise<void> {
	const box = await ndv.locator('[data-test-id="panel-drag-button"]').boundingBox();
	if (!box) return;
	const y = box.y + box.height / 2;
	await page.mouse.move(box.x + box.width / 2, y);
	await page.mouse.down();
	await page.mouse.move(377, y, { steps: 10 });
	await page.mouse.up();
}

/** The form parameter in "From list" mode, as the editor saves a pick from the list. */
function fromList(form: { formId: string; name: string }) {
	return { __rl: true, mode: 'list', value: form.formId, cachedResultName: form.name };
}

/** Saves `first → second` as a workflow, opens it, and opens the node named `focus`. */
async function openChain(
	env: E2eEnvironment,
	page: Page,
	name: string,
	[first, second]: [NodeDefinition, NodeDefinition],
	focus: string,
): Promise<Locator> {
	const workflow = await env.client.createWorkflow({
		name,
		nodes: [first, second],
		connections: { [first.name]: { main: [[{ node: second.name, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1', timezone: 'UTC' },
	});
	await openWorkflow(page, env.n8n.url, workflow.id);
	await dismissPopups(page);
	return await openNode(page, focus);
}

async function nodeOperations(env: E2eEnvironment, page: Page): Promise<void> {
	const workflow = await env.client.createWorkflow({
		name: 'Fillout in the node panel',
		nodes: [manualTrigger],
		connections: {},
	});
	await openWorkflow(page, env.n8n.url, workflow.id);
	await dismissPopups(page);
	const creator = await searchNodeCreator(page, 'Fillout');
	await creator
		.locator('[data-test-id="node-creator-item-name"]', { hasText: /^Fillout$/ })
		.first()
		.click();
	await creator
		.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Get many submissions' })
		.waitFor();
	await shoot(page, 'node-operations.png');
}

async function getManySubmissions(
	env: E2eEnvironment,
	page: Page,
	credential: CredentialRef,
	form: { formId: string; name: string },
	afterDate: string,
): Promise<void> {
	const node: NodeDefinition = {
		id: randomUUID(),
		name: 'Get many submissions',
		type: NODE_TYPES.action,
		typeVersion: 1,
		position: [260, 0],
		parameters: {
			authentication: 'apiKey',
			resource: 'submission',
			operation: 'getMany',
			form: fromList(form),
			returnAll: true,
			filters: { afterDate, sort: 'desc' },
			options: { includeEditLink: true },
			simplify: true,
		},
		credentials: credentialsOf(credential),
	};
	const ndv = await openChain(env, page, 'Export feedback', [manualTrigger, node], node.name);
	await ndv.locator('[data-test-id="node-execute-button"]').click();
	await ndv
		.locator('[data-test-id="output-panel"] [data-test-id="node-run-status-success"]')
		.waitFor({ timeout: 60_000 });
	await widenOutput(page, ndv);
	await ndv.locator('[data-test-id="output-panel"]').getByText('JSON', { exact: true }).click();
	await shoot(page, 'get-many-submissions.png');
}

async function trigger(
	env: E2eEnvironment,
	page: Page,
	credential: CredentialRef,
	form: { formId: string; name: string },
): Promise<void> {
	const node: NodeDefinition = {
		id: randomUUID(),
		name: 'Fillout Trigger',
		type: NODE_TYPES.trigger,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			authentication: 'apiKey',
			form: fromList(form),
			simplify: true,
		},
		credentials: credentialsOf(credential),
	};
	const next: NodeDefinition = {
		id: randomUUID(),
		name: 'Add to CRM',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [260, 0],
		parameters: {},
	};
	const ndv = await openChain(env, page, 'New feedback', [node, next], node.name);
	await widenOutput(page, ndv);
	// "Listen for test event", then a respondent: the event shows in the output.
	await ndv.locator('[data-test-id="node-execute-button"]').click();
	await waitFor(async () => (await env.sandbox.control.webhooksOf(form.formId)).length === 1, {
		description: 'the test webhook at the sandbox',
	});
	await env.sandbox.control.respond(form.formId, {
		// Plain text: the machine may have no emoji font.
		answers: {
			'Your name': 'Ada Lovelace',
			Email: 'ada@example.com',
			'How likely are you to recommend us to a friend?': 9,
			'Anything else you would like to tell us?': 'The export to our CRM saved me an hour a week.',
		},
	});
	const output = ndv.locator('[data-test-id="output-panel"]');
	await output.getByText('1 item').first().waitFor({ timeout: 60_000 });
	await output.getByText('JSON', { exact: true }).click();
	await shoot(page, 'trigger.png');
}

async function main(): Promise<void> {
	const started = Date.now();
	mkdirSync(OUT, { recursive: true });
	say('Starting n8n (with the package) and the sandbox…');
	const env = await startE2eEnvironment({
		sandbox: { rateLimit: 0 },
		log: (line) => say(`  ${line}`),
	});
	const browser = await launchChromium({ viewport: { width: 1280, height: 800 } }).catch(
		async (error: Error) => {
			await env.stop();
			throw error;
		},
	);
	try {
		const info = await env.sandbox.control.info();
		const demo = info.accounts.find((account) => account.id === 'acct_demo');
		const form = demo?.forms.find((candidate) => candidate.name === FORM_NAME);
		if (!demo || !form) throw new Error(`the sandbox has no demo form "${FORM_NAME}"`);
		const credential = await createApiKeyCredential(
			env.client,
			'Fillout account',
			demo.apiKeys[0],
			env.sandbox.origin,
		);
		// "Submitted After" a date that leaves a screenful of submissions.
		const submissions = await new FilloutApi(demo.apiRoot, demo.apiKeys[0]).allSubmissions(
			form.formId,
			{ sort: 'desc' },
		);
		const afterDate = `${submissions[Math.min(24, submissions.length - 1)].submissionTime.slice(0, 10)}T00:00:00`;

		await useSession(browser.context, env.n8n.url, env.client.sessionCookie);
		const { page } = browser;
		say('Taking screenshots:');
		await nodeOperations(env, page);
		await trigger(env, page, credential, form);
		await getManySubmissions(env, page, credential, form, afterDate);
		say(`Done in ${Math.round((Date.now() - started) / 1000)} s.`);
	} finally {
		await browser.close();
		await env.stop({ copyLogsTo: join(REPO_ROOT, '.tmp', 'screenshots-logs') });
	}
}

main().catch((error: Error) => {
	say(`Screenshots failed: ${error.stack ?? error.message}`);
	process.exit(1);
});
