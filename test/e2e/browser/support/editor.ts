/**
 * The n8n editor (2.41.1 and 1.123.81) in a browser: signing in, the credential dialog
 * with its OAuth popup, the node creator and the node details view. Selectors are the
 * editor's own `data-test-id`s; where the two editors differ, both are named.
 */
import type { BrowserContext, Locator, Page, Request } from 'playwright-core';

import type { Owner, WorkflowDefinition } from '../../support/n8nClient';

/** Signs in through the editor's login form; resolves on the page it lands on. */
export async function signInThroughForm(
	page: Page,
	n8nUrl: string,
	owner: Pick<Owner, 'email' | 'password'>,
): Promise<void> {
	await page.goto(`${n8nUrl}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
	await page.locator('input[name="password"]').fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** Gives the browser an existing session (`n8n-auth=…` from N8nClient.sessionCookie). */
export async function useSession(
	context: BrowserContext,
	n8nUrl: string,
	cookie: string,
): Promise<void> {
	const [name, ...rest] = cookie.split('=');
	await context.addCookies([{ name, value: rest.join('='), url: n8nUrl }]);
}

/**
 * Closes toasts, and dialogs the editor opens by itself (tips, "what's new"). Call it
 * when no dialog of the test's own is open.
 */
export async function dismissPopups(page: Page): Promise<void> {
	for (const close of await page.locator('.el-notification__closeBtn:visible').all()) {
		await close.click().catch(() => undefined);
	}
	for (const close of await page.locator('.el-overlay:visible .el-dialog__headerbtn').all()) {
		await close.click().catch(() => undefined);
	}
	await page
		.locator('.el-notification:visible')
		.first()
		.waitFor({ state: 'detached', timeout: 5_000 })
		.catch(() => undefined);
}

// --- credentials ------------------------------------------------------------------------

/**
 * The OAuth2 part of the credential dialog. n8n 2.x shows a "not connected" banner with
 * a Connect button; n8n 1.x only a "Connect my account" button while not connected.
 * Both show the same success banner once connected.
 */
export function oauthControls(dialog: Locator, n8nMajorVersion: number) {
	const v1 = n8nMajorVersion < 2;
	const connectButton = dialog.locator(
		v1 ? '[data-test-id="oauth-connect-button"]' : '[data-test-id="quick-connect-button"]',
	);
	return {
		connectButton,
		/** Visible while the credential has no token. */
		notConnected: v1
			? connectButton
			: dialog.locator('[data-test-id="oauth-not-connected-banner"]'),
		connected: dialog.locator('[data-test-id="oauth-connect-success-banner"]'),
	};
}

/** Credentials → Create credential → the type → Continue; the dialog that opens. */
export async function openNewCredentialDialog(
	page: Page,
	n8nUrl: string,
	typeDisplayName: string,
): Promise<Locator> {
	await page.goto(`${n8nUrl}/home/credentials`);
	await page.locator('[data-test-id="add-resource-credential"]').click();
	await page.keyboard.type(typeDisplayName);
	await page
		.locator('[data-test-id="new-credential-type-select-option"]')
		.filter({
			hasText: new RegExp(`^\\s*${escapeRegExp(typeDisplayName)}\\s*$`),
		})
		.click();
	await page.locator('[data-test-id="new-credential-type-button"]').click();
	const dialog = page.locator('[data-test-id="editCredential-modal"]');
	await dialog.waitFor();
	return dialog;
}

export async function renameCredential(page: Page, dialog: Locator, name: string): Promise<void> {
	await dialog.locator('[data-test-id="credential-name"]').click();
	const input = dialog.locator('[data-test-id="inline-edit-input"]');
	await input.fill(name);
	await input.press('Enter');
	await dialog.locator('[data-test-id="credential-name"]').filter({ hasText: name }).waitFor();
}

/** Types into a text parameter of the dialog or a node (`parameter-input-<name>`). */
export async function fillParameter(scope: Locator, name: string, value: string): Promise<void> {
	await scope.locator(`[data-test-id="parameter-input-${name}"] input`).first().fill(value);
}

/** Picks an option of a dropdown parameter by its label. */
export async function chooseOption(
	page: Page,
	scope: Locator,
	name: string,
	label: string,
): Promise<void> {
	await pickFromDropdown(page, scope.locator(`[data-test-id="parameter-input-${name}"]`), label);
}

/** Opens a dropdown (e.g. the resource mapper's `mapping-mode-select`) and picks an option by its label. */
export async function pickFromDropdown(page: Page, select: Locator, label: string): Promise<void> {
	await select.click();
	await page.locator('.el-select-dropdown__item:visible').filter({ hasText: label }).click();
}

/** Types into a resource locator parameter (in the mode it shows, e.g. "By ID") and leaves it. */
export async function fillResourceLocator(
	scope: Locator,
	name: string,
	value: string,
): Promise<void> {
	const input = scope.locator(
		`[data-test-id="resource-locator-${name}"] input[data-test-id="rlc-input"]`,
	);
	await input.fill(value);
	await input.press('Tab');
}

/** Clicks Save and returns the new credential's id (from n8n's answer). */
export async function saveNewCredential(page: Page, dialog: Locator): Promise<string> {
	const created = page.waitForResponse(
		(response) =>
			response.request().method() === 'POST' &&
			new URL(response.url()).pathname === '/rest/credentials',
	);
	await dialog.locator('[data-test-id="credential-save-button"]').click();
	const response = await created;
	if (response.status() !== 200) {
		throw new Error(
			`saving the credential answered ${response.status()}: ${await response.text()}`,
		);
	}
	const body = (await response.json()) as { data: { id: string } };
	return body.data.id;
}

export interface ConsentInPopup {
	/** The address n8n opened in the popup (the provider's authorize page). */
	authorizeUrl: string;
	/** Where the consent page sent the popup: n8n's callback, with code or error. */
	callbackUrl: string;
	/** The popup, if it is still open (n8n closes it after a successful connection). */
	popup: Page;
}

/**
 * Clicks the dialog's Connect button, catches the popup n8n opens, and answers the
 * sandbox's consent page in it (the chosen workspace, Allow or Deny).
 */
export async function connectInPopup(
	context: BrowserContext,
	dialog: Locator,
	options: { account?: string; decision: 'allow' | 'deny'; n8nMajorVersion: number },
): Promise<ConsentInPopup> {
	const opened = context.waitForEvent('page');
	await oauthControls(dialog, options.n8nMajorVersion).connectButton.click();
	const popup = await opened;
	// n8n opens about:blank first, then sends it to the authorize address.
	await popup.waitForURL((url) => url.pathname.endsWith('/authorize/oauth'));
	const authorizeUrl = popup.url();
	if (options.account) await popup.locator('#account').selectOption(options.account);
	const callback = popup.waitForRequest(
		(request) => new URL(request.url()).pathname === '/rest/oauth2-credential/callback',
	);
	await popup.locator(`#${options.decision}`).click();
	const callbackUrl = (await callback).url();
	return { authorizeUrl, callbackUrl, popup };
}

// --- workflows, node creator, node details view -------------------------------------------

/** Opens a saved workflow in the editor and waits for its canvas. */
export async function openWorkflow(page: Page, n8nUrl: string, workflowId: string): Promise<void> {
	await page.goto(`${n8nUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

/**
 * A new workflow, then Import → From file with the given file, then Save (Ctrl+S), as a
 * user imports a downloaded workflow; returns the saved workflow's id.
 */
export async function importWorkflowFile(
	page: Page,
	n8nUrl: string,
	file: string,
): Promise<string> {
	await page.goto(`${n8nUrl}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"]').waitFor();
	await page.locator('[data-test-id="workflow-menu"]').click();
	// n8n 2.x groups the imports in an "Import" submenu; n8n 1.x lists "Import from File" itself.
	const submenu = page.locator('[data-test-id="workflow-menu-item-import"]');
	const fromFile = page.locator('[data-test-id="workflow-menu-item-import-from-file"]');
	await submenu.or(fromFile).first().waitFor();
	if (await submenu.isVisible()) await submenu.hover();
	const chooser = page.waitForEvent('filechooser');
	await fromFile.click();
	await (await chooser).setFiles(file);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	const saved = nextWorkflowSave(page);
	await page.keyboard.press('Control+s');
	return (await saved).id;
}

export interface WorkflowSave {
	/** The saved workflow's id (from n8n's answer). */
	id: string;
	/** The workflow as the editor sent it. */
	sent: WorkflowDefinition;
}

/**
 * The editor's next save of a workflow (POST /rest/workflows for a new one, PATCH
 * /rest/workflows/<id> for a saved one) whose sent workflow passes `accept`. n8n 2.41
 * also saves a saved workflow by itself 1.5 s after the last change (autosave), and
 * swallows Ctrl+S while a node's details view is open: call this before the change, then
 * save with Ctrl+S on the canvas or let the autosave come. n8n 1.x has no autosave.
 */
export function nextWorkflowSave(
	page: Page,
	accept: (sent: WorkflowDefinition) => boolean = () => true,
): Promise<WorkflowSave> {
	const answered = page.waitForResponse((response) => {
		const request = response.request();
		return isWorkflowSave(request) && accept(request.postDataJSON() as WorkflowDefinition);
	});
	const saved = answered.then(async (response) => {
		if (response.status() !== 200) {
			throw new Error(
				`saving the workflow answered ${response.status()}: ${await response.text()}`,
			);
		}
		const { data } = (await response.json()) as { data: { id: string } };
		return { id: data.id, sent: response.request().postDataJSON() as WorkflowDefinition };
	});
	// A test that fails before awaiting it closes the page: not a second, unhandled error.
	saved.catch(() => undefined);
	return saved;
}

/**
 * The workflows the editor sends to be saved during the next `ms` milliseconds. To show
 * that something (e.g. only opening a node) leaves the saved workflow alone, wait longer
 * than the autosave's 1.5 s.
 */
export async function workflowSavesWithin(page: Page, ms: number): Promise<WorkflowDefinition[]> {
	const sent: WorkflowDefinition[] = [];
	const record = (request: Request) => {
		if (isWorkflowSave(request)) sent.push(request.postDataJSON() as WorkflowDefinition);
	};
	page.on('request', record);
	try {
		await page.waitForTimeout(ms);
	} finally {
		page.off('request', record);
	}
	return sent;
}

function isWorkflowSave(request: Request): boolean {
	return (
		['POST', 'PATCH'].includes(request.method()) &&
		/^\/rest\/workflows(\/[^/]+)?$/.test(new URL(request.url()).pathname)
	);
}

/** The "+" of the canvas, then a search in the node creator. */
export async function searchNodeCreator(page: Page, text: string): Promise<Locator> {
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator.waitFor();
	await creator.locator('[data-test-id="node-creator-search-bar"]').fill(text);
	return creator;
}

/** A node's details view, by double-clicking it on the canvas. */
export async function openNode(page: Page, nodeName: string): Promise<Locator> {
	await page
		.locator('[data-test-id="canvas-node"]')
		.filter({ has: page.getByText(nodeName, { exact: true }) })
		.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.waitFor();
	return ndv;
}

/** Closes the node details view (back to the canvas; n8n 1.x calls it "Back to canvas"). */
export async function closeNode(page: Page): Promise<void> {
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv
		.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
		.first()
		.click();
	await ndv.waitFor({ state: 'hidden' });
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
