/**
 * Which addresses point into a private network, judged from the address alone (a
 * node cannot resolve names; n8n's N8N_SSRF_PROTECTION_ENABLED checks what names resolve
 * to). The URL parser has already turned every spelling of an IPv4 address (decimal,
 * hex, octal, short forms) into dotted decimal and every IPv6 address into its short form.
 * Pure; Download Files checks every hop (downloadFiles/download.ts), the webhook trigger
 * its own address.
 */

/** `private`: refused unless the user allows private addresses. `metadata`: always refused. */
export type AddressKind = 'private' | 'metadata';

export interface PrivateAddress {
	kind: AddressKind;
	/** What the address is, e.g. "a loopback address". */
	what: string;
}

/** Cloud instance-metadata endpoints outside the link-local range, and their names. */
const METADATA_IPV4 = new Set(['100.100.100.200', '192.0.0.192', '168.63.129.16']);
const METADATA_NAMES = new Set([
	'metadata',
	'metadata.google.internal',
	'metadata.goog',
	'instance-data',
	'instance-data.ec2.internal',
]);

const METADATA: PrivateAddress = {
	kind: 'metadata',
	what: 'a link-local or cloud metadata address',
};

/** [first address, prefix length, what it is]; link-local is where clouds serve metadata. */
const IPV4_RANGES: Array<[string, number, string]> = [
	['0.0.0.0', 8, 'an address of this machine'],
	['127.0.0.0', 8, 'a loopback address'],
	['10.0.0.0', 8, 'a private network address'],
	['172.16.0.0', 12, 'a private network address'],
	['192.168.0.0', 16, 'a private network address'],
	['100.64.0.0', 10, 'a private network address (shared address space)'],
	['192.0.0.0', 24, 'a reserved address'],
	['198.18.0.0', 15, 'a reserved address'],
	['224.0.0.0', 4, 'a multicast address'],
	['240.0.0.0', 4, 'a reserved address'],
];

function ipv4Number(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255))
		return undefined;
	return parts.reduce((sum, part) => sum * 256 + Number(part), 0);
}

function inIpv4Range(address: number, first: string, bits: number): boolean {
	const size = 2 ** (32 - bits);
	return Math.floor(address / size) === Math.floor((ipv4Number(first) ?? 0) / size);
}

function classifyIpv4(text: string): PrivateAddress | undefined {
	const address = ipv4Number(text);
	if (address === undefined) return undefined;
	if (METADATA_IPV4.has(text) || inIpv4Range(address, '169.254.0.0', 16)) return METADATA;
	const range = IPV4_RANGES.find(([first, bits]) => inIpv4Range(address, first, bits));
	return range && { kind: 'private', what: range[2] };
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (no brackets). */
function ipv6Groups(text: string): number[] | undefined {
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string) => (half === '' ? [] : half.split(':').map((g) => parseInt(g, 16)));
	const head = groups(halves[0]);
	const tail = halves.length === 2 ? groups(halves[1]) : [];
	const missing = 8 - head.length - tail.length;
	if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
	const all = [...head, ...Array<number>(missing).fill(0), ...tail];
	return all.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff) ? undefined : all;
}

function ipv4Of(high: number, low: number): string {
	return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The IPv4 addresses a local-use NAT64 address (64:ff9b:1::/48) may carry, one per prefix
 * length a network may use inside it (RFC 6052: /48, /56, /64, /96; bits 64-71 skipped).
 */
function nat64Candidates(g: number[]): string[] {
	const bytes = g.flatMap((group) => [group >> 8, group & 0xff]).filter((_, i) => i !== 8);
	return [6, 7, 8, 11].map((from) => bytes.slice(from, from + 4).join('.'));
}

/** An address that carries an IPv4 address: what it is, or `public`; undefined for other addresses. */
function classifyEmbedding(g: number[]): PrivateAddress | 'public' | undefined {
	const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
	const embedded = () => classifyIpv4(ipv4Of(g[6], g[7]));
	// Mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), well-known NAT64 (64:ff9b::/96).
	if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return embedded() ?? 'public';
	if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded() ?? 'public';
	if (g[0] === 0x2002) return classifyIpv4(ipv4Of(g[1], g[2])) ?? 'public'; // 6to4
	// SIIT (::ffff:0:a.b.c.d) and local-use NAT64 only reach what a translator in the local network reaches.
	if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0)
		return embedded() ?? { kind: 'private', what: 'an IPv4-translated (SIIT) address' };
	if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) {
		const kinds = nat64Candidates(g).map((v4) => classifyIpv4(v4)?.kind);
		if (kinds.includes('metadata')) return METADATA;
		return { kind: 'private', what: 'a local-use NAT64 address' };
	}
	return undefined;
}

function classifyIpv6(text: string): PrivateAddress | undefined {
	const g = ipv6Groups(text);
	if (!g) return undefined;
	const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
	if (zeros(0, 8)) return { kind: 'private', what: 'an address of this machine' };
	if (zeros(0, 7) && g[7] === 1) return { kind: 'private', what: 'a loopback address' };
	const embedding = classifyEmbedding(g);
	if (embedding) return embedding === 'public' ? undefined : embedding;
	if ((g[0] & 0xffc0) === 0xfe80) return METADATA;
	if (g[0] === 0xfd00 && g[1] === 0xec2)
		return { kind: 'metadata', what: 'a cloud metadata address' };
	if ((g[0] & 0xffc0) === 0xfec0) return { kind: 'private', what: 'a site-local address' };
	if ((g[0] & 0xfe00) === 0xfc00) return { kind: 'private', what: 'a private network address' };
	if ((g[0] & 0xff00) === 0xff00) return { kind: 'private', what: 'a multicast address' };
	return undefined;
}

/** Names that only this machine or a local network resolves. */
function classifyName(name: string): PrivateAddress | undefined {
	if (METADATA_NAMES.has(name)) return { kind: 'metadata', what: 'a cloud metadata address' };
	if (name === 'localhost' || name.endsWith('.localhost') || name === 'localhost.localdomain')
		return { kind: 'private', what: 'a loopback address' };
	if (!name.includes('.')) return { kind: 'private', what: 'a local network name' };
	if (/\.(local|internal|localdomain|lan|home\.arpa|svc)$/.test(name))
		return { kind: 'private', what: 'a local network name' };
	return undefined;
}

/**
 * What a URL's host is when it is not a public one, or undefined when it may be public.
 * `url` must parse (the caller checked it is http(s)).
 */
export function privateAddressOf(url: string): PrivateAddress | undefined {
	const host = new URL(url).hostname.toLowerCase().replace(/\.+$/, '');
	if (host.startsWith('[')) return classifyIpv6(host.slice(1, -1));
	return classifyIpv4(host) ?? classifyName(host);
}
