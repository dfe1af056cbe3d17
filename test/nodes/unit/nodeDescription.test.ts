import { FilloutFormsApi } from '../../../credentials/FilloutFormsApi.credentials';
import { FilloutFormsOAuth2Api } from '../../../credentials/FilloutFormsOAuth2Api.credentials';
import { Fillout } from '../../../nodes/Fillout/Fillout.node';
import { FilloutPollingTrigger } from '../../../nodes/Fillout/FilloutPollingTrigger.node';
import { FilloutTrigger } from '../../../nodes/Fillout/FilloutTrigger.node';

const node = new Fillout();
const { description } = node;
const trigger = new FilloutTrigger();
const poller = new FilloutPollingTrigger();

describe('Fillout node description', () => {
	it('is a programmatic, tool-usable node with a subtitle and both credentials', () => {
		expect(description.name).toBe('fillout');
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expect(typeof node.execute).toBe('function');
		expect(description.credentials).toEqual([
			expect.objectContaining({
				name: 'filloutFormsApi',
				displayOptions: { show: { authentication: ['apiKey'] } },
			}),
			expect.objectContaining({
				name: 'filloutFormsOAuth2Api',
				displayOptions: { show: { authentication: ['oAuth2'] } },
			}),
		]);
	});

	it('offers every operation with an action', () => {
		const operations = description.properties.filter((p) => p.name === 'operation');
		const offered = operations.flatMap((p) =>
			(p.options as Array<{ value: string; action?: string }>).map(
				(o) => `${p.displayOptions?.show?.resource}:${o.value}`,
			),
		);
		expect(offered.sort()).toEqual(
			[
				'form:get',
				'form:getMany',
				'submission:count',
				'submission:create',
				'submission:delete',
				'submission:get',
				'submission:getMany',
				'webhook:create',
				'webhook:delete',
			].sort(),
		);
		for (const p of operations) {
			for (const option of p.options as Array<{ action?: string }>)
				expect(option.action).toMatch(/^[A-Z]/);
		}
	});
});

describe('Fillout Trigger description', () => {
	const described = trigger.description;

	it('is a webhook trigger with the node’s credentials, a form, catch-up, Simplify and Download Files', () => {
		expect(described.name).toBe('filloutTrigger');
		// 1.1 turns catch-up on for new nodes; nodes saved on 1 keep it off.
		expect(described.version).toEqual([1, 1.1]);
		expect(described.defaultVersion).toBe(1.1);
		expect(described.group).toEqual(['trigger']);
		expect(described.inputs).toEqual([]);
		expect(described.outputs).toEqual(['main']);
		expect(described.credentials).toEqual(description.credentials);
		expect(described.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
		expect(described.properties.map((p) => p.name)).toEqual([
			'authentication',
			'form',
			'catchUp',
			'catchUp',
			'catchUpMinutes',
			'simplify',
			'downloadFiles',
			'fileOptions',
		]);
		const catchUp = described.properties.filter((p) => p.name === 'catchUp');
		expect(catchUp.map((p) => [p.default, p.displayOptions?.show?.['@version']])).toEqual([
			[true, [{ _cnd: { gte: 1.1 } }]],
			[false, [1]],
		]);
		expect(typeof trigger.webhook).toBe('function');
		// The checks for missed submissions run on n8n's schedule, in the main process.
		expect(typeof trigger.trigger).toBe('function');
		expect(Object.keys(trigger.webhookMethods.default).sort()).toEqual([
			'checkExists',
			'create',
			'delete',
		]);
	});
});

describe('Fillout Polling Trigger description', () => {
	const described = poller.description;

	it('is a polling trigger beside the webhook one: same credentials, form, Simplify and Download Files', () => {
		expect(described.name).toBe('filloutPollingTrigger');
		// Searching "Fillout" in the node panel shows both, and the names tell them apart.
		expect(described.displayName).toBe('Fillout Polling Trigger');
		expect(described.polling).toBe(true);
		expect(described.group).toEqual(['trigger']);
		expect(described.inputs).toEqual([]);
		expect(described.credentials).toEqual(description.credentials);
		expect(described.webhooks).toBeUndefined();
		expect(described.properties.map((p) => p.name)).toEqual([
			'authentication',
			'form',
			'startFrom',
			'startDate',
			'inProgress',
			'filters',
			'options',
			'simplify',
			'downloadFiles',
			'fileOptions',
		]);
		expect(typeof poller.poll).toBe('function');
	});
});

describe('credential descriptions', () => {
	it('the API key credential keeps the key hidden and tests it with a request', () => {
		const apiKey = new FilloutFormsApi();
		expect(apiKey.name).toBe('filloutFormsApi');
		expect(apiKey.properties.find((p) => p.name === 'apiKey')?.typeOptions).toEqual({
			password: true,
		});
		expect(apiKey.test.request.url).toBe('/forms');
	});

	it('the OAuth2 credential extends n8n’s OAuth2 with no scopes', () => {
		const oauth = new FilloutFormsOAuth2Api();
		expect(oauth.name).toBe('filloutFormsOAuth2Api');
		expect(oauth.extends).toEqual(['oAuth2Api']);
		expect(oauth.properties.find((p) => p.name === 'scope')).toMatchObject({
			type: 'hidden',
			default: '',
		});
	});
});
