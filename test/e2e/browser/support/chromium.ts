/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: finds Debian's Chromium or installs it with scripts/ensure-chromium.sh (node:child_process, process.env) and gives it a temp profile (node:fs/os/path) */
/**
 * Headless Chromium for the browser tests and the screenshot script: Debian's package
 * (installed by scripts/ensure-chromium.sh when missing), driven by playwright-core,
 * with a fresh profile that `close()` removes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { REPO_ROOT } from '../../support/paths';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
];

/** The browser's path; installs Debian's `chromium` first when it is missing. */
export function ensureChromium(): string {
	const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
	if (existsSync(path)) return path;
	execFileSync('bash', [join(REPO_ROOT, 'scripts', 'ensure-chromium.sh')], {
		stdio: ['ignore', 'ignore', 'inherit'],
	});
	if (!existsSync(path)) throw new Error(`Chromium is still missing at ${path}`);
	return path;
}

export interface HeadlessBrowser {
	context: BrowserContext;
	/** The first tab. */
	page: Page;
	close(): Promise<void>;
}

export interface LaunchOptions {
	/** Default 1280×800. */
	viewport?: { width: number; height: number };
	/** Default 1. */
	deviceScaleFactor?: number;
}

export async function launchChromium(options: LaunchOptions = {}): Promise<HeadlessBrowser> {
	const executablePath = ensureChromium();
	const profile = mkdtempSync(join(tmpdir(), 'fillout-chromium-'));
	let context: BrowserContext | undefined;
	let launched = false;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: options.viewport ?? { width: 1280, height: 800 },
			deviceScaleFactor: options.deviceScaleFactor ?? 1,
			locale: 'en-US',
			timezoneId: 'UTC',
		});
		const page = context.pages()[0] ?? (await context.newPage());
		const opened = context;
		launched = true;
		return {
			context: opened,
			page,
			close: async () => {
				await opened.close().catch(() => undefined);
				rmSync(profile, { recursive: true, force: true });
			},
		};
	} finally {
		if (!launched) {
			await context?.close().catch(() => undefined);
			rmSync(profile, { recursive: true, force: true });
		}
	}
}
