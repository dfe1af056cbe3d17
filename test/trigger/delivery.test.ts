import type { Submission } from '../../nodes/Fillout/shared/interfaces';
import { readableSubmission, submissionItem } from '../../nodes/Fillout/shared/submissionItem';
import { parseDelivery } from '../../nodes/Fillout/webhookTrigger/delivery';

const submission: Submission = {
	submissionId: 'sub-1',
	submissionTime: '2024-05-01T10:00:00.000Z',
	lastUpdatedAt: '2024-05-01T10:00:00.000Z',
	questions: [
		{ id: 'q1', name: 'Name', type: 'ShortAnswer', value: 'Ana' },
		{ id: 'q2', name: 'Rating', type: 'StarRating', value: 4 },
		{ id: 'q3', name: 'Hologram', type: 'HologramPicker', value: { x: 1 } },
		{
			id: 'q4',
			name: 'formId',
			type: 'ShortAnswer',
			value: 'a question called formId',
		},
	],
	calculations: [{ id: 'c1', name: 'Total', type: 'number', value: '12' }],
	urlParameters: [{ id: 'u1', name: 'ref', value: 'newsletter' }],
	futureField: { anything: true },
};
const wrapped = { formId: 'form-1', formName: 'Feedback', submission };

describe('parseDelivery', () => {
	it('reads the live wrapped shape from n8n’s parsed body without parsing it again', () => {
		expect(parseDelivery({ body: wrapped, contentType: 'application/json' })).toEqual({
			ok: true,
			shape: 'wrapped',
			submission,
			formId: 'form-1',
			formName: 'Feedback',
		});
	});

	it('reads a bare Submission', () => {
		expect(
			parseDelivery({
				body: submission,
				contentType: 'application/json; charset=utf-8',
			}),
		).toEqual({
			ok: true,
			shape: 'bare',
			submission,
		});
	});

	it('parses the raw bytes when n8n left the body empty (Buffer rawBody)', () => {
		const parsed = parseDelivery({
			body: {},
			rawBody: Buffer.from(JSON.stringify(wrapped)),
		});
		expect(parsed).toMatchObject({ ok: true, shape: 'wrapped', submission });
	});

	it('parses a JSON string body and a string rawBody', () => {
		expect(
			parseDelivery({
				body: JSON.stringify(submission),
				contentType: 'application/json',
			}),
		).toMatchObject({
			ok: true,
			shape: 'bare',
		});
		expect(parseDelivery({ body: undefined, rawBody: JSON.stringify(wrapped) })).toMatchObject({
			ok: true,
			shape: 'wrapped',
		});
	});

	// n8n 2.41.1 and 1.123 (body-parser.js): text/plain arrives as a string, no
	// Content-Type and other types leave the body unset, form fields arrive parsed; the
	// raw bytes are always on the request.
	it.each<[string, Parameters<typeof parseDelivery>[0]]>([
		['text/plain, as n8n hands it', { body: JSON.stringify(wrapped), contentType: 'text/plain' }],
		[
			'text/plain with a charset and a byte-order mark',
			{
				body: `\uFEFF${JSON.stringify(wrapped)}`,
				contentType: 'text/plain; charset=utf-8',
				rawBody: Buffer.from(`\uFEFF${JSON.stringify(wrapped)}`),
			},
		],
		[
			'a string body with a byte-order mark and no raw bytes',
			{ body: `\uFEFF${JSON.stringify(wrapped)}`, contentType: 'text/plain' },
		],
		['no Content-Type', { body: undefined, rawBody: Buffer.from(JSON.stringify(wrapped)) }],
		[
			'application/octet-stream',
			{
				body: undefined,
				contentType: 'application/octet-stream',
				rawBody: Buffer.from(JSON.stringify(wrapped)),
			},
		],
		[
			'form-encoded JSON, which n8n parsed into a field name',
			{
				body: { [JSON.stringify(wrapped)]: '' },
				contentType: 'application/x-www-form-urlencoded',
				rawBody: Buffer.from(JSON.stringify(wrapped)),
			},
		],
	])('reads a JSON body whatever its Content-Type: %s', (_label, request) => {
		expect(parseDelivery(request)).toEqual({
			ok: true,
			shape: 'wrapped',
			submission,
			formId: 'form-1',
			formName: 'Feedback',
		});
	});

	it('accepts a +json content type', () => {
		expect(
			parseDelivery({
				body: submission,
				contentType: 'application/vnd.fillout+json',
			}).ok,
		).toBe(true);
	});
});

describe('parseDelivery: what it refuses and ignores', () => {
	it.each<[string, Parameters<typeof parseDelivery>[0], RegExp]>([
		['a text body', { body: 'hello', contentType: 'application/json' }, /not valid JSON/],
		[
			'an unparseable raw body',
			{ body: {}, rawBody: Buffer.from('{"submission": ') },
			/not valid JSON/,
		],
		[
			'a text/plain body that is not JSON',
			{ body: 'submissionId=x', contentType: 'text/plain', rawBody: Buffer.from('submissionId=x') },
			/^Expected a JSON body/,
		],
		[
			'form fields n8n parsed, without the raw bytes',
			{
				body: { submissionId: 'x', questions: [] },
				contentType: 'application/x-www-form-urlencoded',
			},
			/^Expected a JSON body/,
		],
		[
			'an XML body n8n parsed',
			{
				body: { submission: { submissionId: 'x', questions: '' } },
				contentType: 'application/xml',
				rawBody: Buffer.from('<submission><submissionId>x</submissionId></submission>'),
			},
			/^Expected a JSON body/,
		],
		['an empty body', { body: {}, contentType: 'application/json' }, /empty/],
		['no body at all', { body: undefined }, /empty/],
		['whitespace', { body: '   ', contentType: 'application/json' }, /empty/],
		['an unrelated object', { body: { hello: 'world' } }, /no Fillout submission/],
		['an array', { body: [submission] }, /no Fillout submission/],
		['a number', { body: 42 }, /no Fillout submission/],
		[
			'a wrapper without a submission',
			{ body: { formId: 'f', formName: 'n' } },
			/no Fillout submission/,
		],
		[
			'a wrapper whose submission has no id',
			{ body: { formId: 'f', submission: { questions: [] } } },
			/no Fillout submission/,
		],
		['a submission without questions', { body: { submissionId: 's' } }, /no Fillout submission/],
		[
			'a submission with questions of the wrong type',
			{ body: { submissionId: 's', questions: 'x' } },
			/no Fillout submission/,
		],
		[
			'a submission with an empty id',
			{ body: { submissionId: '', questions: [] } },
			/no Fillout submission/,
		],
	])('refuses %s', (_label, request, reason) => {
		const parsed = parseDelivery(request);
		expect(parsed.ok).toBe(false);
		expect(parsed.ok === false && parsed.reason).toMatch(reason);
	});

	it('ignores a formId or formName of the wrong type in the wrapper', () => {
		const parsed = parseDelivery({
			body: { formId: 7, formName: null, submission },
		});
		expect(parsed).toEqual({
			ok: true,
			shape: 'wrapped',
			submission,
			formId: undefined,
			formName: undefined,
		});
	});
});

describe('submissionItem', () => {
	const form = { formId: 'form-1', formName: 'Feedback' };

	it('simplifies: known answers by question name, unknown types left out, form id and name added', () => {
		const item = submissionItem(submission, form, true);
		expect(item).toEqual({
			submissionId: 'sub-1',
			submissionTime: '2024-05-01T10:00:00.000Z',
			lastUpdatedAt: '2024-05-01T10:00:00.000Z',
			Name: 'Ana',
			Rating: 4,
			// A question named like a key the trigger adds gets another key.
			'formId (2)': 'a question called formId',
			calculations: { Total: 12 },
			urlParameters: { ref: 'newsletter' },
			formId: 'form-1',
			formName: 'Feedback',
		});
		expect(item).not.toHaveProperty('Hologram');
	});

	it('keeps everything in the raw view, unknown types and fields included', () => {
		const item = submissionItem(submission, { formId: 'form-1', formName: null }, false);
		expect(item).toEqual({ formId: 'form-1', formName: null, ...submission });
		expect((item.questions as unknown[])[2]).toEqual(submission.questions?.[2]);
		expect(item.futureField).toEqual({ anything: true });
	});

	it('Simplify off: keys in the submission never replace the form id and name the trigger adds', () => {
		const forged = { ...submission, formId: 'another-form', formName: 'Forged', status: 'x' };
		const item = submissionItem(forged, form, false, { status: 'finished' });
		expect(item).toMatchObject({ formId: 'form-1', formName: 'Feedback', status: 'finished' });
		expect(Object.keys(item).slice(0, 3)).toEqual(['formId', 'formName', 'status']);
	});

	it('never fails on junk inside a submission', () => {
		const junk = {
			submissionId: 'sub-2',
			submissionTime: '2024-05-01T10:00:00.000Z',
			questions: [
				null,
				5,
				'x',
				{ name: 'no id', type: 'ShortAnswer', value: 1 },
				{ id: 'q1', name: 'Ok', type: 'ShortAnswer', value: 'yes' },
			],
			calculations: 'not a list',
			urlParameters: [null],
			scheduling: [{ id: 's1', name: 'Meeting', value: { eventStartTime: 'x' } }],
			payments: {},
			quiz: 'high',
			login: 3,
		} as unknown as Submission;
		const item = submissionItem(junk, form, true);
		expect(item).toEqual({
			submissionId: 'sub-2',
			submissionTime: '2024-05-01T10:00:00.000Z',
			Ok: 'yes',
			scheduling: { Meeting: { eventStartTime: 'x' } },
			formId: 'form-1',
			formName: 'Feedback',
		});
		expect(submissionItem(junk, form, false)).toEqual({ ...form, ...junk });
	});
});

describe('readableSubmission', () => {
	it('does not change the submission it reads', () => {
		const junk = {
			submissionId: 's',
			questions: [null, { id: 'a', name: 'A', type: 'ShortAnswer', value: 1 }],
		};
		const before = JSON.stringify(junk);
		const readable = readableSubmission(junk as unknown as Submission);
		expect(readable.questions).toEqual([{ id: 'a', name: 'A', type: 'ShortAnswer', value: 1 }]);
		expect(JSON.stringify(junk)).toBe(before);
	});
});
