/** Hashes the tests compare files and secrets by, computed here, not by the code under test. */
import { createHash } from 'node:crypto';

/** SHA-256 of bytes or text: hex, or base64url as the trigger writes a secret's fingerprint. */
export function sha256(data: string | Uint8Array, encoding: 'hex' | 'base64url' = 'hex'): string {
	return createHash('sha256').update(data).digest(encoding);
}

/** The hash of a file fetched straight from where it is served (no credential, not through the node). */
export async function directHash(url: string): Promise<string> {
	const response = await fetch(url);
	if (response.status !== 200) throw new Error(`${url} answered ${response.status}, not 200`);
	return sha256(Buffer.from(await response.arrayBuffer()));
}
