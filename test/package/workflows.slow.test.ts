/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test-only: reads the workflow files with node:fs and runs their shell steps with node:child_process */
/**
 * The GitHub Actions workflows: CI runs the README's test command on pushes and pull
 * requests with the n8n install cached; a version tag builds, tests and publishes with
 * npm provenance, and nothing else. Their shell steps are run here where they can be.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

import { DEFAULT_N8N_VERSION, PACKAGE_NAME } from '../e2e/support/paths';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);

interface Step {
	id?: string;
	uses?: string;
	run?: string;
	if?: string;
	with?: Record<string, string>;
}
interface Job {
	container?: { image: string; options?: string };
	permissions?: Record<string, string>;
	steps: Step[];
}
interface Workflow {
	on: Record<string, { branches?: string[]; tags?: string[] } | null>;
	permissions?: Record<string, string>;
	jobs: Record<string, Job>;
}

function workflow(name: string): Workflow {
	return parse(readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
}

/** The workflow's only job (both have one). */
function onlyJob(flow: Workflow): Job {
	const jobs = Object.values(flow.jobs);
	expect(jobs).toHaveLength(1);
	return jobs[0];
}

/** Index of the first step whose `run` matches, failing the test when there is none. */
function stepIndex(job: Job, command: RegExp): number {
	const index = job.steps.findIndex((step) => command.test(step.run ?? ''));
	expect(`${command} found: ${index >= 0}`).toBe(`${command} found: true`);
	return index;
}

/** Runs a step's shell script as the runner does (bash -e), in the repository. */
async function runStep(step: Step, env: Record<string, string>) {
	return await run('bash', ['-e', '-c', step.run ?? ''], {
		cwd: ROOT,
		env: { ...process.env, ...env },
	});
}

const cacheFolder = `~/.cache/${PACKAGE_NAME}`;
const packageVersion = (
	JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe.each(['ci.yml', 'publish.yml'])('%s', (name) => {
	const job = () => onlyJob(workflow(name));

	it('runs every test as .ci/run does: install, Chromium, npm run test:all', () => {
		const install = stepIndex(job(), /^npm install --no-audit --no-fund$/m);
		const chromium = stepIndex(job(), /^bash scripts\/ensure-chromium\.sh$/m);
		const test = stepIndex(job(), /^npm run test:all$/m);
		expect(install).toBeLessThan(chromium);
		expect(chromium).toBeLessThan(test);
	});

	it("runs in Debian (the suite installs Debian's packages) with the package's Node and room for Chromium", () => {
		const engines = (
			JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
				engines: { node: string };
			}
		).engines.node;
		const major = /\d+/.exec(engines)?.[0];
		expect(job().container?.image).toBe(`node:${major}-bookworm`);
		expect(job().container?.options).toMatch(/--shm-size=\dg/);
	});

	it('restores the n8n install keyed on the n8n versions the suite pins', async () => {
		const steps = job().steps;
		const versions = steps.find((step) => step.id === 'n8n');
		const restore = steps.find((step) => step.uses?.startsWith('actions/cache/restore@'));
		expect(restore?.with?.path).toBe(cacheFolder);
		expect(restore?.with?.key).toContain('${{ steps.n8n.outputs.versions }}');
		expect(steps.indexOf(restore as Step)).toBeLessThan(stepIndex(job(), /^npm run test:all$/m));

		const work = mkdtempSync(join(tmpdir(), 'fillout-workflow-'));
		try {
			const output = join(work, 'output');
			await runStep(versions as Step, { GITHUB_OUTPUT: output });
			const line = /^versions=(.+)$/m.exec(readFileSync(output, 'utf8'))?.[1] ?? '';
			expect(line.split('-')).toContain(DEFAULT_N8N_VERSION);
		} finally {
			rmSync(work, { recursive: true, force: true });
		}
	});
});

describe('ci.yml', () => {
	const flow = workflow('ci.yml');

	it('runs on pushes to branches and on pull requests', () => {
		expect(Object.keys(flow.on).sort()).toEqual(['pull_request', 'push']);
		expect(flow.on.push?.branches).toEqual(['**']);
	});

	it('saves the n8n install even when the tests fail, unless it was restored as is', () => {
		const save = onlyJob(flow).steps.find((step) => step.uses?.startsWith('actions/cache/save@'));
		const restore = onlyJob(flow).steps.find((step) =>
			step.uses?.startsWith('actions/cache/restore@'),
		);
		expect(save?.with).toEqual(restore?.with);
		expect(save?.if).toBe(`always() && steps.${restore?.id}.outputs.cache-hit != 'true'`);
	});
});

describe('publish.yml', () => {
	const flow = workflow('publish.yml');
	const job = onlyJob(flow);

	it('runs only on version tags', () => {
		expect(flow.on).toEqual({ push: { tags: ['v*.*.*'] } });
	});

	it('may mint the OIDC token npm provenance needs, and only read the repository', () => {
		expect({ ...flow.permissions, ...job.permissions }).toEqual({
			contents: 'read',
			'id-token': 'write',
		});
	});

	it('publishes with provenance once, after the tests, and does nothing else', () => {
		const publishes = job.steps.filter((step) => /\bnpm publish\b/.test(step.run ?? ''));
		expect(publishes).toHaveLength(1);
		expect(publishes[0].run).toMatch(/^npm publish --provenance --access public$/m);
		expect(job.steps.indexOf(publishes[0])).toBeGreaterThan(stepIndex(job, /^npm run test:all$/m));
		expect(job.steps.at(-1)).toBe(publishes[0]);
		const actions = job.steps.flatMap((step) => (step.uses ? [step.uses.split('@')[0]] : []));
		expect(actions.sort()).toEqual(['actions/cache/restore', 'actions/checkout']);
	});

	it('stops before anything else when the tag is not v + package.json version', async () => {
		const guard = job.steps[stepIndex(job, /GITHUB_REF_NAME/)];
		expect(job.steps.indexOf(guard)).toBeLessThan(stepIndex(job, /^npm install --no-audit/m));
		await expect(runStep(guard, { GITHUB_REF_NAME: `v${packageVersion}` })).resolves.toBeDefined();
		await expect(runStep(guard, { GITHUB_REF_NAME: 'v0.0.0-not-this' })).rejects.toMatchObject({
			stderr: expect.stringContaining(`package.json says ${packageVersion}`),
		});
	});
});
