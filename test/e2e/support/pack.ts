/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test-only: builds and packs the package with npm (node:child_process) and unpacks it into an n8n user folder (node:fs, tar) */
/**
 * The package as users get it: built, packed by npm, and unpacked into
 * `<userFolder>/.n8n/nodes/node_modules/<name>` the way n8n's community package
 * installer does it (CommunityPackagesService.downloadPackage in n8n 2.41).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { REPO_ROOT } from './paths';
import { cleanEnvironment } from './processes';

const run = promisify(execFile);

export interface PackedPackage {
	tarball: string;
	name: string;
	version: string;
	/** Paths inside the tarball, as npm listed them. */
	files: string[];
}

export interface PackOptions {
	/** Run `npm run build` first (default true). */
	build?: boolean;
	/** The package folder (default: this clone). */
	packageDir?: string;
}

async function npm(args: string[], cwd: string): Promise<string> {
	const { stdout } = await run('npm', args, {
		cwd,
		env: cleanEnvironment(),
		maxBuffer: 64 * 1024 * 1024,
	});
	return stdout;
}

/** `npm run build && npm pack` into `destDir`. */
export async function packPackage(
	destDir: string,
	options: PackOptions = {},
): Promise<PackedPackage> {
	const packageDir = options.packageDir ?? REPO_ROOT;
	mkdirSync(destDir, { recursive: true });
	if (options.build ?? true) await npm(['run', 'build', '--silent'], packageDir);
	const stdout = await npm(
		['pack', '--json', '--pack-destination', destDir, '--loglevel=error'],
		packageDir,
	);
	const [packed] = JSON.parse(stdout) as Array<{
		filename: string;
		name: string;
		version: string;
		files: Array<{ path: string }>;
	}>;
	return {
		tarball: join(destDir, packed.filename),
		name: packed.name,
		version: packed.version,
		files: packed.files.map((file) => file.path),
	};
}

export interface InstalledPackage {
	name: string;
	version: string;
	/** `<userFolder>/.n8n/nodes/node_modules/<name>` */
	dir: string;
	/** `<userFolder>/.n8n/nodes/package.json` */
	manifest: string;
}

/**
 * Unpacks the tarball into the user folder's community nodes, as n8n's installer does:
 * `tar -xzf --strip-components=1` into `nodes/node_modules/<name>`, devDependencies,
 * peerDependencies and optionalDependencies removed from its package.json, runtime
 * dependencies installed with npm (this package has none, so nothing is fetched), and
 * the package recorded in `nodes/package.json`.
 */
export async function installPackageInto(
	userFolder: string,
	tarball: string,
): Promise<InstalledPackage> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
	const { name, version } = JSON.parse(stdout) as { name: string; version: string };

	const dir = join(nodesDir, 'node_modules', name);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);

	const packageJsonPath = join(dir, 'package.json');
	const packageJson = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as Record<string, unknown>;
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies']) {
		delete packageJson[field];
	}
	writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2), 'utf8');
	const dependencies = (packageJson.dependencies ?? {}) as Record<string, string>;
	if (Object.keys(dependencies).length > 0) {
		await npm(
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			dir,
		);
	}

	const manifest = join(nodesDir, 'package.json');
	const current = existsSync(manifest)
		? (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> })
		: {};
	writeFileSync(
		manifest,
		JSON.stringify(
			{
				name: 'installed-nodes',
				private: true,
				...current,
				dependencies: { ...current.dependencies, [name]: version },
			},
			null,
			2,
		),
		'utf8',
	);
	return { name, version, dir, manifest };
}
