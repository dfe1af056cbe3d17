/** The sandbox's file host: deterministic content of any size, 404, redirect, slow, chunked, and the Authorization check. */

import { fileOriginFor } from '../../sandbox/files';
import { sha256 } from '../support/hash';
import { useHarness } from './support';

let files: string;
const h = useHarness({ rateLimit: 0 });
beforeAll(async () => {
	files = fileOriginFor(h.sandbox.origin);
});
beforeEach(() => h.control.post('/files/reset', {}));

const hashOf = async (response: Response) => sha256(Buffer.from(await response.arrayBuffer()));

it('serves files on the other loopback name, the same bytes for the same path, other bytes for another', async () => {
	expect(new URL(files).hostname).toBe('localhost');
	expect(new URL(files).port).toBe(new URL(h.sandbox.origin).port);
	const first = await fetch(`${files}/files/a/cv.pdf?size=100000`);
	expect(first.status).toBe(200);
	expect(first.headers.get('content-type')).toBe('application/pdf');
	expect(first.headers.get('content-length')).toBe('100000');
	const hash = await hashOf(first);
	expect(await hashOf(await fetch(`${files}/files/a/cv.pdf?size=100000`))).toBe(hash);
	expect(await hashOf(await fetch(`${files}/files/b/cv.pdf?size=100000`))).not.toBe(hash);
	const bytes = Buffer.from(
		await (await fetch(`${files}/files/a/cv.pdf?size=100000`)).arrayBuffer(),
	);
	expect(new Set(bytes).size).toBeGreaterThan(200); // not a run of one byte
});

it('serves 50 MB and more, chunked without Content-Length when asked', async () => {
	const response = await fetch(`${files}/files/big/data.bin?size=52428807&chunked=1`);
	expect(response.headers.get('content-length')).toBeNull();
	expect(response.headers.get('content-type')).toBe('application/octet-stream');
	expect((await response.arrayBuffer()).byteLength).toBe(52428807);
});

it('answers 404 for a missing file, redirects, and waits when slow', async () => {
	expect((await fetch(`${files}/files/missing/cv.pdf`)).status).toBe(404);
	const target = `${h.sandbox.origin}/files/x/y.txt`;
	const redirect = await fetch(`${files}/files/redirect/y.txt?to=${encodeURIComponent(target)}`, {
		redirect: 'manual',
	});
	expect([redirect.status, redirect.headers.get('location')]).toEqual([302, target]);
	const started = Date.now();
	await (await fetch(`${files}/files/slow/s.txt?delayMs=400`)).arrayBuffer();
	expect(Date.now() - started).toBeGreaterThanOrEqual(390);
});

it('refuses and records any request that carries an Authorization header', async () => {
	await fetch(`${files}/files/a/ok.txt`);
	const leaked = await fetch(`${files}/files/a/cv.pdf`, {
		headers: { authorization: 'Bearer sk_prod_x' },
	});
	expect(leaked.status).toBe(401);
	const log = (await h.control.get('/files')).body;
	expect(log.requests).toBe(2);
	expect(log.withAuthorization).toEqual([
		expect.objectContaining({ path: '/files/a/cv.pdf', authorization: true, bytesSent: 0 }),
	]);
	expect(log.fileOrigin).toBe(files);
});

it('points seeded uploads, signatures and documents at the file host, and they download', async () => {
	const info = (await h.control.get('/info')).body;
	const job = info.accounts[0].forms.find((f: { name: string }) =>
		f.name.startsWith('Job Application'),
	);
	const { responses } = (await h.api.get(`/forms/${job.formId}/submissions?limit=1`)).body;
	const [submission] = responses;
	const upload = submission.questions.find((q: { type: string }) => q.type === 'FileUpload');
	expect(upload.value[0].url.startsWith(`${files}/files/`)).toBe(true);
	expect(submission.documents[0]).toMatchObject({ name: 'Submission summary' });
	for (const url of [upload.value[0].url, submission.documents[0].url])
		expect((await fetch(url)).status).toBe(200);
});

it('closes the connection half-way through a file when asked (breakAfter), with or without Content-Length', async () => {
	for (const chunked of ['0', '1']) {
		await h.control.post('/files/reset', {});
		const response = await fetch(
			`${files}/files/cut/big.bin?size=3000000&breakAfter=1000000&chunked=${chunked}`,
		);
		expect(response.status).toBe(200);
		await expect(response.arrayBuffer()).rejects.toThrow();
		const log = h.sandbox.context.files.requests;
		expect(log.map((r) => r.bytesSent)).toEqual([1_000_000]);
	}
});

it('serves a file on the API host itself as an API call: the bearer is required and the call counted', async () => {
	const url = `${h.sandbox.origin}/v1/api/files/own/report.pdf?size=5000`;
	expect((await fetch(url)).status).toBe(400);
	const response = await fetch(url, {
		headers: { authorization: `Bearer ${h.sandbox.demo.apiKey}` },
	});
	expect(response.status).toBe(200);
	expect(response.headers.get('content-type')).toBe('application/pdf');
	expect((await response.arrayBuffer()).byteLength).toBe(5000);
	expect(h.sandbox.context.files.withAuthorization()).toEqual([
		expect.objectContaining({ path: '/v1/api/files/own/report.pdf', bytesSent: 5000 }),
	]);
	const stats = (await h.control.get('/stats')).body;
	expect(stats.byKey[h.sandbox.demo.apiKey].requests['GET /v1/api/files/:token/:name']).toBe(1);
});
