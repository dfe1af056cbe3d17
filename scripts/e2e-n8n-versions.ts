/* eslint-disable @n8n/community-nodes/no-restricted-globals -- dev script: prints to process.stdout */
/**
 * Prints the n8n releases the end-to-end suite pins (every *N8N_VERSION constant of
 * test/e2e/support/paths.ts, joined by '-'): the workflows key their cache of the n8n
 * install on it.
 */
import * as paths from '../test/e2e/support/paths';

const versions = Object.entries(paths)
	.filter(([name, value]) => name.endsWith('N8N_VERSION') && typeof value === 'string')
	.map(([, value]) => value as string);
process.stdout.write(`${versions.join('-')}\n`);
