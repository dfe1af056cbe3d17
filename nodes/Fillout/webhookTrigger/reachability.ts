/**
 * Fillout's cloud can only deliver to addresses on the public internet. These pure
 * checks let the trigger refuse to register an address the service could never call.
 */

import { privateAddressOf } from '../shared/networkAddress';

/** Whether the API root is Fillout's cloud (fillout.com or one of its subdomains). */
export function isFilloutCloud(apiRoot: string): boolean {
	let host: string;
	try {
		host = new URL(apiRoot).hostname.toLowerCase().replace(/\.$/, '');
	} catch {
		return false;
	}
	return host === 'fillout.com' || host.endsWith('.fillout.com');
}

/**
 * Why the internet cannot reach this address, or undefined when it may: the loopback,
 * private, link-local and local-name addresses that Download Files refuses too.
 */
export function unreachableReason(address: string): string | undefined {
	let url: URL;
	try {
		url = new URL(address);
	} catch {
		return 'not a valid URL';
	}
	if (url.hostname === '') return 'an empty host name';
	return privateAddressOf(url.href)?.what;
}
