/**
 * Data and credentials for one benchmark variant: its own sandbox account (so its
 * rate-limit window is its own), a form with known questions, generated submissions,
 * and the n8n credentials that reach it.
 */
import {
	createApiKeyCredential,
	type CredentialRef,
	type N8nClient,
	type QuestionSpec,
	type SandboxControl,
	type SandboxStats,
} from '../test/e2e/support';
import type { HeaderCredentialRef } from './workflows';

export const QUESTIONS: QuestionSpec[] = [
	{ id: 'qName', name: 'Name', type: 'ShortAnswer' },
	{ id: 'qEmail', name: 'Email', type: 'EmailInput' },
	{ id: 'qRating', name: 'Rating', type: 'NumberInput' },
	{
		id: 'qPlan',
		name: 'Plan',
		type: 'MultipleChoice',
		options: ['Free', 'Pro'],
	},
	{ id: 'qComments', name: 'Comments', type: 'LongAnswer' },
];

export const QUESTION_IDS = {
	Name: 'qName',
	Email: 'qEmail',
	Rating: 'qRating',
	Plan: 'qPlan',
	Comments: 'qComments',
} as const;

export interface BenchAccount {
	label: string;
	accountId: string;
	apiKey: string;
	apiRoot: string;
	formId: string;
	/** The generated submissions' ids. */
	submissionIds: string[];
}

/** A new account with one form and `submissions` generated submissions (one a minute). */
export async function benchAccount(
	control: SandboxControl,
	label: string,
	submissions: number,
): Promise<BenchAccount> {
	const account = await control.createAccount({ name: `bench ${label}` });
	const form = await control.createForm({
		name: `Benchmark ${label}`,
		accountId: account.id,
		questions: QUESTIONS,
	});
	const generated =
		submissions > 0 ? await control.generate(form.id, { count: submissions }) : undefined;
	return {
		label,
		accountId: account.id,
		apiKey: account.apiKey,
		apiRoot: account.apiRoot,
		formId: form.id,
		submissionIds: generated?.submissionIds ?? [],
	};
}

/** The package's API-key credential (Region: Custom) for the account. */
export async function filloutCredential(
	n8n: N8nClient,
	account: BenchAccount,
): Promise<CredentialRef> {
	return await createApiKeyCredential(
		n8n,
		`Fillout ${account.label} ${account.accountId}`,
		account.apiKey,
		account.apiRoot,
	);
}

/** What a user of the HTTP Request node sets up: Header Auth, `Authorization: Bearer <key>`. */
export async function headerCredential(
	n8n: N8nClient,
	account: BenchAccount,
): Promise<HeaderCredentialRef> {
	const created = await n8n.createCredential({
		name: `Fillout header ${account.label} ${account.accountId}`,
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${account.apiKey}` },
	});
	return { type: 'httpHeaderAuth', id: created.id, name: created.name };
}

export interface KeyStats {
	total: number;
	rateLimited: number;
	requests: Record<string, number>;
}

/** The sandbox's counters for one key (zeros when it made no request). */
export function statsOfKey(stats: SandboxStats, apiKey: string): KeyStats {
	const entry = stats.byKey[apiKey];
	return {
		total: entry?.total ?? 0,
		rateLimited: entry?.rateLimited ?? 0,
		requests: { ...(entry?.requests ?? {}) },
	};
}

/** The requests a key made between two readings of the counters. */
export function statsSince(after: KeyStats, before: KeyStats): KeyStats {
	const requests: Record<string, number> = {};
	for (const [route, count] of Object.entries(after.requests)) {
		const made = count - (before.requests[route] ?? 0);
		if (made > 0) requests[route] = made;
	}
	return {
		total: after.total - before.total,
		rateLimited: after.rateLimited - before.rateLimited,
		requests,
	};
}

/** Submissions stored in the account's form, from the control API (no API request). */
export async function submissionCount(control: SandboxControl, account: BenchAccount) {
	const found = (await control.account(account.accountId)).forms.find(
		(form) => form.formId === account.formId,
	);
	if (!found) throw new Error(`the sandbox has no form ${account.formId}`);
	return found.submissions;
}
