import type { IDataObject } from 'n8n-workflow';

import {
	clearRecordLoss,
	createdWebhookId,
	noteRecordLoss,
	readRecord,
	recordLossOf,
	registrationFits,
	slotFor,
} from '../../nodes/Fillout/webhookTrigger/webhookRecord';

const record = {
	webhookId: 12,
	formId: 'form-1',
	url: 'https://n8n.example.com/webhook-test/abc/webhook',
	secret: 's'.repeat(43),
	apiRoot: 'https://api.fillout.com/v1/api',
	createdAt: '2024-01-01T00:00:00.000Z',
};

describe('slotFor', () => {
	it('puts "Listen for test event" (mode manual) in the test slot', () => {
		expect(slotFor('manual', 'https://n8n.example.com/webhook-test/abc/webhook', {})).toBe('test');
	});

	it('puts the active workflow in the production slot', () => {
		expect(slotFor('trigger', 'https://n8n.example.com/webhook/abc/webhook', {})).toBe(
			'production',
		);
		expect(
			slotFor('webhook', 'https://n8n.example.com/webhook/abc/webhook', {
				test: record,
			}),
		).toBe('production');
	});

	it('recognises the test webhook’s removal (mode internal) by its address', () => {
		expect(slotFor('internal', record.url, { test: record })).toBe('test');
		expect(
			slotFor('internal', 'https://n8n.example.com/webhook/abc/webhook', {
				test: record,
			}),
		).toBe('production');
		expect(slotFor('internal', record.url, {})).toBe('production');
	});
});

describe('readRecord', () => {
	it('reads a record', () => {
		expect(readRecord(record)).toEqual(record);
		expect(readRecord({ ...record, webhookId: '12' })).toMatchObject({
			webhookId: '12',
		});
	});

	it.each([
		undefined,
		null,
		'x',
		{},
		{ ...record, webhookId: undefined },
		{ ...record, webhookId: '' },
		{ ...record, secret: 1 },
		{ ...record, apiRoot: undefined },
	])('ignores %j', (value) => {
		expect(readRecord(value)).toBeUndefined();
	});
});

describe('createdWebhookId', () => {
	it.each<[unknown, number | string | undefined]>([
		[{ id: 42 }, 42],
		[{ id: '42' }, 42],
		[{ id: 'wh_abc' }, 'wh_abc'],
		[{ id: '' }, undefined],
		[{ id: null }, undefined],
		[{}, undefined],
		[null, undefined],
		['42', undefined],
	])('%j → %j', (answer, expected) => {
		expect(createdWebhookId(answer)).toBe(expected);
	});
});

describe('registrationFits', () => {
	const wanted = { formId: record.formId, url: record.url, apiRoot: record.apiRoot };

	it('fits the same form, address and API root (secret, name and dates do not matter)', () => {
		expect(registrationFits(record, wanted)).toBe(true);
		expect(
			registrationFits({ ...record, formName: 'Renamed', secret: 't'.repeat(43) }, wanted),
		).toBe(true);
	});

	it.each<[string, Partial<typeof wanted>]>([
		['another form', { formId: 'form-2' }],
		['another n8n address', { url: 'https://n8n.example.org/webhook-test/abc/webhook' }],
		['no n8n address', { url: undefined }],
		['another API root', { apiRoot: 'https://eu-api.fillout.com/v1/api' }],
	])('does not fit %s', (_label, change) => {
		expect(registrationFits(record, { ...wanted, ...change })).toBe(false);
	});

	it('does not fit a record without an address', () => {
		expect(
			registrationFits(
				{ ...record, url: undefined as unknown as string },
				{ ...wanted, url: undefined },
			),
		).toBe(false);
	});
});

describe('the record loss note', () => {
	it('keeps the first detection of a slot, beside the other slot’s', () => {
		const data = { production: record };
		noteRecordLoss(data, 'production', 'delivery');
		const first = recordLossOf(data, 'production');
		noteRecordLoss(data, 'production', 'restart');
		noteRecordLoss(data, 'test', 'deactivation');

		expect(first).toEqual({ detectedAt: expect.any(String), detectedBy: 'delivery' });
		expect(data).toEqual({
			production: record,
			lost: {
				production: first,
				test: { detectedAt: expect.any(String), detectedBy: 'deactivation' },
			},
		});
	});

	it('is cleared per slot, and gone with the last one', () => {
		const data: IDataObject = { production: record };
		noteRecordLoss(data, 'production', 'delivery');
		noteRecordLoss(data, 'test', 'delivery');
		clearRecordLoss(data, 'test');
		expect(recordLossOf(data, 'test')).toBeUndefined();
		expect(recordLossOf(data, 'production')?.detectedBy).toBe('delivery');
		clearRecordLoss(data, 'production');
		expect(data).toEqual({ production: record });
	});
});
