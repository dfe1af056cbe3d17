/** Data model of the sandbox. Public shapes follow the live service; internal fields are marked. */

export type SubmissionStatus = 'finished' | 'in_progress';
export type CalculationType = 'number' | 'text' | 'duration';
export type FormTag = 'form' | 'quiz' | 'survey' | 'scheduling';
export type DeliveryShape = 'wrapped' | 'bare';

export interface ChoiceOption {
	id: string;
	value: string;
	label: string;
}

export interface QuestionDef {
	id: string;
	name: string;
	type: string;
	options?: ChoiceOption[];
	/** Internal: quiz forms score one point per question whose answer equals this value. */
	correctAnswer?: string;
}

export interface NamedField {
	id: string;
	name: string;
}

/** Internal recipe for a calculation; the API only shows id, name and type. */
export type Formula =
	| { op: 'sum'; questionIds: string[] }
	| { op: 'concat'; questionIds: string[]; separator: string }
	/** Minutes given by a number question, shown as H:MM:SS. */
	| { op: 'minutesToDuration'; questionId: string };

export interface CalculationDef {
	id: string;
	name: string;
	type: CalculationType;
	formula: Formula;
}

export interface FormRecord {
	id: string;
	/** Some clients see a numeric id next to the public one on the live service. */
	numericId: number;
	accountId: string;
	name: string;
	tags: FormTag[];
	isPublished: boolean;
	questions: QuestionDef[];
	calculations: CalculationDef[];
	urlParameters: NamedField[];
	scheduling: NamedField[];
	payments: NamedField[];
	quizEnabled: boolean;
	loginEnabled: boolean;
}

export interface QuestionResponse {
	id: string;
	name: string;
	type: string;
	value: unknown;
}

export interface CalculationResponse {
	id: string;
	name: string;
	type: CalculationType;
	value: string;
}

export interface NamedValue<T> {
	id: string;
	name: string;
	value: T;
}

export interface Submission {
	submissionId: string;
	submissionTime: string;
	lastUpdatedAt?: string;
	startedAt?: string;
	questions: QuestionResponse[];
	calculations: CalculationResponse[];
	urlParameters: Array<NamedValue<string>>;
	quiz?: { score: number; maxScore: number };
	documents?: Array<{ id: string; name: string; url: string }>;
	scheduling?: Array<NamedValue<Record<string, unknown> | null>>;
	payments?: Array<NamedValue<Record<string, unknown> | null>>;
	login?: { email: string };
	editLink?: string;
}

export interface StoredSubmission {
	status: SubmissionStatus;
	/** Made in the form editor's preview; listed only with includePreview=true. */
	preview: boolean;
	/** Stored but not listed yet (a submission that shows up late); see submissionControl.ts. */
	hidden?: boolean;
	/** submissionTime in epoch milliseconds, for sorting and date filters. */
	timeMs: number;
	submission: Submission;
}

export interface ApiKeyRecord {
	key: string;
	/** Given by the operator (--api-key, control API): valid even if it lacks the sk_prod_ prefix. */
	explicit: boolean;
}

export interface Account {
	id: string;
	name: string;
	/** '' for the default (US-like) root, e.g. '/eu' for another region. */
	basePath: string;
	apiKeys: ApiKeyRecord[];
	/** 'free' refuses listing in-progress submissions, as Fillout's free plan does. Default paid. */
	plan?: AccountPlan;
}

export type AccountPlan = 'free' | 'paid';

export interface DeliveryRecord {
	submissionId: string;
	shape: DeliveryShape;
	at: string;
	statusCode?: number;
	error?: string;
	durationMs: number;
}

export interface WebhookRecord {
	id: number;
	formId: string;
	url: string;
	accountId: string;
	createdAt: string;
	shape: DeliveryShape;
	/** Overrides the sandbox-wide delivery time-out for this webhook. */
	timeoutMs?: number;
	/** When a delivery was answered 404 with `disableWebhookOn404` on: no more deliveries. */
	disabledAt?: string;
	deliveries: DeliveryRecord[];
}

export interface OAuthClient {
	clientId: string;
	clientSecret: string;
	name: string;
	/** Exact URIs, or prefixes written with a trailing `*`. */
	redirectUris: string[];
}

export interface AccessTokenRecord {
	token: string;
	accountId: string;
	clientId: string;
	createdAt: string;
}

export interface AuthorizationCode {
	code: string;
	clientId: string;
	redirectUri: string;
	accountId: string;
	expiresAtMs: number;
	used: boolean;
}
