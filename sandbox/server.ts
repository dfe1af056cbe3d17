/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the sandbox is a dev tool: it is a node:http server */
/** The HTTP front door: reads each request once and hands it to the API, OAuth or control routes. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleApi, type ApiOutcome } from './api';
import type { Incoming, SandboxContext } from './context';
import { CONTROL_ROUTES } from './control';
import { ApiError } from './errors';
import { FILES_PATH, serveFile, withFileAddresses } from './files';
import {
	errorReply,
	html,
	json,
	matchRoute,
	objectBody,
	readBody,
	routeNotFound,
	unexpectedErrorReply,
	type Reply,
} from './http';
import { decideConsent, exchangeCode, invalidateToken, showConsent } from './oauth';
import { editPage, errorPage, indexPage } from './pages';

const API_PATH = /^(\/[^/]+)?\/v1\/api(\/.*)?$/;

type OAuthHandler = (ctx: SandboxContext, incoming: Incoming) => Reply;

const OAUTH_ROUTES: Record<string, OAuthHandler> = {
	'GET /authorize/oauth': showConsent,
	'POST /authorize/oauth': decideConsent,
	'POST /public/oauth/accessToken': exchangeCode,
	'DELETE /public/oauth/invalidate': invalidateToken,
};

/** Turns a thrown ApiError into its reply, so handlers can simply throw. */
async function replying(work: () => Reply | Promise<Reply>): Promise<Reply> {
	try {
		return await work();
	} catch (error) {
		return error instanceof ApiError ? errorReply(error) : unexpectedErrorReply(error);
	}
}

async function dispatch(ctx: SandboxContext, incoming: Incoming): Promise<ApiOutcome> {
	const { method, path } = incoming;
	const reply = (value: Reply | Promise<Reply>): Promise<ApiOutcome> =>
		Promise.resolve(value).then((r) => ({ kind: 'reply', reply: r }));

	if (path === '/_sandbox' || path.startsWith('/_sandbox/')) {
		const match = matchRoute(CONTROL_ROUTES, method, path);
		return reply(
			replying(() => {
				if (match.kind === 'none') throw routeNotFound(method, path);
				return match.route.handler(ctx, {
					params: match.params,
					body: objectBody(incoming.headers, incoming.bodyText),
					incoming,
				});
			}),
		);
	}

	const oauth = OAUTH_ROUTES[`${method} ${path}`];
	if (oauth) {
		ctx.stats.count(`${method} ${path}`);
		return reply(replying(() => oauth(ctx, incoming)));
	}

	const api = API_PATH.exec(path);
	if (api && ctx.store.basePaths().has(api[1] ?? ''))
		return handleApi(ctx, incoming, api[1] ?? '', api[2] ?? '');

	const edit = /^\/t\/([^/]+)$/.exec(path);
	if (method === 'GET' && edit)
		return reply(
			editLinkPage(ctx, decodeURIComponent(edit[1]), incoming.query.get('session') ?? ''),
		);
	if (method === 'GET' && path === '/') {
		return reply(
			html(
				200,
				indexPage([
					['API root', `${incoming.origin}/v1/api`],
					['Demo API key', ctx.store.demoAccount().apiKeys[0].key],
					['Authorize URL', `${incoming.origin}/authorize/oauth`],
					['Control API', `${incoming.origin}/_sandbox/info`],
				]),
			),
		);
	}
	return reply(errorReply(routeNotFound(method, path)));
}

function editLinkPage(ctx: SandboxContext, formId: string, submissionId: string): Reply {
	const form = ctx.store.forms.get(formId);
	const item = form && ctx.store.submissionsOf(form.id).get(submissionId);
	if (!form || !item) return html(404, errorPage('Not found', 'No such form or submission.'));
	return html(200, editPage(form.name, item.submission));
}

/** Origin as the client addressed us, so links work from containers too; falls back to ours. */
function requestOrigin(req: IncomingMessage, fallback: string): string {
	const host = req.headers.host;
	return host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `http://${host}` : fallback;
}

async function handle(
	ctx: SandboxContext,
	origin: () => string,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	if (req.url?.startsWith(FILES_PATH)) {
		await serveFile(ctx.files, req, res, new URL(req.url, 'http://sandbox.invalid'));
		return;
	}
	const replyOrigin = requestOrigin(req, origin());
	let url = new URL('/', 'http://sandbox.invalid');
	let outcome: ApiOutcome;
	try {
		const bodyText = await readBody(req);
		url = new URL(req.url ?? '/', url);
		outcome = await dispatch(ctx, {
			method: (req.method ?? 'GET').toUpperCase(),
			path: url.pathname,
			query: url.searchParams,
			headers: req.headers,
			bodyText,
			origin: replyOrigin,
			remoteAddress: req.socket.remoteAddress ?? 'unknown',
		});
	} catch (error) {
		outcome = {
			kind: 'reply',
			reply: error instanceof ApiError ? errorReply(error) : unexpectedErrorReply(error),
		};
	}
	if (outcome.kind === 'drop') {
		// Fault injection: the client sees the connection close with no answer.
		req.socket.destroy();
		return;
	}
	if (outcome.kind === 'file') {
		await serveFile(ctx.files, req, res, url, { viaApi: outcome.headers });
		return;
	}
	const { status, headers } = outcome.reply;
	const body = withFileAddresses(outcome.reply.body, replyOrigin);
	if (res.destroyed) return;
	res.writeHead(status, {
		...headers,
		'content-length': String(new TextEncoder().encode(body).length),
	});
	res.end(body);
}

export function createSandboxServer(ctx: SandboxContext, origin: () => string): Server {
	return createServer((req, res) => {
		void handle(ctx, origin, req, res).catch(() => {
			if (!res.headersSent) {
				const { status, headers, body } = json(500, {
					statusCode: 500,
					error: 'Internal Server Error',
					message: 'Unexpected error',
				});
				res.writeHead(status, headers).end(body);
			}
		});
	});
}
