import { isFilloutCloud, unreachableReason } from '../../nodes/Fillout/trigger/reachability';

describe('isFilloutCloud', () => {
	it.each([
		['https://api.fillout.com/v1/api', true],
		['https://eu-api.fillout.com/v1/api', true],
		['https://ca-api.fillout.com/v1/api', true],
		['https://API.Fillout.com./v1/api', true],
		['https://fillout.com/v1/api', true],
		['http://127.0.0.1:4000/v1/api', false],
		['https://fillout.example.com/v1/api', false],
		['https://notfillout.com/v1/api', false],
		['https://api.fillout.com.evil.example/v1/api', false],
		['not a url', false],
	])('%s → %s', (apiRoot, expected) => {
		expect(isFilloutCloud(apiRoot)).toBe(expected);
	});
});

describe('unreachableReason', () => {
	it.each([
		['http://localhost:5678/webhook/x/webhook', 'localhost'],
		['http://LOCALHOST./webhook', 'localhost'],
		['http://n8n.localhost/webhook', 'local network name'],
		['http://127.0.0.1:5678/webhook', 'loopback'],
		['http://127.45.6.7/webhook', 'loopback'],
		['http://2130706433/webhook', 'loopback'], // 127.0.0.1 written as one number
		['http://10.1.2.3/webhook', '10.0.0.0/8'],
		['http://172.16.0.1/webhook', '172.16.0.0/12'],
		['http://172.31.255.255/webhook', '172.16.0.0/12'],
		['http://192.168.1.20:5678/webhook', '192.168.0.0/16'],
		['http://169.254.169.254/webhook', '169.254.0.0/16'],
		['http://100.64.0.1/webhook', '100.64.0.0/10'],
		['http://0.0.0.0:5678/webhook', 'unspecified'],
		['http://[::1]:5678/webhook', '::1'],
		['http://[::]/webhook', 'unspecified IPv6'],
		['http://[fc00::1]/webhook', 'fc00::/7'],
		['http://[fd12:3456:789a::1]/webhook', 'fc00::/7'],
		['http://[fe80::1]/webhook', 'fe80::/10'],
		['http://[::ffff:192.168.0.1]/webhook', '192.168.0.0/16'],
		['http://[::ffff:127.0.0.1]/webhook', 'loopback'],
		['http://my-nas.local:5678/webhook', '*.local'],
		['http://n8n.internal/webhook', '*.internal'],
		['http://n8n:5678/webhook', 'without a domain'],
		['http://host.docker.internal:5678/webhook', '*.internal'],
	])('%s is not reachable from the internet (%s)', (address, reason) => {
		expect(unreachableReason(address)).toEqual(expect.stringContaining(reason));
	});

	it.each([
		'https://n8n.example.com/webhook/x/webhook',
		'https://n8n.example.com:8443/webhook',
		'http://8.8.8.8/webhook',
		'http://172.15.0.1/webhook',
		'http://172.32.0.1/webhook',
		'http://192.169.0.1/webhook',
		'http://100.128.0.1/webhook',
		'http://[2001:db8::1]/webhook',
		'http://[2606:4700::6810:84e5]/webhook',
		'https://local.example.com/webhook',
		'https://localhost.example.com/webhook',
	])('%s may be reachable', (address) => {
		expect(unreachableReason(address)).toBeUndefined();
	});

	it('calls an unparseable address unreachable', () => {
		expect(unreachableReason('not a url')).toBe('not a valid URL');
	});
});
