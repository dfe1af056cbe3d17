/** The one place a test file starts its own sandbox and stops it. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';

/**
 * Starts a sandbox on a free port before the file's (or describe block's) tests and
 * stops it after them. The getter fails a test that runs before the sandbox started.
 */
export function sandboxForTests(options: SandboxOptions = {}): () => RunningSandbox {
	let sandbox: RunningSandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, ...options });
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	return () => {
		if (!sandbox) throw new Error('The sandbox has not started');
		return sandbox;
	};
}
