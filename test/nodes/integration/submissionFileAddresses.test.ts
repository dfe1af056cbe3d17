/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test-only: sets n8n's proxy environment for one file and runs a node:http proxy */
/**
 * Download Files refuses file addresses in private networks, on every hop, in n8n-core's
 * real engine over real HTTP: off by default for loopback and private addresses in any
 * spelling, always for link-local and cloud metadata ones. A refused file fails its item
 * naming item, question and file, and nothing is requested from the address.
 *
 * A first hop on a public name is needed to see a redirect refused with the option off;
 * n8n's request helper honours HTTP_PROXY, so a local proxy stands in for
 * `files.example.test` and answers its redirects.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';

import { startFileHost, type FileHost } from './support/fileHost';
import { SANDBOX_FILE_OPTIONS, fileOrigin, newFileForm, respondWith } from './support/files';
import { formById, jsonOf, runFillout, useSandbox } from './support';

const sandbox = useSandbox({ rateLimit: 0 });
let host: FileHost;

beforeEach(async () => {
	sandbox().context.files.reset();
	host = await startFileHost();
});
afterEach(async () => await host.close());

const getParameters = (formId: string, fileOptions: INodeParameters = {}) => ({
	resource: 'submission',
	operation: 'get',
	form: formById(formId),
	submissionId: '={{ $json.id }}',
	downloadFiles: true,
	fileOptions,
});

/** One submission per address (question "Photo"); the item errors, in order. */
async function errorsFor(urls: string[], fileOptions: INodeParameters = {}): Promise<unknown[]> {
	const formId = await newFileForm(sandbox());
	const ids: string[] = [];
	for (const url of urls)
		ids.push(await respondWith(sandbox(), formId, { answers: { Photo: [{ url }] } }));
	const result = await runFillout(sandbox(), getParameters(formId, fileOptions), {
		inputItems: ids.map((id) => ({ id })),
		continueOnFail: true,
	});
	return jsonOf(result).map((json, i) =>
		typeof json.error === 'string' ? json.error.replace(ids[i], 'SUB') : json.error,
	);
}

const refusedPrivate = (file: string, host: string, what: string, item: number) =>
	`Could not download "${file}" (question "Photo", submission SUB): the address points at ${host} (${what}); turn on "Allow Private Network Addresses" under File Options to fetch files from your own network [item ${item}]`;
const refusedAlways = (file: string, lead: string, host: string, what: string, item: number) =>
	`Could not download "${file}" (question "Photo", submission SUB): ${lead} ${host} (${what}), which is never fetched [item ${item}]`;

describe('with Allow Private Network Addresses off (the default)', () => {
	it('refuses loopback and private addresses in every spelling, and requests none of them', async () => {
		const port = new URL(host.origin).port;
		const cases: Array<[string, string, string]> = [
			[`http://127.0.0.1:${port}/stall/a.pdf`, '127.0.0.1', 'a loopback address'],
			[`http://localhost:${port}/stall/a.pdf`, 'localhost', 'a loopback address'],
			[`http://files.localhost:${port}/stall/a.pdf`, 'files.localhost', 'a loopback address'],
			[`http://2130706433:${port}/stall/a.pdf`, '127.0.0.1', 'a loopback address'],
			[`http://0x7f.0.0.1:${port}/stall/a.pdf`, '127.0.0.1', 'a loopback address'],
			[`http://0177.0.0.01:${port}/stall/a.pdf`, '127.0.0.1', 'a loopback address'],
			[`http://127.1:${port}/stall/a.pdf`, '127.0.0.1', 'a loopback address'],
			[`http://[::1]:${port}/stall/a.pdf`, '[::1]', 'a loopback address'],
			[`http://[::ffff:127.0.0.1]:${port}/stall/a.pdf`, '[::ffff:7f00:1]', 'a loopback address'],
			[`http://0.0.0.0:${port}/stall/a.pdf`, '0.0.0.0', 'an address of this machine'],
			[`http://[::]:${port}/stall/a.pdf`, '[::]', 'an address of this machine'],
			['http://10.1.2.3/a.pdf', '10.1.2.3', 'a private network address'],
			['http://172.16.0.9/a.pdf', '172.16.0.9', 'a private network address'],
			['http://192.168.1.20/a.pdf', '192.168.1.20', 'a private network address'],
			['http://[fd12:3456::1]/a.pdf', '[fd12:3456::1]', 'a private network address'],
			['https://fillout-files/a.pdf', 'fillout-files', 'a local network name'],
		];
		const errors = await errorsFor(cases.map(([url]) => url));
		expect(errors).toEqual(
			cases.map(([, name, what], i) => refusedPrivate('a.pdf', name, what, i)),
		);
		expect(host.requests).toEqual([]);
	});

	it('follows a redirect from a public name and refuses the private hop without requesting it', async () => {
		const proxy = await startRedirectingProxy();
		try {
			const port = new URL(host.origin).port;
			const targets = [
				`http://127.0.0.1:${port}/stall/secret.pdf`,
				`http://2130706433:${port}/stall/secret.pdf`,
				`http://localhost:${port}/stall/secret.pdf`,
			];
			const urls = targets.map(
				(to) => `http://files.example.test/redirect/a.pdf?to=${encodeURIComponent(to)}`,
			);
			const errors = await errorsFor(urls);
			expect(errors).toEqual(
				['127.0.0.1', '127.0.0.1', 'localhost'].map(
					(name, i) =>
						`Could not download "a.pdf" (question "Photo", submission SUB): the file host redirected to ${name} (a loopback address); turn on "Allow Private Network Addresses" under File Options to fetch files from your own network [item ${i}]`,
				),
			);
			expect(proxy.requests).toEqual(urls.map((url) => url.replace('http://', '')));
			expect(host.requests).toEqual([]);
		} finally {
			await proxy.close();
		}
	});
});

describe('link-local and cloud metadata addresses', () => {
	it('are refused even with Allow Private Network Addresses on, first hop or after a redirect', async () => {
		const files = fileOrigin(sandbox());
		const metadata: Array<[string, string, string]> = [
			[
				'http://169.254.169.254/latest/meta-data/iam',
				'169.254.169.254',
				'a link-local or cloud metadata address',
			],
			[
				'http://[fd00:ec2::254]/latest/meta-data/iam',
				'[fd00:ec2::254]',
				'a cloud metadata address',
			],
			[
				'http://metadata.google.internal/computeMetadata/v1/iam',
				'metadata.google.internal',
				'a cloud metadata address',
			],
			[
				'http://100.100.100.200/latest/meta-data/iam',
				'100.100.100.200',
				'a link-local or cloud metadata address',
			],
			['http://[fe80::1]/iam', '[fe80::1]', 'a link-local or cloud metadata address'],
		];
		const redirected = metadata.map(
			([url]) => `${files}/files/redirect/iam?to=${encodeURIComponent(url)}`,
		);
		const errors = await errorsFor(
			[...metadata.map(([url]) => url), ...redirected],
			SANDBOX_FILE_OPTIONS,
		);
		expect(errors).toEqual([
			...metadata.map(([, name, what], i) =>
				refusedAlways('iam', 'the address points at', name, what, i),
			),
			...metadata.map(([, name, what], i) =>
				refusedAlways('iam', 'the file host redirected to', name, what, metadata.length + i),
			),
		]);
		// Only the sandbox's redirects were requested.
		expect(sandbox().context.files.requests.map((r) => r.path)).toEqual(
			metadata.map(() => '/files/redirect/iam'),
		);
	});
});

describe('with Allow Private Network Addresses on', () => {
	it('fetches from loopback addresses in any spelling', async () => {
		const port = new URL(host.origin).port;
		const urls = [
			`http://127.0.0.1:${port}/drip/a.pdf?size=100&overMs=20`,
			`http://2130706433:${port}/drip/b.pdf?size=100&overMs=20`,
		];
		expect(await errorsFor(urls, SANDBOX_FILE_OPTIONS)).toEqual([undefined, undefined]);
		expect(host.requests.map((r) => r.path)).toEqual([
			'/drip/a.pdf?size=100&overMs=20',
			'/drip/b.pdf?size=100&overMs=20',
		]);
	});
});

interface RedirectingProxy {
	/** What was asked of it: host and path of each request. */
	requests: string[];
	close(): Promise<void>;
}

/**
 * An HTTP proxy that answers for every public name as a file host whose `/redirect/…?to=`
 * answers 302, set as n8n's HTTP_PROXY (the sandbox and 127.0.0.1 stay direct) until closed.
 */
async function startRedirectingProxy(): Promise<RedirectingProxy> {
	const requests: string[] = [];
	const server: Server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://unknown');
		requests.push(`${url.host}${url.pathname}${url.search}`);
		const to = url.searchParams.get('to');
		res.writeHead(to ? 302 : 404, to ? { location: to } : {});
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
	process.env.HTTP_PROXY = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	process.env.NO_PROXY = '127.0.0.1,localhost,::1';
	return {
		requests,
		async close() {
			for (const [name, value] of Object.entries(saved)) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}
