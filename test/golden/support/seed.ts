/**
 * The sandbox account the golden workflows run against: forms and submissions with
 * fixed ids and times, so that every output is the same from run to run.
 */
import type { RunningSandbox } from '../../../sandbox';
import { control } from '../../nodes/integration/support';

/** The API key of the golden account (its own rate limit, its own forms only). */
export const GOLDEN_API_KEY = 'sk_prod_golden_examples';

const FEEDBACK_FORM = {
	formId: 'feedbackGold01',
	name: 'Customer feedback',
	questions: [
		{ id: 'q_name', name: 'Name', type: 'ShortAnswer' },
		{ id: 'q_email', name: 'Email', type: 'EmailInput' },
		{ id: 'q_rating', name: 'Rating', type: 'StarRating' },
		{
			id: 'q_plan',
			name: 'Plan',
			type: 'Dropdown',
			options: [
				{ id: 'opt_basic', value: 'basic', label: 'Basic' },
				{ id: 'opt_pro', value: 'pro', label: 'Pro' },
			],
		},
		{ id: 'q_comments', name: 'Comments', type: 'LongAnswer' },
	],
};

const SIGNUP_FORM = {
	formId: 'signupGold0001',
	name: 'Event sign-ups',
	questions: [
		{ id: 'q_full_name', name: 'Full name', type: 'ShortAnswer' },
		{ id: 'q_email', name: 'Email', type: 'EmailInput' },
		{
			id: 'q_ticket',
			name: 'Ticket',
			type: 'MultipleChoice',
			options: [
				{ id: 'opt_standard', value: 'standard', label: 'Standard' },
				{ id: 'opt_vip', value: 'vip', label: 'VIP' },
			],
		},
	],
};

const CLEANUP_FORM = {
	formId: 'cleanupGold001',
	name: 'Spam trap',
	questions: [{ id: 'q_message', name: 'Message', type: 'LongAnswer' }],
};

interface FixedSubmission {
	submissionId: string;
	submissionTime: string;
	startedAt: string;
	answers: Record<string, unknown>;
}

const FEEDBACK: FixedSubmission[] = [
	{
		submissionId: '5f0c7e52-1a3b-4c6d-8e9f-000000000001',
		submissionTime: '2024-05-01T09:30:00.000Z',
		startedAt: '2024-05-01T09:27:12.000Z',
		answers: {
			q_name: 'Ana López',
			q_email: 'ana@example.com',
			q_rating: 5,
			q_plan: 'pro',
			q_comments: 'Great support.',
		},
	},
	{
		submissionId: '5f0c7e52-1a3b-4c6d-8e9f-000000000002',
		submissionTime: '2024-05-02T14:05:00.000Z',
		startedAt: '2024-05-02T14:01:40.000Z',
		answers: { q_name: 'Bo Chen', q_email: 'bo@example.com', q_rating: 3, q_plan: 'basic' },
	},
	{
		submissionId: '5f0c7e52-1a3b-4c6d-8e9f-000000000003',
		submissionTime: '2024-05-03T08:45:00.000Z',
		startedAt: '2024-05-03T08:40:05.000Z',
		answers: {
			q_name: 'Chloé Martin',
			q_email: 'chloe@example.com',
			q_rating: 4,
			q_plan: 'pro',
			q_comments: 'Faster exports, please.',
		},
	},
];

const SPAM: FixedSubmission = {
	submissionId: '5f0c7e52-1a3b-4c6d-8e9f-000000000099',
	submissionTime: '2024-05-04T03:12:00.000Z',
	startedAt: '2024-05-04T03:11:58.000Z',
	answers: { q_message: 'Buy cheap watches!!!' },
};

async function respond(sandbox: RunningSandbox, formId: string, fixed: FixedSubmission) {
	const { answers, ...times } = fixed;
	await control(sandbox, 'POST', `/forms/${formId}/respond`, {
		answers,
		fillUnanswered: false,
		submission: { ...times, lastUpdatedAt: times.submissionTime },
	});
}

/** Creates the golden account, its three forms and their submissions. */
export async function seedGoldenAccount(sandbox: RunningSandbox): Promise<void> {
	const { id: accountId } = await control(sandbox, 'POST', '/accounts', {
		apiKey: GOLDEN_API_KEY,
		name: 'Golden examples',
	});
	for (const form of [FEEDBACK_FORM, SIGNUP_FORM, CLEANUP_FORM]) {
		await control(sandbox, 'POST', '/forms', { ...form, accountId });
	}
	for (const submission of FEEDBACK) await respond(sandbox, FEEDBACK_FORM.formId, submission);
	await respond(sandbox, CLEANUP_FORM.formId, SPAM);
}
