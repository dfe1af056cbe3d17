import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	control,
	demoFormId,
	formById,
	jsonOf,
	metadataDirect,
	newForm,
	pairedIndex,
	runFillout,
	useSandbox,
	httpCodeOf,
} from './support';

const sandbox = useSandbox();

describe('Form → Get Many', () => {
	it('lists the account’s forms: simplified, raw, or up to a limit', async () => {
		const run = async (extra: INodeParameters) =>
			jsonOf(await runFillout(sandbox(), { resource: 'form', operation: 'getMany', ...extra }));
		const all = await run({ returnAll: true });
		expect(all.map((f) => f.name)).toEqual(
			expect.arrayContaining(['Customer Feedback Survey', 'Newsletter signup']),
		);
		expect(Object.keys(all[0]).sort()).toEqual(['formId', 'name']);
		const raw = await run({ returnAll: true, simplify: false });
		expect(raw[0]).toEqual(
			expect.objectContaining({ formId: all[0].formId, tags: expect.any(Array) }),
		);
		expect(await run({ returnAll: false, limit: 2 })).toHaveLength(2);
	});
});

describe('Form → Get and the form locator', () => {
	it.each([
		['list', (id: string) => id],
		['id', (id: string) => id],
		['url', (id: string) => `https://forms.fillout.com/t/${id}`],
		['url', (id: string) => `https://acme.fillout.com/t/${id}?utm=x`],
		['url', (id: string) => `https://build.fillout.com/editor/${id}/results`],
	])('mode %s: %s', async (mode, value) => {
		const formId = await demoFormId(sandbox(), 'Event Registration');
		const result = await runFillout(sandbox(), {
			resource: 'form',
			operation: 'get',
			form: { __rl: true, mode, value: value(formId) },
		});
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([await metadataDirect(sandbox(), formId)]);
	});

	it('leaves out question types the node does not know unless Simplify is off', async () => {
		const form = await newForm(sandbox(), {
			questions: [
				{ name: 'Name', type: 'ShortAnswer' },
				{ name: 'Scan', type: 'HologramInput' },
				{ name: 'Born', type: 'DatePicker' },
			],
		});
		const get = async (extra: INodeParameters = {}) =>
			jsonOf(
				await runFillout(sandbox(), {
					resource: 'form',
					operation: 'get',
					form: formById(form.id),
					...extra,
				}),
			)[0];
		const raw = await metadataDirect(sandbox(), form.id);
		const types = (metadata: IDataObject) =>
			(metadata.questions as IDataObject[]).map((question) => question.type);
		expect(types(await get())).toEqual(['ShortAnswer', 'DatePicker']);
		expect(await get()).toEqual({
			...raw,
			questions: (raw.questions as IDataObject[]).filter((q) => q.type !== 'HologramInput'),
		});
		expect(await get({ simplify: false })).toEqual(raw);
		expect(types(await get({ simplify: false }))).toEqual([
			'ShortAnswer',
			'HologramInput',
			'DatePicker',
		]);
	});

	it('refuses an address that is not a form (in the editor, and from an expression at run time)', async () => {
		const typed = await runFillout(sandbox(), {
			resource: 'form',
			operation: 'get',
			form: { __rl: true, mode: 'url', value: 'https://example.com/t/abc' },
		}).catch((error: Error) => error);
		expect(String((typed as Error).message)).toMatch(/Not a Fillout form address/);
		const bad = await runFillout(sandbox(), {
			resource: 'form',
			operation: 'get',
			form: { __rl: true, mode: 'url', value: '={{ "https://example.com/t/abc" }}' },
		});
		expect(bad.error?.message).toBe(
			'"https://example.com/t/abc" does not name a Fillout form [item 0]',
		);
		const missing = await runFillout(sandbox(), {
			resource: 'form',
			operation: 'get',
			form: formById('noSuchForm12'),
		});
		expect(missing.error?.message).toBe('Form noSuchForm12 not found');
		expect(httpCodeOf(missing.error)).toBe('404');
	});
});

describe('Webhook → Create and Delete', () => {
	it('subscribes an address to a form and removes it again', async () => {
		const formId = await demoFormId(sandbox(), 'Newsletter');
		const created = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'create',
			form: formById(formId),
			url: 'https://example.com/hooks/fillout',
		});
		expect(created.error).toBeUndefined();
		const [{ id }] = jsonOf(created);
		expect(typeof id).toBe('number');
		expect(pairedIndex(created.items[0])).toBe(0);
		const hooks = await control(sandbox(), 'GET', '/webhooks');
		expect(hooks).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ id, formId, url: 'https://example.com/hooks/fillout' }),
			]),
		);

		const deleted = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'delete',
			webhookId: String(id),
		});
		expect(jsonOf(deleted)).toEqual([{ deleted: true, webhookId: id }]);
		expect(
			(await control(sandbox(), 'GET', '/webhooks')).some((hook: { id: number }) => hook.id === id),
		).toBe(false);

		const again = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'delete',
			webhookId: String(id),
		});
		expect(again.error?.message).toBe(`Webhook ${id} not found`);
	});

	it('refuses a webhook ID that is not a whole number, and a URL that is not http(s)', async () => {
		const badId = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'delete',
			webhookId: 'abc',
		});
		expect(badId.error?.message).toBe('"Webhook ID" must be a whole number, got "abc" [item 0]');
		const formId = await demoFormId(sandbox(), 'Newsletter');
		const badUrl = await runFillout(sandbox(), {
			resource: 'webhook',
			operation: 'create',
			form: formById(formId),
			url: 'ftp://example.com',
		});
		expect(badUrl.error?.message).toBe('"URL" must be an http:// or https:// address [item 0]');
	});
});
