/** Builds form records from a compact description; used by the seed and by `POST /_sandbox/forms`. */
import type { Prng } from './prng';
import type {
	CalculationDef,
	CalculationType,
	ChoiceOption,
	FormRecord,
	FormTag,
	NamedField,
	QuestionDef,
} from './types';

export interface QuestionSpec {
	id?: string;
	name: string;
	type: string;
	/** Choice values; the label equals the value unless given as {value, label}. */
	options?: Array<string | { id?: string; value: string; label?: string }>;
	correctAnswer?: string;
}

/** Calculations name the questions they read; duplicates resolve to the first question of that name. */
export type CalculationSpec =
	| { name: string; type: CalculationType; op: 'sum'; questions: string[] }
	| { name: string; type: CalculationType; op: 'concat'; questions: string[]; separator?: string }
	| { name: string; type: CalculationType; op: 'minutesToDuration'; question: string };

export interface FormSpec {
	id?: string;
	name: string;
	tags?: FormTag[];
	isPublished?: boolean;
	questions: QuestionSpec[];
	calculations?: CalculationSpec[];
	urlParameters?: string[];
	scheduling?: string[];
	payments?: string[];
	quiz?: boolean;
	login?: boolean;
}

/** Short ids such as the live service's question ids ("5GLt"), unique within one form. */
class ShortIds {
	private readonly used = new Set<string>();
	constructor(private readonly rng: Prng) {}

	take(wanted?: string): string {
		let id = wanted ?? this.rng.alnum(4);
		while (this.used.has(id)) id = this.rng.alnum(wanted ? wanted.length + 1 : 4);
		this.used.add(id);
		return id;
	}
}

export function newFormId(rng: Prng, taken: (id: string) => boolean): string {
	let id = rng.alnum(12);
	while (taken(id)) id = rng.alnum(12);
	return id;
}

export function createFormRecord(
	rng: Prng,
	accountId: string,
	formId: string,
	numericId: number,
	spec: FormSpec,
): FormRecord {
	const ids = new ShortIds(rng);
	const questions: QuestionDef[] = spec.questions.map((q) => {
		const question: QuestionDef = { id: ids.take(q.id), name: q.name, type: q.type };
		if (q.options) {
			question.options = q.options.map((option): ChoiceOption => {
				const value = typeof option === 'string' ? option : option.value;
				const label = typeof option === 'string' ? option : (option.label ?? option.value);
				return { id: ids.take(typeof option === 'string' ? undefined : option.id), value, label };
			});
		}
		if (q.correctAnswer !== undefined) question.correctAnswer = q.correctAnswer;
		return question;
	});
	const questionId = (name: string): string => {
		const found = questions.find((q) => q.name === name);
		if (!found) throw new Error(`calculation refers to unknown question "${name}"`);
		return found.id;
	};
	const calculations = (spec.calculations ?? []).map((c): CalculationDef => {
		const base = { id: ids.take(), name: c.name, type: c.type };
		if (c.op === 'minutesToDuration')
			return { ...base, formula: { op: c.op, questionId: questionId(c.question) } };
		if (c.op === 'concat') {
			return {
				...base,
				formula: {
					op: c.op,
					questionIds: c.questions.map(questionId),
					separator: c.separator ?? ' ',
				},
			};
		}
		return { ...base, formula: { op: c.op, questionIds: c.questions.map(questionId) } };
	});
	const named = (names: string[] | undefined): NamedField[] =>
		(names ?? []).map((name) => ({ id: ids.take(), name }));
	const quiz = spec.quiz ?? questions.some((q) => q.correctAnswer !== undefined);
	return {
		id: formId,
		numericId,
		accountId,
		name: spec.name,
		tags: spec.tags ?? [quiz ? 'quiz' : 'form'],
		isPublished: spec.isPublished ?? true,
		questions,
		calculations,
		urlParameters: named(spec.urlParameters),
		scheduling: named(spec.scheduling),
		payments: named(spec.payments),
		quizEnabled: quiz,
		loginEnabled: spec.login ?? false,
	};
}
