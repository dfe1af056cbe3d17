/**
 * Control endpoints under /_sandbox/ (no auth, no rate limit, JSON): how tests in other
 * processes — a real n8n, benchmarks — set up data, simulate respondents and inject faults.
 */
import { formMetadata } from './api';
import type { Incoming, SandboxContext } from './context';
import { ApiError, badRequest, notFound } from './errors';
import type { FormSpec, QuestionSpec } from './formFactory';
import { json, type Reply, type Route } from './http';
import { buildSubmission, randomParts } from './submissionBuilder';
import { changeSubmission, parseSubmissionChange } from './submissionControl';
import type { Account, FormRecord, StoredSubmission, Submission, SubmissionStatus } from './types';
import { deliver } from './webhooks';
import { fileOriginFor } from './files';
import { parseIsoDateTime } from './validation';

interface ControlCall {
	params: Record<string, string>;
	body: Record<string, unknown>;
	incoming: Incoming;
}

type ControlHandler = (ctx: SandboxContext, call: ControlCall) => Reply | Promise<Reply>;

const MAX_GENERATE = 200_000;
const GENERATE_DEFAULT_START_MS = Date.UTC(2024, 0, 1);
const GENERATE_DEFAULT_STEP_MS = 60_000;

const DEFAULT_QUESTIONS: QuestionSpec[] = [
	{ name: 'Name', type: 'ShortAnswer' },
	{ name: 'Email', type: 'EmailInput' },
	{
		name: 'How did you hear about us?',
		type: 'MultipleChoice',
		options: ['Search', 'Friend', 'Social media', 'Other'],
	},
	{ name: 'Rating', type: 'StarRating' },
	{ name: 'Comments', type: 'LongAnswer' },
];

function requireForm(ctx: SandboxContext, formId: string): FormRecord {
	const form = ctx.store.forms.get(formId);
	if (!form) throw notFound(`Form ${formId} not found`);
	return form;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
	const value = body[name];
	if (value !== undefined && typeof value !== 'string')
		throw badRequest(`${name} must be a string`);
	return value;
}

function optionalStringList(body: Record<string, unknown>, name: string): string[] | undefined {
	const value = body[name];
	if (value === undefined) return undefined;
	if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
		throw badRequest(`${name} must be an array of strings`);
	return value as string[];
}

function optionalStatus(body: Record<string, unknown>): SubmissionStatus {
	const status = body.status ?? 'finished';
	if (status !== 'finished' && status !== 'in_progress')
		throw badRequest('status must be one of: finished, in_progress');
	return status;
}

function optionalBoolean(body: Record<string, unknown>, name: string, fallback: boolean): boolean {
	const value = body[name] ?? fallback;
	if (typeof value !== 'boolean') throw badRequest(`${name} must be true or false`);
	return value;
}

function accountFor(ctx: SandboxContext, body: Record<string, unknown>): Account {
	const accountKey = optionalString(body, 'accountKey');
	const accountId = optionalString(body, 'accountId');
	if (accountKey !== undefined) {
		const found = ctx.store.accountForBearer(accountKey);
		if (!found) throw badRequest('accountKey is not the API key (or access token) of any account');
		return found;
	}
	if (accountId !== undefined) {
		const found = ctx.store.accounts.get(accountId);
		if (!found) throw badRequest(`accountId "${accountId}" is not an account`);
		return found;
	}
	return ctx.store.demoAccount();
}

function questionSpecs(value: unknown): QuestionSpec[] {
	if (value === undefined) return DEFAULT_QUESTIONS;
	if (!Array.isArray(value))
		throw badRequest('questions must be an array of {id?, name, type, options?}');
	const ids = new Set<string>();
	return value.map((q, index): QuestionSpec => {
		const at = `questions[${index}]`;
		if (typeof q !== 'object' || q === null) throw badRequest(`${at} must be an object`);
		const { id, name, type, options } = q as Record<string, unknown>;
		if (typeof name !== 'string' || typeof type !== 'string')
			throw badRequest(`${at} needs a string name and type`);
		if (id !== undefined) {
			if (typeof id !== 'string' || id === '')
				throw badRequest(`${at}.id must be a non-empty string`);
			if (ids.has(id)) throw badRequest(`${at}.id "${id}" is used twice`);
			ids.add(id);
		}
		if (options !== undefined && !Array.isArray(options))
			throw badRequest(`${at}.options must be an array`);
		return {
			id: id as string | undefined,
			name,
			type,
			options: options as QuestionSpec['options'],
		};
	});
}

const info: ControlHandler = (ctx, { incoming }) => {
	const origin = incoming.origin;
	const accounts = [...ctx.store.accounts.values()];
	return json(200, {
		origin,
		apiRoot: `${origin}/v1/api`,
		authorizeUrl: `${origin}/authorize/oauth`,
		accessTokenUrl: `${origin}/public/oauth/accessToken`,
		accounts: accounts.map((a) => ({
			id: a.id,
			name: a.name,
			basePath: a.basePath,
			apiRoot: `${origin}${a.basePath}/v1/api`,
			apiKeys: a.apiKeys.map((k) => k.key),
			forms: ctx.store.formsOf(a.id).map((f) => ({
				formId: f.id,
				name: f.name,
				submissions: ctx.store.submissionsOf(f.id).size,
			})),
		})),
		oauthClients: [...ctx.store.oauthClients.values()],
	});
};

/** The file routes' log: how many requests, and any that carried an Authorization header. */
function fileLogOf(ctx: SandboxContext, origin?: string) {
	return {
		requests: ctx.files.requests.length,
		withAuthorization: ctx.files.withAuthorization(),
		...(origin ? { fileOrigin: fileOriginFor(origin) } : {}),
	};
}

const reset: ControlHandler = (ctx) => {
	ctx.store.resetToSeed();
	ctx.faults.clear();
	ctx.stats.reset();
	ctx.files.reset();
	ctx.rateLimiter.reset();
	ctx.churn.clear();
	return json(200, { reset: true });
};

const createForm: ControlHandler = (ctx, { body }) => {
	const account = accountFor(ctx, body);
	const name = optionalString(body, 'name');
	if (!name) throw badRequest('name is required');
	const formId = optionalString(body, 'formId');
	if (formId !== undefined && (formId === '' || ctx.store.forms.has(formId)))
		throw badRequest(`formId "${formId}" is empty or taken`);
	const spec: FormSpec = {
		id: formId,
		name,
		questions: questionSpecs(body.questions),
		urlParameters: optionalStringList(body, 'urlParameters'),
		scheduling: optionalStringList(body, 'scheduling'),
		payments: optionalStringList(body, 'payments'),
		tags: optionalStringList(body, 'tags') as FormSpec['tags'],
		quiz: optionalBoolean(body, 'quiz', false),
		login: optionalBoolean(body, 'login', false),
	};
	return json(200, formMetadata(ctx.store.addForm(account.id, spec)));
};

/** Answers keyed by question id, or by name (first question of that name). */
function resolveAnswers(form: FormRecord, answers: unknown): Map<string, unknown> {
	const resolved = new Map<string, unknown>();
	if (answers === undefined) return resolved;
	if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
		throw badRequest('answers must be an object: {questionIdOrName: value}');
	}
	for (const [key, value] of Object.entries(answers)) {
		const question =
			form.questions.find((q) => q.id === key) ?? form.questions.find((q) => q.name === key);
		if (!question) throw badRequest(`answers: the form has no question with id or name "${key}"`);
		resolved.set(question.id, value);
	}
	return resolved;
}

/** A respondent submits: stored, then delivered to every webhook of the form (finished, non-preview only). */
const respond: ControlHandler = async (ctx, { params, body, incoming }) => {
	const form = requireForm(ctx, params.formId);
	const status = optionalStatus(body);
	const preview = optionalBoolean(body, 'preview', false);
	const hidden = optionalBoolean(body, 'hidden', false);
	const fillUnanswered = optionalBoolean(body, 'fillUnanswered', true);
	const overrides = (body.submission ?? {}) as Partial<Submission>;
	if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides))
		throw badRequest('submission must be an object');
	const list = ctx.store.submissionsOf(form.id);
	if (
		overrides.submissionId !== undefined &&
		(typeof overrides.submissionId !== 'string' || list.get(overrides.submissionId))
	) {
		throw new ApiError(
			409,
			`submissionId ${String(overrides.submissionId)} is not a string or already exists`,
		);
	}
	let timeMs = Date.now();
	if (overrides.submissionTime !== undefined) {
		const parsed =
			typeof overrides.submissionTime === 'string'
				? parseIsoDateTime(overrides.submissionTime)
				: undefined;
		if (parsed === undefined)
			throw badRequest('submission.submissionTime must be an ISO 8601 date-time with a time zone');
		timeMs = parsed;
	}
	const parts = randomParts(form, ctx.store.rng, {
		submissionId: overrides.submissionId ?? ctx.store.newSubmissionId(form.id),
		timeMs,
		status,
	});
	if (!fillUnanswered) parts.answers.clear();
	for (const [id, value] of resolveAnswers(form, body.answers)) parts.answers.set(id, value);
	const submission: Submission = {
		...buildSubmission(form, parts),
		...overrides,
		submissionTime: new Date(timeMs).toISOString(),
	};
	const stored: StoredSubmission = { status, preview, timeMs, submission };
	if (hidden) stored.hidden = true;
	ctx.store.addSubmissions(form.id, [stored]);

	const webhooks =
		status === 'finished' && !preview && !hidden
			? [...ctx.store.webhooks.values()].filter((w) => w.formId === form.id && !w.disabledAt)
			: [];
	const deliveries = await Promise.all(
		webhooks.map(async (webhook) => {
			const record = await deliver(
				webhook,
				form,
				submission,
				ctx.deliveryTimeoutMs,
				incoming.origin,
			);
			const { statusCode, error, durationMs } = record;
			if (statusCode === 404 && ctx.disableWebhookOn404) webhook.disabledAt = record.at;
			return {
				webhookId: webhook.id,
				url: webhook.url,
				shape: webhook.shape,
				statusCode,
				error,
				durationMs,
			};
		}),
	);
	if (deliveries.length) ctx.store.changed();
	return json(200, { submission, deliveries });
};

/** Bulk creation for tests and benchmarks: deterministic for a given history, no webhooks. */
const generate: ControlHandler = (ctx, { params, body }) => {
	const form = requireForm(ctx, params.formId);
	const { count, startTime, stepMs = GENERATE_DEFAULT_STEP_MS } = body;
	if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > MAX_GENERATE) {
		throw badRequest(`count must be an integer between 0 and ${MAX_GENERATE}`);
	}
	if (typeof stepMs !== 'number' || !Number.isInteger(stepMs) || stepMs < 0)
		throw badRequest('stepMs must be an integer >= 0');
	const status = optionalStatus(body);
	const preview = optionalBoolean(body, 'preview', false);
	let startMs: number;
	if (startTime !== undefined) {
		const parsed = typeof startTime === 'string' ? parseIsoDateTime(startTime) : undefined;
		if (parsed === undefined)
			throw badRequest('startTime must be an ISO 8601 date-time with a time zone');
		startMs = parsed;
	} else {
		// Continue after the newest submission, so repeated calls append in time order.
		const latest = ctx.store.submissionsOf(form.id).latestTimeMs();
		startMs = latest === undefined ? GENERATE_DEFAULT_START_MS : latest + Math.max(stepMs, 1);
	}
	const created: StoredSubmission[] = [];
	for (let i = 0; i < count; i++) {
		const timeMs = startMs + i * stepMs;
		const parts = randomParts(form, ctx.store.rng, {
			submissionId: ctx.store.newSubmissionId(form.id),
			timeMs,
			status,
		});
		created.push({ status, preview, timeMs, submission: buildSubmission(form, parts) });
	}
	ctx.store.addSubmissions(form.id, created);
	return json(200, {
		count,
		submissionIds: created.map((c) => c.submission.submissionId),
		firstSubmissionTime: created[0]?.submission.submissionTime ?? null,
		lastSubmissionTime: created[created.length - 1]?.submission.submissionTime ?? null,
	});
};

/** Churn: seeded random inserts and deletions after each list request of the form (churn.ts). */
const startChurn: ControlHandler = (ctx, { params, body }) => {
	const form = requireForm(ctx, params.formId);
	const { seed = form.id, changesPerList = 3, countFirst = false } = body;
	if (typeof seed !== 'string') throw badRequest('seed must be a string');
	if (typeof countFirst !== 'boolean') throw badRequest('countFirst must be a boolean');
	if (
		typeof changesPerList !== 'number' ||
		!Number.isInteger(changesPerList) ||
		changesPerList < 1
	) {
		throw badRequest('changesPerList must be an integer >= 1');
	}
	ctx.churn.start(form.id, { seed, changesPerList, countFirst });
	return json(200, ctx.churn.describe(form.id));
};

/** Reveal a late one, finish one in progress, or move lastUpdatedAt (submissionControl.ts). */
const patchSubmission: ControlHandler = (ctx, { params, body }) => {
	const form = requireForm(ctx, params.formId);
	const change = parseSubmissionChange(body);
	const stored = changeSubmission(ctx.store.submissionsOf(form.id), params.submissionId, change);
	ctx.store.changed();
	return json(200, {
		status: stored.status,
		hidden: stored.hidden === true,
		submission: stored.submission,
	});
};

const deleteSubmission: ControlHandler = (ctx, { params }) => {
	const form = requireForm(ctx, params.formId);
	if (!ctx.store.deleteSubmission(form.id, params.submissionId))
		throw notFound(`Submission ${params.submissionId} not found`);
	return json(200, {});
};

function describeWebhook(ctx: SandboxContext, id: number) {
	const webhook = ctx.store.webhooks.get(id);
	if (!webhook) throw notFound(`Webhook ${id} not found`);
	const { accountId, ...rest } = webhook;
	return { ...rest, account: accountId };
}

const listWebhooks: ControlHandler = (ctx) =>
	json(
		200,
		[...ctx.store.webhooks.keys()].map((id) => describeWebhook(ctx, id)),
	);

/** Fillout drops a webhook on its side (deleted in its UI, or disabled): no more deliveries. */
const dropWebhook: ControlHandler = (ctx, { params }) => {
	const id = Number(params.id);
	if (!ctx.store.webhooks.delete(id)) throw notFound(`Webhook ${params.id} not found`);
	ctx.store.changed();
	return json(200, {});
};

const patchWebhook: ControlHandler = (ctx, { params, body }) => {
	const id = Number(params.id);
	const webhook = ctx.store.webhooks.get(id);
	if (!webhook) throw notFound(`Webhook ${params.id} not found`);
	const { shape, timeoutMs } = body;
	if (shape !== undefined && shape !== 'wrapped' && shape !== 'bare')
		throw badRequest('shape must be one of: wrapped, bare');
	if (
		timeoutMs !== undefined &&
		(typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1)
	) {
		throw badRequest('timeoutMs must be an integer >= 1');
	}
	if (shape !== undefined) webhook.shape = shape;
	if (timeoutMs !== undefined) webhook.timeoutMs = timeoutMs;
	ctx.store.changed();
	return json(200, describeWebhook(ctx, id));
};

const BASE_PATH = /^(\/[a-z0-9][a-z0-9-]*)?$/;
const RESERVED_BASE_PATHS = new Set(['/v1', '/_sandbox', '/public', '/authorize', '/t']);

const createAccount: ControlHandler = (ctx, { body, incoming }) => {
	const apiKey = optionalString(body, 'apiKey');
	const basePath = optionalString(body, 'basePath') ?? '';
	const name = optionalString(body, 'name');
	const plan = optionalString(body, 'plan');
	if (plan !== undefined && plan !== 'free' && plan !== 'paid')
		throw badRequest('plan must be one of: free, paid');
	if (!BASE_PATH.test(basePath) || RESERVED_BASE_PATHS.has(basePath)) {
		throw badRequest(
			'basePath must be "" or one lowercase path segment such as "/eu" (not /v1, /_sandbox, /public, /authorize, /t)',
		);
	}
	if (apiKey !== undefined && (apiKey === '' || ctx.store.accountForBearer(apiKey)))
		throw badRequest('apiKey is empty or already in use');
	const account = ctx.store.addAccount({ apiKey, basePath, name, plan });
	return json(200, {
		id: account.id,
		name: account.name,
		basePath: account.basePath,
		apiKey: account.apiKeys[0].key,
		apiRoot: `${incoming.origin}${account.basePath}/v1/api`,
	});
};

const createOAuthClient: ControlHandler = (ctx, { body }) => {
	const redirectUris = optionalStringList(body, 'redirectUris');
	if (!redirectUris || redirectUris.length === 0)
		throw badRequest(
			'redirectUris must be a non-empty array of URIs (a trailing * allows a prefix)',
		);
	const clientId = optionalString(body, 'clientId') ?? ctx.store.rng.uuid();
	if (ctx.store.oauthClients.has(clientId))
		throw badRequest(`clientId "${clientId}" already exists`);
	const client = {
		clientId,
		clientSecret: optionalString(body, 'clientSecret') ?? ctx.store.rng.hex(48),
		name: optionalString(body, 'name') ?? 'Test OAuth app',
		redirectUris,
	};
	ctx.store.oauthClients.set(clientId, client);
	ctx.store.changed();
	return json(200, client);
};

export const CONTROL_ROUTES: ReadonlyArray<Route<ControlHandler>> = [
	{ method: 'GET', template: '/_sandbox/info', handler: info },
	{ method: 'POST', template: '/_sandbox/reset', handler: reset },
	{
		method: 'GET',
		template: '/_sandbox/faults',
		handler: (ctx) => json(200, ctx.faults.describe()),
	},
	{
		method: 'POST',
		template: '/_sandbox/faults',
		handler: (ctx, { body }) => (ctx.faults.configure(body), json(200, ctx.faults.describe())),
	},
	{
		method: 'DELETE',
		template: '/_sandbox/faults',
		handler: (ctx) => (ctx.faults.clear(), json(200, ctx.faults.describe())),
	},
	{ method: 'POST', template: '/_sandbox/forms', handler: createForm },
	{ method: 'POST', template: '/_sandbox/forms/:formId/respond', handler: respond },
	{ method: 'POST', template: '/_sandbox/forms/:formId/generate', handler: generate },
	{
		method: 'DELETE',
		template: '/_sandbox/forms/:formId/submissions/:submissionId',
		handler: deleteSubmission,
	},
	{
		method: 'PATCH',
		template: '/_sandbox/forms/:formId/submissions/:submissionId',
		handler: patchSubmission,
	},
	{ method: 'POST', template: '/_sandbox/forms/:formId/churn', handler: startChurn },
	{
		method: 'GET',
		template: '/_sandbox/forms/:formId/churn',
		handler: (ctx, { params }) => json(200, ctx.churn.describe(requireForm(ctx, params.formId).id)),
	},
	{
		method: 'DELETE',
		template: '/_sandbox/forms/:formId/churn',
		handler: (ctx, { params }) => (
			ctx.churn.stop(params.formId),
			json(200, ctx.churn.describe(params.formId))
		),
	},
	{ method: 'GET', template: '/_sandbox/webhooks', handler: listWebhooks },
	{ method: 'PATCH', template: '/_sandbox/webhooks/:id', handler: patchWebhook },
	{ method: 'DELETE', template: '/_sandbox/webhooks/:id', handler: dropWebhook },
	{ method: 'GET', template: '/_sandbox/stats', handler: (ctx) => json(200, ctx.stats.snapshot()) },
	{
		method: 'GET',
		template: '/_sandbox/stats/timeline',
		handler: (ctx, { incoming }) => json(200, ctx.stats.timeline(incoming.query.get('key') ?? '')),
	},
	{
		method: 'POST',
		template: '/_sandbox/stats/reset',
		handler: (ctx) => (ctx.stats.reset(), json(200, ctx.stats.snapshot())),
	},
	{
		method: 'GET',
		template: '/_sandbox/files',
		handler: (ctx, { incoming }) => json(200, fileLogOf(ctx, incoming.origin)),
	},
	{
		method: 'POST',
		template: '/_sandbox/files/reset',
		handler: (ctx) => (ctx.files.reset(), json(200, fileLogOf(ctx))),
	},
	{ method: 'POST', template: '/_sandbox/accounts', handler: createAccount },
	{ method: 'POST', template: '/_sandbox/oauth/clients', handler: createOAuthClient },
];
