import { isFilloutCloud, unreachableReason } from '../../nodes/Fillout/webhookTrigger/reachability';

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
		['http://localhost:5678/webhook/x/webhook', 'a loopback address'],
		['http://LOCALHOST./webhook', 'a loopback address'],
		['http://n8n.localhost/webhook', 'a loopback address'],
		['http://127.0.0.1:5678/webhook', 'a loopback address'],
		['http://127.45.6.7/webhook', 'a loopback address'],
		['http://2130706433/webhook', 'a loopback address'], // 127.0.0.1 written as one number
		['http://10.1.2.3/webhook', 'a private network address'],
		['http://172.16.0.1/webhook', 'a private network address'],
		['http://172.31.255.255/webhook', 'a private network address'],
		['http://192.168.1.20:5678/webhook', 'a private network address'],
		['http://169.254.169.254/webhook', 'a link-local or cloud metadata address'],
		['http://100.64.0.1/webhook', 'a private network address (shared address space)'],
		['http://0.0.0.0:5678/webhook', 'an address of this machine'],
		['http://[::1]:5678/webhook', 'a loopback address'],
		['http://[::]/webhook', 'an address of this machine'],
		['http://[fc00::1]/webhook', 'a private network address'],
		['http://[fd12:3456:789a::1]/webhook', 'a private network address'],
		['http://[fe80::1]/webhook', 'a link-local or cloud metadata address'],
		['http://[::ffff:192.168.0.1]/webhook', 'a private network address'],
		['http://[::ffff:127.0.0.1]/webhook', 'a loopback address'],
		['http://my-nas.local:5678/webhook', 'a local network name'],
		['http://nas.lan:5678/webhook', 'a local network name'],
		['http://n8n.internal/webhook', 'a local network name'],
		['http://n8n:5678/webhook', 'a local network name'],
		['http://host.docker.internal:5678/webhook', 'a local network name'],
	])('%s is not reachable from the internet (%s)', (address, reason) => {
		expect(unreachableReason(address)).toBe(reason);
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
