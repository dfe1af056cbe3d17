/**
 * Fillout's cloud can only deliver to addresses on the public internet. These pure
 * checks let the trigger refuse to register an address the service could never call.
 */

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

/** Host names that only mean something on a local network. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

function ipv4Parts(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((part) => part <= 255) ? parts : undefined;
}

function privateIpv4(parts: readonly number[]): string | undefined {
	const [a, b] = parts;
	if (a === 127) return 'a loopback address (127.0.0.0/8)';
	if (a === 10) return 'a private address (10.0.0.0/8)';
	if (a === 172 && b >= 16 && b <= 31) return 'a private address (172.16.0.0/12)';
	if (a === 192 && b === 168) return 'a private address (192.168.0.0/16)';
	if (a === 169 && b === 254) return 'a link-local address (169.254.0.0/16)';
	if (a === 100 && b >= 64 && b <= 127)
		return 'a shared (carrier-grade NAT) address (100.64.0.0/10)';
	if (a === 0) return 'an unspecified address (0.0.0.0/8)';
	return undefined;
}

/** The 16-bit groups of an IPv6 address (as URL gives it: compressed, lower case). */
function ipv6Groups(host: string): number[] | undefined {
	if (!host.includes(':')) return undefined;
	let text = host;
	// An embedded IPv4 tail (URL normalises it to hex, but be lenient).
	const v4 = /(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(text);
	if (v4) {
		const parts = ipv4Parts(v4[1]);
		if (!parts) return undefined;
		text = `${text.slice(0, -v4[1].length)}${((parts[0] << 8) | parts[1]).toString(16)}:${((parts[2] << 8) | parts[3]).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const parse = (half: string) => (half === '' ? [] : half.split(':').map((g) => parseInt(g, 16)));
	const head = parse(halves[0]);
	const tail = halves.length === 2 ? parse(halves[1]) : [];
	const missing = 8 - head.length - tail.length;
	if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
	const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
	return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function privateIpv6(groups: readonly number[]): string | undefined {
	const allZeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
	if (allZeroUpTo(7) && groups[7] === 1) return 'the IPv6 loopback address (::1)';
	if (allZeroUpTo(8)) return 'the unspecified IPv6 address (::)';
	if ((groups[0] & 0xfe00) === 0xfc00) return 'a private IPv6 address (fc00::/7)';
	if ((groups[0] & 0xffc0) === 0xfe80) return 'a link-local IPv6 address (fe80::/10)';
	if (allZeroUpTo(5) && groups[5] === 0xffff) {
		// IPv4-mapped (::ffff:a.b.c.d)
		return privateIpv4([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff]);
	}
	return undefined;
}

/**
 * Why the internet cannot reach this address, or undefined when it may. Covers
 * localhost, loopback, private, link-local and unspecified IPv4/IPv6 ranges, local-only
 * names (`*.local`, `*.localhost`, `*.internal`, …) and bare host names without a dot.
 */
export function unreachableReason(address: string): string | undefined {
	let host: string;
	try {
		host = new URL(address).hostname.toLowerCase();
	} catch {
		return 'not a valid URL';
	}
	host = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
	if (host === '') return 'an empty host name';
	if (host === 'localhost') return 'localhost';
	const v6 = ipv6Groups(host);
	if (v6) return privateIpv6(v6);
	if (host.includes(':')) return undefined;
	const v4 = ipv4Parts(host);
	if (v4) return privateIpv4(v4);
	const suffix = LOCAL_SUFFIXES.find((s) => host.endsWith(s));
	if (suffix) return `a local network name (*${suffix})`;
	if (!host.includes('.')) return `a host name without a domain ("${host}")`;
	return undefined;
}
