import { formatIssuePath, type ValidationIssue } from '../../../transport/validationIssues';

/** What was sent for one item in a create request, to name the fields of its issues. */
export interface SentItem {
	itemIndex: number;
	payload: {
		questions?: Array<{ id: string }>;
		urlParameters?: Array<{ id: string; name?: string }>;
		scheduling?: Array<{ id: string }>;
		payments?: Array<{ id: string }>;
	};
}

export interface IssueReport {
	/** Messages per input item index. */
	byItem: Map<number, string[]>;
	/** Issues that name no submission of the batch (about the request as a whole). */
	general: string[];
}

const GROUP_LABELS: Record<string, string> = {
	questions: 'question',
	urlParameters: 'URL parameter',
	scheduling: 'scheduling field',
	payments: 'payment field',
};

/**
 * Attributes the issues of a rejected create request (paths such as
 * `submissions[3].questions[1].value`) to the input items that were sent, naming the
 * question, URL parameter, scheduling or payment field by its name in the form.
 */
export function attributeIssues(
	issues: readonly ValidationIssue[],
	sent: readonly SentItem[],
	fieldNames: ReadonlyMap<string, string>,
): IssueReport {
	const report: IssueReport = { byItem: new Map(), general: [] };
	for (const issue of issues) {
		const [root, position, group, index, ...rest] = issue.path;
		const item =
			root === 'submissions' && typeof position === 'number' ? sent[position] : undefined;
		if (!item) {
			report.general.push(`${formatIssuePath(issue.path) || 'request'}: ${issue.message}`);
			continue;
		}
		let label: string;
		const entries =
			typeof group === 'string' ? item.payload[group as keyof SentItem['payload']] : undefined;
		if (
			typeof group === 'string' &&
			GROUP_LABELS[group] &&
			typeof index === 'number' &&
			entries?.[index]
		) {
			const id = entries[index].id;
			const name = fieldNames.get(id) ?? (entries[index] as { name?: string }).name ?? id;
			const detail = rest.filter((part) => part !== 'value');
			label = `${GROUP_LABELS[group]} "${name}"${detail.length ? ` (${formatIssuePath(detail)})` : ''}`;
		} else {
			label =
				formatIssuePath([group, index, ...rest].filter((part) => part !== undefined)) ||
				'submission';
		}
		const messages = report.byItem.get(item.itemIndex) ?? [];
		messages.push(`${label}: ${issue.message}`);
		report.byItem.set(item.itemIndex, messages);
	}
	return report;
}
