/** The few HTML pages the sandbox serves: OAuth consent, OAuth errors, edit links, the index. */
import type { Account, OAuthClient, Submission } from './types';

export function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);
}

function page(title: string, body: string): string {
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #1f2937; }
.card { border: 1px solid #e5e7eb; border-radius: 12px; padding: 1.5rem; }
button { font-size: 1rem; padding: .6rem 1.4rem; border-radius: 8px; border: 1px solid #d1d5db; cursor: pointer; margin-right: .5rem; }
#allow { background: #facc15; border-color: #eab308; }
.error { color: #b91c1c; }
code { background: #f3f4f6; padding: 0 .25rem; border-radius: 4px; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

export interface ConsentPage {
	client: OAuthClient;
	redirectUri: string;
	state?: string;
	accounts: Account[];
	selectedAccountId: string;
}

/** A real form POSTed back to /authorize/oauth; #allow and #deny are stable ids for browser tests. */
export function consentPage({
	client,
	redirectUri,
	state,
	accounts,
	selectedAccountId,
}: ConsentPage): string {
	const hidden = (name: string, value: string) =>
		`<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
	const options = accounts
		.map(
			(a) =>
				`<option value="${escapeHtml(a.id)}"${a.id === selectedAccountId ? ' selected' : ''}>${escapeHtml(a.name)}${a.basePath ? ` (${escapeHtml(a.basePath)})` : ''}</option>`,
		)
		.join('');
	const chooser =
		accounts.length > 1
			? `<p><label for="account">Workspace</label><br><select id="account" name="account">${options}</select></p>`
			: hidden('account', selectedAccountId);
	return page(
		`Authorize ${client.name}`,
		`<div class="card">
<h1>Authorize <span id="app-name">${escapeHtml(client.name)}</span></h1>
<p><strong>${escapeHtml(client.name)}</strong> wants to read and change your forms, submissions and webhooks.</p>
<p>After you decide you will be sent to <code id="redirect-uri">${escapeHtml(redirectUri)}</code>.</p>
<form method="post" action="/authorize/oauth">
${hidden('client_id', client.clientId)}
${hidden('redirect_uri', redirectUri)}
${state !== undefined ? hidden('state', state) : ''}
${chooser}
<button type="submit" id="allow" name="decision" value="allow">Allow</button>
<button type="submit" id="deny" name="decision" value="deny">Deny</button>
</form>
</div>`,
	);
}

export function errorPage(title: string, message: string): string {
	return page(
		title,
		`<div class="card"><h1 class="error">${escapeHtml(title)}</h1><p id="error-message">${escapeHtml(message)}</p></div>`,
	);
}

/** Where editLink points: shows the answers read-only (the sandbox has no form editor). */
export function editPage(formName: string, submission: Submission): string {
	const rows = submission.questions
		.map(
			(q) =>
				`<tr><th>${escapeHtml(q.name)}</th><td>${escapeHtml(JSON.stringify(q.value))}</td></tr>`,
		)
		.join('\n');
	return page(
		`Edit submission – ${formName}`,
		`<h1>${escapeHtml(formName)}</h1><p>Submission <code>${escapeHtml(submission.submissionId)}</code></p><table>${rows}</table>`,
	);
}

export function indexPage(lines: Array<[string, string]>): string {
	const items = lines
		.map(([label, value]) => `<li>${escapeHtml(label)}: <code>${escapeHtml(value)}</code></li>`)
		.join('\n');
	return page(
		'Fillout API sandbox',
		`<h1>Fillout API sandbox</h1><ul>${items}</ul><p>See sandbox/README.md for the control endpoints.</p>`,
	);
}
