/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox CLI is a dev tool: it reads argv, prints to stdout and handles signals through process */
/**
 * npm run sandbox -- --port P [--api-key K] [--rate-limit N] [--announce-limit N] [--data FILE]
 *   [--host H] [--code-ttl MS] [--delivery-timeout MS] [--unknown-webhook-status 400|404]
 *   [--disable-webhook-on-404]
 * Prints the API root first ("API root: <url>"), then what a new user needs to try it.
 */
import { startSandbox, type SandboxOptions } from './index';

const USAGE = `Usage: npm run sandbox -- [options]
  --port P              port to listen on (0 = any free port; default 0)
  --host H              address to listen on (default 127.0.0.1)
  --api-key K           also accept K for the demo account (repeatable; any format)
  --rate-limit N        requests per second per key (default 5; 0 = off)
  --announce-limit N    what ratelimit-limit says (default: the rate limit), as a lying proxy
  --data FILE           keep state in FILE across restarts (default: in memory)
  --code-ttl MS         lifetime of OAuth codes in ms (default 60000)
  --delivery-timeout MS time-out of a webhook delivery in ms (default 10000)
  --unknown-webhook-status S
                        what /webhook/delete answers for an unknown id: 404 (default) or 400
  --disable-webhook-on-404
                        stop delivering to a webhook once a delivery is answered 404
`;

function fail(message: string): never {
	process.stderr.write(`${message}\n\n${USAGE}`);
	process.exit(2);
}

function integer(flag: string, value: string | undefined): number {
	if (value === undefined || !/^\d+$/.test(value)) fail(`${flag} needs a non-negative integer`);
	return Number(value);
}

export function parseArgs(argv: string[]): SandboxOptions {
	const options: SandboxOptions = { port: 0, apiKeys: [] };
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = argv[i + 1];
		const take = () => {
			i++;
			if (value === undefined) fail(`${flag} needs a value`);
			return value;
		};
		switch (flag) {
			case '--port':
				options.port = integer(flag, take());
				break;
			case '--host':
				options.host = take();
				break;
			case '--api-key':
				options.apiKeys?.push(take());
				break;
			case '--rate-limit':
				options.rateLimit = integer(flag, take());
				break;
			case '--announce-limit':
				options.announcedLimit = integer(flag, take());
				break;
			case '--data':
				options.dataFile = take();
				break;
			case '--code-ttl':
				options.codeTtlMs = integer(flag, take());
				break;
			case '--delivery-timeout':
				options.deliveryTimeoutMs = integer(flag, take());
				break;
			case '--unknown-webhook-status': {
				const status = take();
				if (status !== '400' && status !== '404') fail(`${flag} must be 400 or 404`);
				options.unknownWebhookStatus = status === '400' ? 400 : 404;
				break;
			}
			case '--disable-webhook-on-404':
				options.disableWebhookOn404 = true;
				break;
			case '--help':
			case '-h':
				process.stdout.write(USAGE);
				process.exit(0);
				break;
			default:
				fail(`Unknown option ${flag}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox(options);
	const { demo, origin } = sandbox;
	const authorize = new URL(`${origin}/authorize/oauth`);
	authorize.searchParams.set('client_id', demo.oauthClient.clientId);
	authorize.searchParams.set(
		'redirect_uri',
		'http://localhost:5678/rest/oauth2-credential/callback',
	);
	authorize.searchParams.set('state', 'try-me');
	const rate = options.rateLimit ?? 5;
	process.stdout.write(
		[
			`API root: ${sandbox.apiRoot}`,
			`EU API root: ${demo.euApiRoot}`,
			`Demo API key: ${demo.apiKey}`,
			...(options.apiKeys ?? []).map((key) => `Extra API key (demo account): ${key}`),
			`EU API key: ${demo.euApiKey}`,
			`Demo forms: ${demo.formIds.join(', ')}`,
			`OAuth client id: ${demo.oauthClient.clientId}`,
			`OAuth client secret: ${demo.oauthClient.clientSecret}`,
			`Authorize URL: ${authorize.toString()}`,
			`Access token URL: ${origin}/public/oauth/accessToken`,
			`Control API: ${origin}/_sandbox/info`,
			`Rate limit: ${rate === 0 ? 'off' : `${rate} requests/second per key`}`,
			`State: ${options.dataFile ? `kept in ${options.dataFile}` : 'in memory'}`,
			`Try: curl -H "Authorization: Bearer ${demo.apiKey}" ${sandbox.apiRoot}/forms`,
			'Ctrl-C stops it.',
			'',
		].join('\n'),
	);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`${signal}: stopping\n`);
		void sandbox.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
		process.exit(1);
	});
}
