import { privateAddressOf } from '../../../nodes/Fillout/shared/networkAddress';

const kindOf = (url: string) => privateAddressOf(url)?.kind ?? 'public';

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
		'http://[fec0::1]/a',
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
});
