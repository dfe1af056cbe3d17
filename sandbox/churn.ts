/**
 * Churn: the sandbox changes a form's submissions between list requests, as respondents
 * and users do while a client pages through them. After each list request of a form under
 * churn it applies a few seeded random changes: a new submission now, a back-dated one (at
 * the instant of a submission just served, so ties grow where the client is reading, or
 * at an earlier time), or a deletion (of a submission just served, or of any). What it did
 * is kept, for a test to check a client's read against.
 */
import { Prng } from './prng';
import type { SandboxStore } from './store';
import { buildSubmission, randomParts } from './submissionBuilder';
import type { FormRecord, StoredSubmission } from './types';

export interface ChurnSettings {
	seed: string;
	/** Changes after each list request: 1 to this many (each an insert, a back-dated insert or a delete). */
	changesPerList: number;
	/**
	 * Count first: each list request takes `totalResponses` before its page and makes the
	 * changes in between, as a service that counts in a statement of its own may.
	 */
	countFirst?: boolean;
}

interface FormChurn extends ChurnSettings {
	rng: Prng;
	lists: number;
	inserted: string[];
	deleted: string[];
}

export class Churn {
	private readonly forms = new Map<string, FormChurn>();

	start(formId: string, settings: ChurnSettings): void {
		this.forms.set(formId, {
			...settings,
			rng: new Prng(settings.seed),
			lists: 0,
			inserted: [],
			deleted: [],
		});
	}

	stop(formId: string): void {
		this.forms.delete(formId);
	}

	clear(): void {
		this.forms.clear();
	}

	describe(formId: string) {
		const churn = this.forms.get(formId);
		if (!churn) return { active: false, lists: 0, inserted: [], deleted: [] };
		const { seed, changesPerList, countFirst = false, lists, inserted, deleted } = churn;
		return { active: true, seed, changesPerList, countFirst, lists, inserted, deleted };
	}

	countsFirst(formId: string): boolean {
		return this.forms.get(formId)?.countFirst === true;
	}

	/** Called after a list request of `form` served `served`. */
	afterList(store: SandboxStore, form: FormRecord, served: readonly StoredSubmission[]): void {
		const churn = this.forms.get(form.id);
		if (!churn) return;
		churn.lists++;
		const list = store.submissionsOf(form.id);
		const { rng } = churn;
		for (let k = rng.int(1, churn.changesPerList); k > 0; k--) {
			const roll = rng.next();
			const servedNow = served.filter((item) => list.get(item.submission.submissionId));
			if (roll < 0.25) {
				const latest = list.latestTimeMs() ?? Date.now();
				churn.inserted.push(insert(store, form, rng, Math.max(Date.now(), latest + 1)));
			} else if (roll < 0.5) {
				const near =
					servedNow.length > 0 && rng.chance(0.7)
						? servedNow[rng.int(0, servedNow.length - 1)]
						: undefined;
				const earliest = list.sorted()[0]?.timeMs ?? Date.now();
				const timeMs = near?.timeMs ?? rng.int(earliest - 86_400_000, earliest + 86_400_000);
				churn.inserted.push(insert(store, form, rng, timeMs));
			} else {
				const pool = servedNow.length > 0 && rng.chance(0.7) ? servedNow : list.sorted();
				const victim = pool[rng.int(0, pool.length - 1)];
				if (victim && store.deleteSubmission(form.id, victim.submission.submissionId)) {
					churn.deleted.push(victim.submission.submissionId);
				}
			}
		}
	}
}

function insert(store: SandboxStore, form: FormRecord, rng: Prng, timeMs: number): string {
	const submissionId = store.newSubmissionId(form.id);
	const parts = randomParts(form, rng, { submissionId, timeMs, status: 'finished' });
	store.addSubmissions(form.id, [
		{ status: 'finished', preview: false, timeMs, submission: buildSubmission(form, parts) },
	]);
	return submissionId;
}
