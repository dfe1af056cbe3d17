/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test-only: spawns the CLI with node:child_process and stops it with process signals */
/** The CLI as a user runs it: prints the API root and credentials, serves, keeps --data, stops on SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from '../../sandbox/cli';
import { apiClient, call } from './support';

const repo = process.cwd();
let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'fillout-sandbox-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
	child: ChildProcess;
	output: () => string;
	line: (label: string) => string;
}

/** Spawns the command in its own process group and waits for the banner's last line. */
function start(command: string, args: string[]): Promise<Started> {
	const child = spawn(command, args, {
		cwd: repo,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
	child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
	const line = (label: string) => new RegExp(`^${label}: (.+)$`, 'm').exec(out)?.[1] ?? '';
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${out}`)), 30_000);
		child.stdout?.on('data', () => {
			if (out.includes('Ctrl-C stops it.')) {
				clearTimeout(timer);
				resolve({ child, output: () => out, line });
			}
		});
		// 'close' comes after the output streams end, so the message is complete.
		child.on('close', (code) => {
			clearTimeout(timer);
			reject(new Error(`exited with ${code} before the banner:\n${out}`));
		});
	});
}

function exited(child: ChildProcess): Promise<number | null> {
	return new Promise((resolve) => {
		if (child.exitCode !== null) resolve(child.exitCode);
		else child.once('exit', (code) => resolve(code));
	});
}

const tsNodeCli = (args: string[]) =>
	start(join(repo, 'node_modules/.bin/ts-node'), ['--transpile-only', 'sandbox/cli.ts', ...args]);

it('npm run sandbox prints the API root and serves the API there', async () => {
	const run = await start('npm', [
		'run',
		'--silent',
		'sandbox',
		'--',
		'--port',
		'0',
		'--api-key',
		'cli-key',
		'--rate-limit',
		'0',
	]);
	try {
		const apiRoot = run.line('API root');
		expect(apiRoot).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/api$/);
		const res = await apiClient(apiRoot, 'cli-key').get('/forms');
		expect(res.status).toBe(200);
		expect(res.headers.get('ratelimit-limit')).toBeNull();
		expect(run.line('Demo API key')).toMatch(/^sk_prod_/);
		expect((await apiClient(apiRoot, run.line('Demo API key')).get('/forms')).body).toEqual(
			res.body,
		);
		expect(run.line('OAuth client id')).toBeTruthy();
		expect(run.line('OAuth client secret')).toBeTruthy();
		const authorize = await call('GET', run.line('Authorize URL'));
		expect(authorize.status).toBe(200);
		expect(authorize.text).toContain('id="allow"');
	} finally {
		process.kill(-(run.child.pid as number), 'SIGTERM');
		await exited(run.child);
	}
});

it('stops cleanly on SIGTERM and keeps --data across restarts', async () => {
	const dataFile = join(dir, 'cli-state.json');
	const first = await tsNodeCli(['--port', '0', '--data', dataFile, '--rate-limit', '0']);
	const origin = first.line('API root').replace(/\/v1\/api$/, '');
	const created = await call('POST', `${origin}/_sandbox/forms`, {
		json: { name: 'Made through the CLI' },
	});
	expect(created.status).toBe(200);
	first.child.kill('SIGTERM');
	expect(await exited(first.child)).toBe(0);
	expect(existsSync(dataFile)).toBe(true);

	const second = await tsNodeCli(['--port', '0', '--data', dataFile, '--rate-limit', '0']);
	try {
		const res = await apiClient(second.line('API root'), second.line('Demo API key')).get(
			`/forms/${created.body.id}`,
		);
		expect(res.status).toBe(200);
		expect(res.body.name).toBe('Made through the CLI');
	} finally {
		second.child.kill('SIGINT');
		expect(await exited(second.child)).toBe(0);
	}
});

it('refuses unknown options with a usage message', async () => {
	await expect(tsNodeCli(['--colour', 'blue'])).rejects.toThrow(
		/exited with 2[\s\S]*Unknown option --colour[\s\S]*Usage/,
	);
});

it('--unknown-webhook-status takes 400 or 404', async () => {
	expect(parseArgs(['--unknown-webhook-status', '400'])).toMatchObject({
		unknownWebhookStatus: 400,
	});
	expect(parseArgs(['--unknown-webhook-status', '404'])).toMatchObject({
		unknownWebhookStatus: 404,
	});
	await expect(tsNodeCli(['--unknown-webhook-status', '410'])).rejects.toThrow(
		/exited with 2[\s\S]*--unknown-webhook-status must be 400 or 404/,
	);
});
