/**
 * The API under `<basePath>/v1/api`: endpoints 1–7 plus `POST /webhook/delete`, behind the
 * same pipeline the live service shows from outside — latency/faults (sandbox only), then the
 * rate limit, then bearer authentication, then the route.
 */
import { authenticate, bearerValue } from './auth';
import type { Incoming, SandboxContext } from './context';
import {
	ApiError,
	badRequest,
	errorBody,
	IN_PROGRESS_NEEDS_PAID_PLAN,
	notFound,
	RATE_LIMIT_MESSAGE,
} from './errors';
import { forcedFailureError } from './faults';
import {
	errorReply,
	json,
	matchRoute,
	objectBody,
	parseJsonBody,
	routeNotFound,
	text,
	unexpectedErrorReply,
	withFewerSubmissions,
	type Reply,
	type Route,
} from './http';
import { buildSubmission } from './submissionBuilder';
import { editLinkFor, listSubmissions, parseListQuery, presentSubmission } from './submissions';
import { sleep } from './timers';
import type { Account, FormRecord, StoredSubmission } from './types';
import { booleanParam, isUrl, parseIsoDateTime, validateCreateBody } from './validation';

interface ApiCall {
	account: Account;
	params: Record<string, string>;
	query: URLSearchParams;
	incoming: Incoming;
}

/** What a handler answers: a reply, or the file its path names (streamed by server.ts). */
const SERVE_FILE = Symbol('serve the file');
type ApiHandler = (ctx: SandboxContext, call: ApiCall) => Reply | typeof SERVE_FILE;

export function formMetadata(form: FormRecord) {
	return {
		id: form.id,
		name: form.name,
		tags: form.tags,
		questions: form.questions.map(({ id, name, type, options }) => ({
			id,
			name,
			type,
			...(options ? { options } : {}),
		})),
		calculations: form.calculations.map(({ id, name, type }) => ({ id, name, type })),
		urlParameters: form.urlParameters,
		documents: [],
		scheduling: form.scheduling,
		payments: form.payments,
		...(form.quizEnabled ? { quiz: { enabled: true } } : {}),
	};
}

/** Another account's form is as unknown as a missing one. */
function requireForm(ctx: SandboxContext, account: Account, formId: string): FormRecord {
	const form = ctx.store.forms.get(formId);
	if (!form || form.accountId !== account.id) throw notFound(`Form ${formId} not found`);
	return form;
}

function requireSubmission(
	ctx: SandboxContext,
	form: FormRecord,
	submissionId: string,
): StoredSubmission {
	const found = ctx.store.submissionsOf(form.id).get(submissionId);
	if (!found) throw notFound(`Submission ${submissionId} not found in form ${form.id}`);
	return found;
}

const listForms: ApiHandler = (ctx, { account }) =>
	json(
		200,
		ctx.store.formsOf(account.id).map((f) => ({
			formId: f.id,
			name: f.name,
			tags: f.tags,
			id: f.numericId,
			isPublished: f.isPublished,
		})),
	);

const getForm: ApiHandler = (ctx, { account, params }) =>
	json(200, formMetadata(requireForm(ctx, account, params.formId)));

const listFormSubmissions: ApiHandler = (ctx, { account, params, query, incoming }) => {
	const form = requireForm(ctx, account, params.formId);
	const listQuery = parseListQuery(query);
	if (listQuery.status === 'in_progress' && account.plan === 'free')
		throw new ApiError(403, IN_PROGRESS_NEEDS_PAID_PLAN);
	// Under churn with countFirst, the count is taken first and the changes come before the page.
	const countFirst = ctx.churn.countsFirst(form.id);
	const counted = listSubmissions(ctx.store.submissionsOf(form.id), listQuery);
	if (countFirst) ctx.churn.afterList(ctx.store, form, counted.items);
	const page = countFirst ? listSubmissions(ctx.store.submissionsOf(form.id), listQuery) : counted;
	const reply = json(200, {
		responses: page.items.map((item) =>
			presentSubmission(
				item,
				listQuery.includeEditLink
					? editLinkFor(incoming.origin, form.id, item.submission.submissionId)
					: undefined,
			),
		),
		totalResponses: counted.totalResponses,
		pageCount: counted.pageCount,
	});
	// The answer is taken; changes made now show in the client's next request.
	if (!countFirst) ctx.churn.afterList(ctx.store, form, page.items);
	return reply;
};

const getSubmission: ApiHandler = (ctx, { account, params, query, incoming }) => {
	const form = requireForm(ctx, account, params.formId);
	const withEditLink = booleanParam(query, 'includeEditLink');
	const item = requireSubmission(ctx, form, params.submissionId);
	const editLink = withEditLink
		? editLinkFor(incoming.origin, form.id, item.submission.submissionId)
		: undefined;
	return json(200, { submission: presentSubmission(item, editLink) });
};

/** Endpoint 5: stores the batch as finished submissions and, like the live service, triggers no webhook. */
const createSubmissions: ApiHandler = (ctx, { account, params, incoming }) => {
	const form = requireForm(ctx, account, params.formId);
	const items = validateCreateBody(form, parseJsonBody(incoming.headers, incoming.bodyText));
	const nowIso = new Date().toISOString();
	const created = items.map((item): StoredSubmission => {
		const timeMs = item.submissionTime
			? (parseIsoDateTime(item.submissionTime) as number)
			: Date.parse(nowIso);
		const submissionTime = new Date(timeMs).toISOString();
		const lastUpdatedAt = item.lastUpdatedAt
			? new Date(parseIsoDateTime(item.lastUpdatedAt) as number).toISOString()
			: submissionTime;
		const submission = buildSubmission(form, {
			submissionId: ctx.store.newSubmissionId(form.id),
			submissionTime,
			lastUpdatedAt,
			answers: item.answers,
			urlParameters: item.urlParameters,
			scheduling: item.scheduling,
			payments: item.payments,
		});
		return { status: 'finished', preview: false, timeMs, submission };
	});
	ctx.store.addSubmissions(form.id, created);
	return json(200, { submissions: created.map((item) => presentSubmission(item)) });
};

const deleteSubmission: ApiHandler = (ctx, { account, params }) => {
	const form = requireForm(ctx, account, params.formId);
	requireSubmission(ctx, form, params.submissionId);
	ctx.store.deleteSubmission(form.id, params.submissionId);
	return json(200, {});
};

const createWebhook: ApiHandler = (ctx, { account, incoming }) => {
	const { formId, url } = objectBody(incoming.headers, incoming.bodyText);
	if (typeof formId !== 'string' || formId === '')
		throw badRequest('formId is required: the id of the form to subscribe to');
	if (typeof url !== 'string' || !/^https?:\/\/[^/\s]+/i.test(url) || !isUrl(url)) {
		throw badRequest('url must be an absolute http:// or https:// URL');
	}
	const form = requireForm(ctx, account, formId);
	const id = ctx.store.nextWebhookId++;
	ctx.store.webhooks.set(id, {
		id,
		formId: form.id,
		url,
		accountId: account.id,
		createdAt: new Date().toISOString(),
		shape: 'wrapped',
		deliveries: [],
	});
	ctx.store.changed();
	return json(200, { id });
};

const deleteWebhook: ApiHandler = (ctx, { account, incoming }) => {
	const { webhookId } = objectBody(incoming.headers, incoming.bodyText);
	const id =
		typeof webhookId === 'string' && /^\d+$/.test(webhookId.trim()) ? Number(webhookId) : webhookId;
	if (typeof id !== 'number' || !Number.isInteger(id)) {
		throw badRequest('webhookId must be an integer: the id returned by /webhook/create');
	}
	const webhook = ctx.store.webhooks.get(id);
	if (!webhook || webhook.accountId !== account.id)
		throw new ApiError(ctx.unknownWebhookStatus, `Webhook ${id} not found`);
	ctx.store.webhooks.delete(id);
	ctx.store.changed();
	return json(200, {});
};

/**
 * A file the API host serves itself, as an API call: bearer, rate limit and all. File
 * addresses on the live service point at other hosts; this is the one case in which a
 * client sends its credential with a file request.
 */
const apiFile: ApiHandler = () => SERVE_FILE;

export const API_ROUTES: ReadonlyArray<Route<ApiHandler>> = [
	{ method: 'GET', template: '/forms', handler: listForms },
	{ method: 'GET', template: '/forms/:formId', handler: getForm },
	{ method: 'GET', template: '/forms/:formId/submissions', handler: listFormSubmissions },
	{ method: 'POST', template: '/forms/:formId/submissions', handler: createSubmissions },
	{ method: 'GET', template: '/forms/:formId/submissions/:submissionId', handler: getSubmission },
	{
		method: 'DELETE',
		template: '/forms/:formId/submissions/:submissionId',
		handler: deleteSubmission,
	},
	{ method: 'POST', template: '/webhook/create', handler: createWebhook },
	{ method: 'POST', template: '/webhook/delete', handler: deleteWebhook },
	{ method: 'GET', template: '/files/:token/:name', handler: apiFile },
];

export type ApiOutcome =
	| { kind: 'reply'; reply: Reply }
	| { kind: 'drop' }
	/** Serve the file of the request's path, with these (rate-limit) headers. */
	| { kind: 'file'; headers: Record<string, string> };

/**
 * @param basePath the region root the request came in on ('' or e.g. '/eu')
 * @param apiPath the path after `<basePath>/v1/api`
 */
export async function handleApi(
	ctx: SandboxContext,
	incoming: Incoming,
	basePath: string,
	apiPath: string,
): Promise<ApiOutcome> {
	const { method, path } = incoming;
	const match = matchRoute(API_ROUTES, method, apiPath);
	const bearer = bearerValue(incoming.headers.authorization);
	// Limits and counters are per bearer value; unauthenticated callers are told apart by address.
	const key = bearer ? bearer : `ip:${incoming.remoteAddress}`;
	// Unknown routes are counted together under one name.
	const route = `${method} /v1/api${match.kind === 'found' ? match.route.template : '/*'}`;
	ctx.stats.count(route, key);

	const delayMs = ctx.faults.latencyMs + Math.random() * ctx.faults.latencyJitterMs;
	if (delayMs > 0) {
		ctx.stats.enter(key);
		await sleep(delayMs).finally(() => ctx.stats.leave(key));
	}
	const call = { method, path, bodyText: incoming.bodyText };
	if (ctx.faults.takeDrop(call)) return { kind: 'drop' };
	const forced = ctx.faults.takeFailure(call);
	if (forced) {
		const headers = ctx.rateLimiter.peek(key);
		if (forced.status === 429) {
			headers['retry-after'] = forced.retryAfter ?? '1';
			ctx.stats.counted(key, true);
			ctx.stats.countRateLimited(route, key);
		}
		const reply =
			forced.text !== undefined
				? text(forced.status, forced.text, headers)
				: json(forced.status, forced.body ?? forcedFailureError(forced.status).body(), headers);
		return { kind: 'reply', reply };
	}

	const rate = ctx.rateLimiter.take(key);
	ctx.stats.counted(key, !rate.allowed);
	if (!rate.allowed) {
		ctx.stats.countRateLimited(route, key);
		return { kind: 'reply', reply: json(429, errorBody(429, RATE_LIMIT_MESSAGE), rate.headers) };
	}

	let reply: Reply;
	try {
		if (match.kind === 'none') throw routeNotFound(method, path);
		const account = authenticate(ctx.store, incoming.headers.authorization, basePath);
		const handled = match.route.handler(ctx, {
			account,
			params: match.params,
			query: incoming.query,
			incoming,
		});
		if (handled === SERVE_FILE) return { kind: 'file', headers: rate.headers };
		reply = handled;
	} catch (error) {
		reply = error instanceof ApiError ? errorReply(error) : unexpectedErrorReply(error);
	}
	Object.assign(reply.headers, rate.headers);
	if (ctx.faults.takeDropAfterProcessing(call)) return { kind: 'drop' };
	const keep = ctx.faults.takeTruncation(call);
	return { kind: 'reply', reply: keep === undefined ? reply : withFewerSubmissions(reply, keep) };
}
