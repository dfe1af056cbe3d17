/**
 * The deterministic demo world: two accounts (default root and '/eu'), an OAuth app, and forms
 * that exercise what clients get wrong — all 38 known question types plus one unknown type,
 * duplicate question names, non-ASCII text, identical timestamps, unanswered questions,
 * in-progress and preview submissions, calculations, URL parameters, scheduling, payments,
 * quiz and login.
 */
import { createFormRecord, newFormId, type FormSpec } from './formFactory';
import { Prng, type PrngState } from './prng';
import { buildSubmission, randomParts } from './submissionBuilder';
import type { Account, FormRecord, OAuthClient, StoredSubmission, SubmissionStatus } from './types';

export const DEMO_ACCOUNT_ID = 'acct_demo';
export const EU_ACCOUNT_ID = 'acct_eu';

const FEEDBACK: FormSpec = {
	name: 'Customer Feedback Survey',
	tags: ['survey'],
	questions: [
		{ name: 'Your name', type: 'ShortAnswer' },
		{ name: 'Email', type: 'EmailInput' },
		// A second question with the same name: clients must key answers by id, not by name.
		{ name: 'Email', type: 'EmailInput' },
		{ name: 'How would you rate us?', type: 'StarRating' },
		{ name: 'How likely are you to recommend us to a friend?', type: 'OpinionScale' },
		{
			name: 'Which product do you use most?',
			type: 'MultipleChoice',
			options: ['Forms', 'Scheduling', 'Payments', 'Surveys'],
		},
		{
			name: 'Which features do you use?',
			type: 'Checkboxes',
			options: ['Conditional logic', 'Webhooks', 'Integrations', 'PDF export', 'Quizzes'],
		},
		{ name: 'Anything else you would like to tell us?', type: 'LongAnswer' },
		{ name: 'Team size', type: 'NumberInput' },
		{ name: 'Customer since', type: 'DatePicker' },
		{ name: 'Subscribe to product updates', type: 'Switch' },
		{ name: '3D product scan', type: 'HologramInput' },
	],
	calculations: [
		{
			name: 'Satisfaction score',
			type: 'number',
			op: 'sum',
			questions: ['How would you rate us?', 'How likely are you to recommend us to a friend?'],
		},
		{
			name: 'Respondent',
			type: 'text',
			op: 'concat',
			questions: ['Your name', 'Email'],
			separator: ' – ',
		},
	],
	urlParameters: ['utm_source', 'ref'],
};

const EVENT: FormSpec = {
	name: 'Event Registration — Summit 2024',
	tags: ['form', 'scheduling'],
	login: true,
	questions: [
		{ name: 'Full name', type: 'ShortAnswer' },
		{ name: 'Email', type: 'EmailInput' },
		{ name: 'Phone', type: 'PhoneNumber' },
		{ name: 'Billing address', type: 'Address' },
		{
			name: 'Ticket type',
			type: 'Dropdown',
			options: [
				{ value: 'general', label: 'General admission' },
				{ value: 'vip', label: 'VIP' },
				{ value: 'student', label: 'Student' },
			],
		},
		{
			name: 'Workshops',
			type: 'MultiSelect',
			options: ['Automation 101', 'Advanced webhooks', 'Design systems', 'Data privacy'],
		},
		{ name: 'Arrival', type: 'DateTimePicker' },
		{ name: 'Preferred session time', type: 'TimePicker' },
		{ name: 'Travel dates', type: 'DateRange' },
		{ name: 'ID document', type: 'FileUpload' },
		{ name: 'Signature', type: 'Signature' },
		{ name: 'Talk length (minutes)', type: 'NumberInput' },
		{ name: 'Guests', type: 'NumberInput' },
	],
	calculations: [
		{ name: 'Extra seats', type: 'number', op: 'sum', questions: ['Guests'] },
		{
			name: 'Talk length',
			type: 'duration',
			op: 'minutesToDuration',
			question: 'Talk length (minutes)',
		},
		{ name: 'Badge name', type: 'text', op: 'concat', questions: ['Full name'] },
	],
	urlParameters: ['utm_source'],
	scheduling: ['Intro call'],
	payments: ['Ticket payment'],
};

const QUIZ: FormSpec = {
	name: 'Geography Quiz 🌍',
	tags: ['quiz'],
	quiz: true,
	questions: [
		{ name: 'Your name', type: 'ShortAnswer' },
		{
			name: 'What is the capital of Australia?',
			type: 'MultipleChoice',
			options: ['Sydney', 'Canberra', 'Melbourne'],
			correctAnswer: 'Canberra',
		},
		{
			name: 'Which is the longest river?',
			type: 'MultipleChoice',
			options: ['Nile', 'Amazon', 'Yangtze'],
			correctAnswer: 'Nile',
		},
		{
			name: 'Which is the largest ocean?',
			type: 'MultipleChoice',
			options: ['Atlantic', 'Indian', 'Pacific'],
			correctAnswer: 'Pacific',
		},
		{
			name: 'Which country spans the most time zones?',
			type: 'MultipleChoice',
			options: ['France', 'Russia', 'United States'],
			correctAnswer: 'France',
		},
		{
			name: 'Mount Everest lies on the border of Nepal and…',
			type: 'MultipleChoice',
			options: ['China', 'India', 'Bhutan'],
			correctAnswer: 'China',
		},
	],
	urlParameters: ['class'],
};

const JOBS: FormSpec = {
	name: 'Job Application: Senior Engineer',
	tags: ['form'],
	questions: [
		{ name: 'Full name', type: 'ShortAnswer' },
		{ name: 'Email', type: 'EmailInput' },
		{ name: 'Portfolio', type: 'URLInput' },
		{ name: 'Résumé', type: 'FileUpload' },
		{ name: 'Cover letter', type: 'LongAnswer' },
		{ name: 'Expected salary', type: 'CurrencyInput' },
		{ name: 'Department', type: 'Dropdown', options: ['Engineering', 'Product', 'Design'] },
		{
			name: 'Rank these perks',
			type: 'Ranking',
			options: ['Remote work', 'Learning budget', '4-day week', 'Equity'],
		},
		{ name: 'Rate our interview process', type: 'Matrix' },
		{ name: 'Years of experience', type: 'Slider' },
		{ name: 'Favourite colour', type: 'ColorPicker' },
		{ name: 'Where are you based?', type: 'LocationCoordinates' },
		{ name: 'Pick an office', type: 'ImagePicker', options: ['Lisbon', 'Berlin', 'Tokyo'] },
		{ name: 'Availability', type: 'DateRange' },
		{ name: 'Previous employers', type: 'Table' },
		{ name: 'Candidate portal password', type: 'Password' },
		{ name: 'I am not a robot', type: 'Captcha' },
		{ name: 'Voice introduction', type: 'AudioRecording' },
		{ name: 'I accept the privacy policy', type: 'Checkbox' },
		{ name: 'Referral record', type: 'RecordPicker' },
		{ name: 'References', type: 'Subform' },
		{ name: 'Earlier application', type: 'SubmissionPicker' },
		{ name: 'Book a screening call', type: 'Calcom' },
		{ name: 'Or book via Calendly', type: 'Calendly' },
		{ name: 'Application fee', type: 'Payment' },
		{ name: 'Earliest start date', type: 'DatePicker' },
		{
			name: 'Which skills do you bring?',
			type: 'Checkboxes',
			options: ['TypeScript', 'Go', 'SQL', 'Kubernetes'],
		},
	],
	calculations: [{ name: 'Salary (k)', type: 'number', op: 'sum', questions: ['Expected salary'] }],
	urlParameters: ['ref', 'utm_source'],
};

const NEWSLETTER: FormSpec = {
	name: 'Newsletter signup',
	tags: ['form'],
	isPublished: false,
	questions: [
		{ name: 'Email', type: 'EmailInput' },
		{ name: 'First name', type: 'ShortAnswer' },
	],
};

const EU_SURVEY: FormSpec = {
	name: 'Kundenzufriedenheit 2024',
	tags: ['survey'],
	questions: [
		{ name: 'Name', type: 'ShortAnswer' },
		{ name: 'E-Mail', type: 'EmailInput' },
		{ name: 'Wie zufrieden sind Sie?', type: 'StarRating' },
		{ name: 'Kommentar', type: 'LongAnswer' },
	],
	urlParameters: ['quelle'],
};

const EU_WORKSHOP: FormSpec = {
	name: 'Inscription à l’atelier',
	tags: ['form'],
	questions: [
		{ name: 'Nom complet', type: 'ShortAnswer' },
		{ name: 'Courriel', type: 'EmailInput' },
		{ name: 'Atelier', type: 'MultipleChoice', options: ['Débutant', 'Intermédiaire', 'Avancé'] },
		{ name: 'Adresse', type: 'Address' },
	],
};

interface SubmissionPlan {
	count: number;
	startMs: number;
	inProgressRate: number;
	previewRate: number;
	/** Every n-th submission starts a run of three with the identical timestamp. */
	tieEvery: number;
}

function seedSubmissions(form: FormRecord, rng: Prng, plan: SubmissionPlan): StoredSubmission[] {
	const stored: StoredSubmission[] = [];
	let timeMs = plan.startMs;
	let tiesLeft = 0;
	for (let i = 0; i < plan.count; i++) {
		if (tiesLeft > 0) tiesLeft--;
		else {
			timeMs += rng.int(20, 360) * 60_000 + rng.int(0, 59_999);
			if (plan.tieEvery && i % plan.tieEvery === plan.tieEvery - 1) tiesLeft = 2;
		}
		const status: SubmissionStatus = rng.chance(plan.inProgressRate) ? 'in_progress' : 'finished';
		const parts = randomParts(form, rng, { submissionId: rng.uuid(), timeMs, status });
		stored.push({
			status,
			preview: rng.chance(plan.previewRate),
			timeMs,
			submission: buildSubmission(form, parts),
		});
	}
	return stored;
}

export interface SeedData {
	accounts: Account[];
	forms: FormRecord[];
	submissions: Map<string, StoredSubmission[]>;
	oauthClients: OAuthClient[];
	rngState: PrngState;
	demoFormIds: string[];
}

/** Keys are derived, not written down: they look like live keys and stay the same on every start. */
export function apiKeyFrom(rng: Prng): string {
	return `sk_prod_${rng.alnum(40)}`;
}

export function buildSeed(): SeedData {
	const rng = new Prng('fillout-sandbox-seed-v1');
	const accounts: Account[] = [
		{
			id: DEMO_ACCOUNT_ID,
			name: 'Demo Workspace',
			basePath: '',
			apiKeys: [{ key: apiKeyFrom(rng), explicit: false }],
		},
		{
			id: EU_ACCOUNT_ID,
			name: 'Demo Workspace (EU)',
			basePath: '/eu',
			apiKeys: [{ key: apiKeyFrom(rng), explicit: false }],
		},
	];
	const oauthClients: OAuthClient[] = [
		{
			clientId: rng.uuid(),
			clientSecret: rng.hex(48),
			name: 'n8n (sandbox demo app)',
			redirectUris: [
				'http://localhost:5678/rest/oauth2-credential/callback',
				'http://localhost:*',
				'http://127.0.0.1:*',
			],
		},
	];
	const forms: FormRecord[] = [];
	const submissions = new Map<string, StoredSubmission[]>();
	const taken = (id: string) => forms.some((f) => f.id === id);
	const plans: Array<[string, FormSpec, SubmissionPlan]> = [
		[
			DEMO_ACCOUNT_ID,
			FEEDBACK,
			{
				count: 320,
				startMs: Date.UTC(2024, 0, 8, 9),
				inProgressRate: 0.06,
				previewRate: 0.02,
				tieEvery: 25,
			},
		],
		[
			DEMO_ACCOUNT_ID,
			EVENT,
			{
				count: 45,
				startMs: Date.UTC(2024, 2, 1, 8),
				inProgressRate: 0.1,
				previewRate: 0.05,
				tieEvery: 15,
			},
		],
		[
			DEMO_ACCOUNT_ID,
			QUIZ,
			{
				count: 30,
				startMs: Date.UTC(2024, 3, 15, 12),
				inProgressRate: 0.1,
				previewRate: 0,
				tieEvery: 0,
			},
		],
		[
			DEMO_ACCOUNT_ID,
			JOBS,
			{
				count: 25,
				startMs: Date.UTC(2024, 4, 2, 10),
				inProgressRate: 0.12,
				previewRate: 0.04,
				tieEvery: 0,
			},
		],
		[
			DEMO_ACCOUNT_ID,
			NEWSLETTER,
			{ count: 0, startMs: 0, inProgressRate: 0, previewRate: 0, tieEvery: 0 },
		],
		[
			EU_ACCOUNT_ID,
			EU_SURVEY,
			{
				count: 20,
				startMs: Date.UTC(2024, 1, 3, 7),
				inProgressRate: 0.1,
				previewRate: 0,
				tieEvery: 10,
			},
		],
		[
			EU_ACCOUNT_ID,
			EU_WORKSHOP,
			{
				count: 12,
				startMs: Date.UTC(2024, 5, 10, 15),
				inProgressRate: 0,
				previewRate: 0,
				tieEvery: 0,
			},
		],
	];
	plans.forEach(([accountId, spec, plan], index) => {
		const form = createFormRecord(rng, accountId, newFormId(rng, taken), 100_001 + index, spec);
		forms.push(form);
		submissions.set(form.id, seedSubmissions(form, rng, plan));
	});
	return {
		accounts,
		forms,
		submissions,
		oauthClients,
		rngState: rng.state(),
		demoFormIds: forms.filter((f) => f.accountId === DEMO_ACCOUNT_ID).map((f) => f.id),
	};
}
