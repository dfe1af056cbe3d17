/**
 * All state of the sandbox in one object, so reset, persistence and the HTTP handlers agree on
 * it. Persistence itself lives in persistence.ts; this module only says what changed.
 */
import { createFormRecord, newFormId, type FormSpec } from './formFactory';
import { Prng, type PrngState } from './prng';
import { apiKeyFrom, buildSeed, DEMO_ACCOUNT_ID } from './seed';
import type {
	AccessTokenRecord,
	Account,
	AccountPlan,
	AuthorizationCode,
	FormRecord,
	OAuthClient,
	StoredSubmission,
	WebhookRecord,
} from './types';

/** The submissions of one form, with a sorted view cached until the next change. */
export class FormSubmissions {
	private readonly byId = new Map<string, StoredSubmission>();
	private sortedCache: StoredSubmission[] | null = null;

	constructor(items: Iterable<StoredSubmission> = []) {
		for (const item of items) this.byId.set(item.submission.submissionId, item);
	}

	get size(): number {
		return this.byId.size;
	}

	get(id: string): StoredSubmission | undefined {
		return this.byId.get(id);
	}

	add(item: StoredSubmission): void {
		this.byId.set(item.submission.submissionId, item);
		this.sortedCache = null;
	}

	remove(id: string): boolean {
		const removed = this.byId.delete(id);
		if (removed) this.sortedCache = null;
		return removed;
	}

	/** Ascending by submissionTime; identical times are ordered by submissionId so paging is stable. */
	sorted(): readonly StoredSubmission[] {
		if (!this.sortedCache) {
			this.sortedCache = [...this.byId.values()].sort(
				(a, b) =>
					a.timeMs - b.timeMs ||
					(a.submission.submissionId < b.submission.submissionId
						? -1
						: a.submission.submissionId > b.submission.submissionId
							? 1
							: 0),
			);
		}
		return this.sortedCache;
	}

	latestTimeMs(): number | undefined {
		const all = this.sorted();
		return all.length ? all[all.length - 1].timeMs : undefined;
	}
}

/** What goes into the data file. Authorization codes live seconds and are not kept. */
export interface PersistedState {
	version: 1;
	accounts: Account[];
	forms: FormRecord[];
	submissions: Record<string, Array<Omit<StoredSubmission, 'timeMs'>>>;
	webhooks: WebhookRecord[];
	oauthClients: OAuthClient[];
	accessTokens: AccessTokenRecord[];
	nextWebhookId: number;
	nextNumericFormId: number;
	rngState: PrngState;
	demoFormIds: string[];
}

export class SandboxStore {
	accounts = new Map<string, Account>();
	forms = new Map<string, FormRecord>();
	submissions = new Map<string, FormSubmissions>();
	webhooks = new Map<number, WebhookRecord>();
	oauthClients = new Map<string, OAuthClient>();
	accessTokens = new Map<string, AccessTokenRecord>();
	authCodes = new Map<string, AuthorizationCode>();
	nextWebhookId = 1;
	nextNumericFormId = 200_001;
	demoFormIds: string[] = [];
	rng = new Prng('unused');
	private keyIndex: Map<string, { account: Account; explicit: boolean }> | null = null;

	/**
	 * @param explicitKeys keys given by the operator (--api-key): valid for the demo account
	 * @param onChange called after every change, for persistence
	 */
	constructor(
		private readonly explicitKeys: readonly string[],
		private readonly onChange: () => void = () => {},
	) {
		this.resetToSeed();
	}

	changed(): void {
		this.keyIndex = null;
		this.onChange();
	}

	resetToSeed(): void {
		const seed = buildSeed();
		this.load({
			version: 1,
			accounts: seed.accounts,
			forms: seed.forms,
			submissions: Object.fromEntries(seed.submissions),
			webhooks: [],
			oauthClients: seed.oauthClients,
			accessTokens: [],
			nextWebhookId: 1,
			nextNumericFormId: 200_001,
			rngState: seed.rngState,
			demoFormIds: seed.demoFormIds,
		});
	}

	load(state: PersistedState): void {
		this.accounts = new Map(state.accounts.map((a) => [a.id, a]));
		this.forms = new Map(state.forms.map((f) => [f.id, f]));
		this.submissions = new Map(
			state.forms.map((f) => [
				f.id,
				new FormSubmissions(
					(state.submissions[f.id] ?? []).map((s) => ({
						...s,
						timeMs: Date.parse(s.submission.submissionTime),
					})),
				),
			]),
		);
		this.webhooks = new Map(state.webhooks.map((w) => [w.id, w]));
		this.oauthClients = new Map(state.oauthClients.map((c) => [c.clientId, c]));
		this.accessTokens = new Map(state.accessTokens.map((t) => [t.token, t]));
		this.authCodes = new Map();
		this.nextWebhookId = state.nextWebhookId;
		this.nextNumericFormId = state.nextNumericFormId;
		this.rng = new Prng(state.rngState);
		this.demoFormIds = state.demoFormIds;
		const demo = this.accounts.get(DEMO_ACCOUNT_ID);
		for (const key of this.explicitKeys) {
			if (demo && !this.lookupKey(key)) demo.apiKeys.push({ key, explicit: true });
		}
		this.changed();
	}

	snapshot(): PersistedState {
		const submissions: PersistedState['submissions'] = {};
		for (const [formId, list] of this.submissions) {
			submissions[formId] = list
				.sorted()
				.map(({ status, preview, submission }) => ({ status, preview, submission }));
		}
		return {
			version: 1,
			accounts: [...this.accounts.values()],
			forms: [...this.forms.values()],
			submissions,
			webhooks: [...this.webhooks.values()],
			oauthClients: [...this.oauthClients.values()],
			accessTokens: [...this.accessTokens.values()],
			nextWebhookId: this.nextWebhookId,
			nextNumericFormId: this.nextNumericFormId,
			rngState: this.rng.state(),
			demoFormIds: this.demoFormIds,
		};
	}

	lookupKey(key: string): { account: Account; explicit: boolean } | undefined {
		if (!this.keyIndex) {
			this.keyIndex = new Map();
			for (const account of this.accounts.values()) {
				for (const record of account.apiKeys)
					this.keyIndex.set(record.key, { account, explicit: record.explicit });
			}
		}
		return this.keyIndex.get(key);
	}

	/** The account a bearer value (API key or OAuth access token) belongs to. */
	accountForBearer(value: string): Account | undefined {
		const byKey = this.lookupKey(value);
		if (byKey) return byKey.account;
		const token = this.accessTokens.get(value);
		return token ? this.accounts.get(token.accountId) : undefined;
	}

	demoAccount(): Account {
		const demo = this.accounts.get(DEMO_ACCOUNT_ID);
		if (!demo) throw new Error('demo account missing from state');
		return demo;
	}

	accountByBasePath(basePath: string): Account | undefined {
		return [...this.accounts.values()].find((a) => a.basePath === basePath);
	}

	basePaths(): Set<string> {
		return new Set([...this.accounts.values()].map((a) => a.basePath));
	}

	formsOf(accountId: string): FormRecord[] {
		return [...this.forms.values()].filter((f) => f.accountId === accountId);
	}

	submissionsOf(formId: string): FormSubmissions {
		let list = this.submissions.get(formId);
		if (!list) {
			list = new FormSubmissions();
			this.submissions.set(formId, list);
		}
		return list;
	}

	/** A submission id not used by any submission of the form. */
	newSubmissionId(formId: string): string {
		const list = this.submissionsOf(formId);
		let id = this.rng.uuid();
		while (list.get(id)) id = this.rng.uuid();
		return id;
	}

	addAccount(options: {
		apiKey?: string;
		basePath?: string;
		name?: string;
		plan?: AccountPlan;
	}): Account {
		const id = `acct_${this.rng.alnum(10).toLowerCase()}`;
		const key = options.apiKey ?? apiKeyFrom(this.rng);
		const account: Account = {
			id,
			name: options.name ?? `Workspace ${this.accounts.size + 1}`,
			basePath: options.basePath ?? '',
			apiKeys: [{ key, explicit: options.apiKey !== undefined }],
		};
		if (options.plan) account.plan = options.plan;
		this.accounts.set(id, account);
		this.changed();
		return account;
	}

	addForm(accountId: string, spec: FormSpec): FormRecord {
		const formId = spec.id ?? newFormId(this.rng, (id) => this.forms.has(id));
		const form = createFormRecord(this.rng, accountId, formId, this.nextNumericFormId++, spec);
		this.forms.set(form.id, form);
		this.submissions.set(form.id, new FormSubmissions());
		this.changed();
		return form;
	}

	addSubmissions(formId: string, items: StoredSubmission[]): void {
		const list = this.submissionsOf(formId);
		for (const item of items) list.add(item);
		this.changed();
	}

	deleteSubmission(formId: string, submissionId: string): boolean {
		const removed = this.submissionsOf(formId).remove(submissionId);
		if (removed) this.changed();
		return removed;
	}
}
