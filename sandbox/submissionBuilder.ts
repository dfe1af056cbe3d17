/**
 * Turns answers into the full Submission shape of the live service: every question of the form
 * with its name and type, calculations, URL parameters, scheduling, payments, quiz and login.
 * Used by the seed, the create endpoint, the respondent simulation and bulk generation alike,
 * so all of them produce the same shape.
 */
import { SEED_FILE_ORIGIN } from './files';
import { answerFor, PEOPLE, type Person } from './answers';
import type { Prng } from './prng';
import type {
	CalculationDef,
	CalculationResponse,
	FormRecord,
	Submission,
	SubmissionStatus,
} from './types';

type Value = Record<string, unknown> | null;

export interface SubmissionParts {
	submissionId: string;
	submissionTime: string;
	lastUpdatedAt?: string;
	startedAt?: string;
	/** Question id → value; questions missing here are listed with value null. */
	answers: Map<string, unknown>;
	urlParameters?: Map<string, string>;
	scheduling?: Map<string, Value>;
	payments?: Map<string, Value>;
	loginEmail?: string;
}

function formatDuration(minutes: number): string {
	const seconds = Math.round(minutes * 60);
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = seconds % 60;
	return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

function isAnswered(value: unknown): boolean {
	return value !== null && value !== undefined && value !== '';
}

function calculate(definition: CalculationDef, answers: Map<string, unknown>): string {
	const formula = definition.formula;
	switch (formula.op) {
		case 'sum': {
			const total = formula.questionIds
				.map((id) => answers.get(id))
				.reduce<number>((sum, value) => sum + (typeof value === 'number' ? value : 0), 0);
			return String(Math.round(total * 100) / 100);
		}
		case 'concat':
			return formula.questionIds
				.map((id) => answers.get(id))
				.filter(isAnswered)
				.map(String)
				.join(formula.separator);
		case 'minutesToDuration': {
			const minutes = answers.get(formula.questionId);
			return typeof minutes === 'number' ? formatDuration(minutes) : '';
		}
	}
}

/**
 * Forms that take uploads also generate a document per submission (a PDF summary, as
 * Fillout's document generation does), addressed by the submission's id: no PRNG draw,
 * so the rest of the seed is unchanged.
 */
function documentsFor(form: FormRecord, submissionId: string): Submission['documents'] {
	if (!form.questions.some((q) => q.type === 'FileUpload')) return [];
	const url = `${SEED_FILE_ORIGIN}/doc-${encodeURIComponent(submissionId)}/Submission%20summary.pdf`;
	return [{ id: 'doc_summary', name: 'Submission summary', url }];
}

export function buildSubmission(form: FormRecord, parts: SubmissionParts): Submission {
	const submission: Submission = {
		submissionId: parts.submissionId,
		submissionTime: parts.submissionTime,
		lastUpdatedAt: parts.lastUpdatedAt ?? parts.submissionTime,
		...(parts.startedAt ? { startedAt: parts.startedAt } : {}),
		questions: form.questions.map((q) => ({
			id: q.id,
			name: q.name,
			type: q.type,
			value: parts.answers.has(q.id) ? parts.answers.get(q.id) : null,
		})),
		calculations: form.calculations.map(
			(c): CalculationResponse => ({
				id: c.id,
				name: c.name,
				type: c.type,
				value: calculate(c, parts.answers),
			}),
		),
		urlParameters: form.urlParameters.map((p) => ({
			id: p.id,
			name: p.name,
			value: parts.urlParameters?.get(p.id) ?? '',
		})),
		documents: documentsFor(form, parts.submissionId),
	};
	if (form.quizEnabled) {
		const graded = form.questions.filter((q) => q.correctAnswer !== undefined);
		const score = graded.filter((q) => parts.answers.get(q.id) === q.correctAnswer).length;
		submission.quiz = { score, maxScore: graded.length };
	}
	if (form.scheduling.length) {
		submission.scheduling = form.scheduling.map((f) => ({
			id: f.id,
			name: f.name,
			value: parts.scheduling?.get(f.id) ?? null,
		}));
	}
	if (form.payments.length) {
		submission.payments = form.payments.map((f) => ({
			id: f.id,
			name: f.name,
			value: parts.payments?.get(f.id) ?? null,
		}));
	}
	if (form.loginEnabled && parts.loginEmail) submission.login = { email: parts.loginEmail };
	return submission;
}

const UTM_SOURCES = ['newsletter', 'twitter', 'google', 'linkedin', 'producthunt', 'café-blog'];
const TIMEZONES = [
	'America/New_York',
	'Europe/Paris',
	'Asia/Tokyo',
	'America/Los_Angeles',
	'Europe/Berlin',
];
const PAYMENT_STATUSES = [
	'succeeded',
	'succeeded',
	'succeeded',
	'processing',
	'requires_payment_method',
	'canceled',
	'succeeded_free',
	'trial_created',
	'',
];

function urlParameterValue(name: string, rng: Prng): string {
	if (/utm_source|source/i.test(name)) return rng.pick(UTM_SOURCES);
	if (/ref/i.test(name)) return `partner-${rng.alnum(4).toLowerCase()}`;
	return rng.alnum(6);
}

function schedulingValue(rng: Prng, person: Person, timeMs: number): Value {
	const start = new Date(timeMs + rng.int(1, 14) * 86_400_000);
	start.setUTCHours(rng.int(8, 17), rng.pick([0, 30]), 0, 0);
	const eventId = rng.alnum(20).toLowerCase();
	return {
		fullName: person.name,
		email: person.email,
		timezone: rng.pick(TIMEZONES),
		eventStartTime: start.toISOString(),
		eventEndTime: new Date(start.getTime() + 30 * 60_000).toISOString(),
		eventId,
		eventUrl: `https://calendar.example.com/event/${eventId}`,
		rescheduleOrCancelUrl: `https://forms.fillout.example/reschedule/${eventId}`,
		userId: rng.int(10_000, 99_999),
		scheduledUserEmail: 'host@fillout.example',
		meetingNotes: rng.chance(0.5) ? 'Wants to discuss pricing — and the API.' : '',
	};
}

/** Live field names carry the processor's brand (docs/fillout-api.md, "Payments"). */
function paymentValue(rng: Prng, person: Person): Value {
	const customer = `cus_${rng.alnum(14)}`;
	const payment = `pi_${rng.alnum(24)}`;
	const status = rng.pick(PAYMENT_STATUSES);
	return {
		paymentId: payment,
		stripeCustomerId: customer,
		stripeCustomerUrl: `https://dashboard.stripe.com/customers/${customer}`,
		stripePaymentUrl: `https://dashboard.stripe.com/payments/${payment}`,
		totalAmount: rng.pick([2500, 4900, 9900, 14900]),
		currency: rng.pick(['usd', 'eur']),
		email: person.email,
		discountCode: rng.chance(0.3) ? 'EARLYBIRD' : '',
		status,
		...(rng.chance(0.2) ? { stripeSubscriptionId: `sub_${rng.alnum(14)}` } : {}),
	};
}

export interface RandomPartsOptions {
	submissionId: string;
	timeMs: number;
	status: SubmissionStatus;
	/** Share of questions left unanswered (null or ""), besides in-progress gaps. */
	skipRate?: number;
}

/** A plausible respondent: answers for every question (some skipped), parameters, bookings, payments. */
export function randomParts(
	form: FormRecord,
	rng: Prng,
	options: RandomPartsOptions,
): SubmissionParts {
	const person = rng.pick(PEOPLE);
	const inProgress = options.status === 'in_progress';
	const skipRate = options.skipRate ?? 0.08;
	const answers = new Map<string, unknown>();
	// An in-progress respondent stopped part-way: later questions are still empty.
	const stopAt = inProgress
		? rng.int(1, Math.max(1, form.questions.length - 1))
		: form.questions.length;
	form.questions.forEach((question, index) => {
		if (index >= stopAt) return;
		if (rng.chance(skipRate)) {
			answers.set(question.id, rng.chance(0.5) ? null : '');
		} else if (question.correctAnswer !== undefined && rng.chance(0.6)) {
			answers.set(question.id, question.correctAnswer);
		} else {
			answers.set(question.id, answerFor(question, rng, person));
		}
	});
	const time = new Date(options.timeMs).toISOString();
	const parts: SubmissionParts = {
		submissionId: options.submissionId,
		submissionTime: time,
		lastUpdatedAt: rng.chance(0.1)
			? new Date(options.timeMs + rng.int(1, 48) * 3_600_000).toISOString()
			: time,
		startedAt: new Date(options.timeMs - rng.int(30, 900) * 1000).toISOString(),
		answers,
		urlParameters: new Map(
			form.urlParameters.map((p) => [p.id, rng.chance(0.8) ? urlParameterValue(p.name, rng) : '']),
		),
	};
	if (!inProgress) {
		parts.scheduling = new Map(
			form.scheduling.map((f) => [f.id, schedulingValue(rng, person, options.timeMs)]),
		);
		parts.payments = new Map(form.payments.map((f) => [f.id, paymentValue(rng, person)]));
	}
	if (form.loginEnabled) parts.loginEmail = person.email;
	return parts;
}
