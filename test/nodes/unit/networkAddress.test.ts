import { privateAddressOf } from '../../../nodes/Fillout/shared/networkAddress';

/** `public` only when nothing is found (not any other value without a kind). */
const kindOf = (url: string) => {
	const found = privateAddressOf(url);
	return found === undefined ? 'public' : found.kind;
};

describe('privateAddressOf', () => {
	it.each([
		'https://files.fillout.com/upload/cv.pdf',
		'https://s3.amazonaws.com/bucket/cv.pdf',
		'http://8.8.8.8/a',
		'http://11.0.0.1/a',
		'http://172.15.255.255/a',
		'http://172.32.0.1/a',
		'http://192.169.0.1/a',
		'http://100.63.255.255/a',
		'http://100.128.0.1/a',
		'http://169.253.255.255/a',
		'http://[2606:4700::1111]/a',
		'http://[fbff::1]/a',
		'http://[::ffff:8.8.8.8]/a',
		'http://[2002:808:808::1]/a',
		'http://localhost.example.com/a',
		'http://mylocal.com/a',
	])('%s may be public', (url) => {
		expect(kindOf(url)).toBe('public');
	});

	it.each([
		['http://127.0.0.1/a', 'a loopback address'],
		['http://127.255.255.254/a', 'a loopback address'],
		['http://2130706433/a', 'a loopback address'],
		['http://0x7f000001/a', 'a loopback address'],
		['http://0177.0.0.1/a', 'a loopback address'],
		['http://127.0.0.1./a', 'a loopback address'],
		['http://LOCALHOST./a', 'a loopback address'],
		['http://api.localhost/a', 'a loopback address'],
		['http://localhost.localdomain/a', 'a loopback address'],
		['http://[::1]/a', 'a loopback address'],
		['http://[0:0:0:0:0:0:0:1]/a', 'a loopback address'],
		['http://[::ffff:127.0.0.1]/a', 'a loopback address'],
		['http://[::127.0.0.1]/a', 'a loopback address'],
		['http://[64:ff9b::7f00:1]/a', 'a loopback address'],
		['http://[2002:7f00:1::]/a', 'a loopback address'],
		['http://0.0.0.0/a', 'an address of this machine'],
		['http://0/a', 'an address of this machine'],
		['http://[::]/a', 'an address of this machine'],
		['http://10.0.0.1/a', 'a private network address'],
		['http://172.16.0.1/a', 'a private network address'],
		['http://172.31.255.255/a', 'a private network address'],
		['http://192.168.0.1/a', 'a private network address'],
		['http://[::ffff:192.168.0.1]/a', 'a private network address'],
		['http://100.64.0.1/a', 'a private network address (shared address space)'],
		['http://[fc00::1]/a', 'a private network address'],
		['http://[fdff:ffff::1]/a', 'a private network address'],
		['http://224.0.0.1/a', 'a multicast address'],
		['http://255.255.255.255/a', 'a reserved address'],
		['http://[ff02::1]/a', 'a multicast address'],
		['http://intranet/a', 'a local network name'],
		['http://nas.local/a', 'a local network name'],
		['http://files.corp.internal/a', 'a local network name'],
		['http://printer.home.arpa/a', 'a local network name'],
		['http://nas.lan/a', 'a local network name'],
	])('%s is refused unless allowed: %s', (url, what) => {
		expect(privateAddressOf(url)).toEqual({ kind: 'private', what });
	});

	it.each([
		'http://169.254.169.254/latest/meta-data/',
		'http://169.254.170.2/v2/credentials',
		'http://169.254.0.1/a',
		'http://2852039166/latest/meta-data/',
		'http://0xa9.0xfe.0xa9.0xfe/a',
		'http://[::ffff:169.254.169.254]/a',
		'http://[64:ff9b::a9fe:a9fe]/a',
		'http://[fe80::1]/a',
		'http://[febf::1]/a',
		'http://[fd00:ec2::254]/latest/meta-data/',
		'http://metadata.google.internal/computeMetadata/v1/',
		'http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/',
		'http://metadata/computeMetadata/v1/',
		'http://metadata.goog/a',
		'http://instance-data/latest/',
		'http://100.100.100.200/latest/meta-data/',
		'http://192.0.0.192/opc/v1/',
		'http://168.63.129.16/machine',
	])('%s is refused always (metadata)', (url) => {
		expect(kindOf(url)).toBe('metadata');
	});

	// Each range by its edges: its first and last address, and the addresses just outside
	// it (written out by hand, so a range shrunk or widened by one bit is caught).
	const LOCAL = 'a private network address';
	const SHARED = 'a private network address (shared address space)';
	const RESERVED = 'a reserved address';
	const METADATA = 'a link-local or cloud metadata address';
	it.each([
		['0.0.0.0/8', '0.0.0.0', '0.255.255.255', 'an address of this machine', [undefined, '1.0.0.0']],
		[
			'127.0.0.0/8',
			'127.0.0.0',
			'127.255.255.255',
			'a loopback address',
			['126.255.255.255', '128.0.0.0'],
		],
		['10.0.0.0/8', '10.0.0.0', '10.255.255.255', LOCAL, ['9.255.255.255', '11.0.0.0']],
		['172.16.0.0/12', '172.16.0.0', '172.31.255.255', LOCAL, ['172.15.255.255', '172.32.0.0']],
		['192.168.0.0/16', '192.168.0.0', '192.168.255.255', LOCAL, ['192.167.255.255', '192.169.0.0']],
		['100.64.0.0/10', '100.64.0.0', '100.127.255.255', SHARED, ['100.63.255.255', '100.128.0.0']],
		['192.0.0.0/24', '192.0.0.0', '192.0.0.255', RESERVED, ['191.255.255.255', '192.0.1.0']],
		['198.18.0.0/15', '198.18.0.0', '198.19.255.255', RESERVED, ['198.17.255.255', '198.20.0.0']],
		[
			'224.0.0.0/4',
			'224.0.0.0',
			'239.255.255.255',
			'a multicast address',
			['223.255.255.255', undefined],
		],
		['240.0.0.0/4', '240.0.0.0', '255.255.255.255', RESERVED, [undefined, undefined]],
	] as const)(
		'IPv4 %s: its first and last address are refused, the ones beside it are not',
		(_, first, last, what, outside) => {
			expect(privateAddressOf(`http://${first}/a`)).toEqual({ kind: 'private', what });
			expect(privateAddressOf(`http://${last}/a`)).toEqual({ kind: 'private', what });
			for (const beside of outside)
				if (beside !== undefined)
					expect([beside, kindOf(`http://${beside}/a`)]).toEqual([beside, 'public']);
		},
	);

	it('IPv4 169.254.0.0/16 (link-local, where clouds serve metadata): first and last always refused, the ones beside it not', () => {
		expect(privateAddressOf('http://169.254.0.0/a')).toEqual({ kind: 'metadata', what: METADATA });
		expect(privateAddressOf('http://169.254.255.255/a')).toEqual({
			kind: 'metadata',
			what: METADATA,
		});
		expect(kindOf('http://169.253.255.255/a')).toBe('public');
		expect(kindOf('http://169.255.0.0/a')).toBe('public');
	});

	const ALL_ONES = 'ffff:ffff:ffff:ffff:ffff';
	it.each([
		// [range, address, kind, what]
		['fc00::/7', 'fbff:ffff:ffff:' + ALL_ONES, 'public', undefined],
		['fc00::/7', 'fc00::', 'private', LOCAL],
		['fc00::/7', 'fdff:ffff:ffff:' + ALL_ONES, 'private', LOCAL],
		['fe80::/10', 'fe7f:ffff:ffff:' + ALL_ONES, 'public', undefined],
		['fe80::/10', 'fe80::', 'metadata', METADATA],
		['fe80::/10', 'febf:ffff:ffff:' + ALL_ONES, 'metadata', METADATA],
		['fec0::/10 (site-local)', 'fec0::', 'private', 'a site-local address'],
		['fec0::/10 (site-local)', 'fec0::1', 'private', 'a site-local address'],
		['fec0::/10 (site-local)', 'feff:ffff:ffff:' + ALL_ONES, 'private', 'a site-local address'],
		['ff00::/8', 'ff00::', 'private', 'a multicast address'],
		['ff00::/8', 'ffff:ffff:ffff:' + ALL_ONES, 'private', 'a multicast address'],
		['64:ff9b:1::/48 (local-use NAT64)', '64:ff9b:0:' + ALL_ONES, 'public', undefined],
		['64:ff9b:1::/48 (local-use NAT64)', '64:ff9b:1::', 'private', 'a local-use NAT64 address'],
		[
			'64:ff9b:1::/48 (local-use NAT64)',
			'64:ff9b:1::808:808',
			'private',
			'a local-use NAT64 address',
		],
		[
			'64:ff9b:1::/48 (local-use NAT64)',
			'64:ff9b:1:' + ALL_ONES,
			'private',
			'a local-use NAT64 address',
		],
		['64:ff9b:1::/48 (local-use NAT64)', '64:ff9b:2::', 'public', undefined],
		['::ffff:0:0/96 (SIIT)', '::fffe:ffff:ffff:ffff', 'public', undefined],
		['::ffff:0:0/96 (SIIT)', '::ffff:0:0:0', 'private', 'an address of this machine'],
		['::ffff:0:0/96 (SIIT)', '::ffff:0:8.8.8.8', 'private', 'an IPv4-translated (SIIT) address'],
		['::ffff:0:0/96 (SIIT)', '::ffff:0:127.0.0.1', 'private', 'a loopback address'],
		['::ffff:0:0/96 (SIIT)', '::ffff:0:10.1.2.3', 'private', LOCAL],
		['::ffff:0:0/96 (SIIT)', '::ffff:0:ffff:ffff', 'private', RESERVED],
		['::ffff:0:0/96 (SIIT)', '::ffff:1:0:0', 'public', undefined],
		['::ffff:0:0/96 (SIIT)', '0:0:0:1:ffff:0:808:808', 'public', undefined],
		['64:ff9b:1::/48 (local-use NAT64)', '64:ff9a:1::', 'public', undefined],
		['64:ff9b:1::/48 (local-use NAT64)', '65:ff9b:1::', 'public', undefined],
	] as const)('IPv6 %s: [%s] is %s', (_, address, kind, what) => {
		const found = privateAddressOf(`http://[${address}]/a`);
		expect(found ?? 'public').toEqual(kind === 'public' ? 'public' : { kind, what });
	});

	it.each([
		['/96 (and the well-known /96)', '64:ff9b:1::a9fe:a9fe'],
		['/48', '64:ff9b:1:a9fe:a9:fe00::'],
		// 100.100.100.200 at /48, where no other length reads a metadata address.
		['/48', '64:ff9b:1:6464:64:c800::'],
		['/56', '64:ff9b:1:a9:fe:a9fe::'],
		['/64', '64:ff9b:1:0:a9:fea9:fe00:0'],
		['/96 (SIIT)', '::ffff:0:169.254.169.254'],
		['/96 (SIIT)', '::ffff:0:100.100.100.200'],
	])(
		'169.254.169.254 carried in a translated address (%s) is refused always: [%s]',
		(_, address) => {
			expect(kindOf(`http://[${address}]/a`)).toBe('metadata');
		},
	);

	it.each([
		['http://files.default.svc/a', 'a local network name'],
		['http://FILES.DEFAULT.SVC./a', 'a local network name'],
		['http://minio.storage.svc.cluster.local/a', 'a local network name'],
	])('%s (cluster DNS) is refused unless allowed: %s', (url, what) => {
		expect(privateAddressOf(url)).toEqual({ kind: 'private', what });
	});

	it.each(['http://svc.example.com/a', 'http://files.svc.example.com/a', 'http://example.svcs/a'])(
		'%s may be public',
		(url) => expect(kindOf(url)).toBe('public'),
	);
});
