/** Fillout's validation issues: a create request's 400 lists them as a JSON array in `message`. */

export interface ValidationIssue {
	path: Array<string | number>;
	message: string;
	code?: string;
}

/** The issues of a create request's 400, whose `message` is a JSON string of an array. */
export function parseValidationIssues(message: string | undefined): ValidationIssue[] | undefined {
	if (message === undefined || !message.trim().startsWith('[')) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(message);
	} catch {
		return undefined;
	}
	if (!Array.isArray(parsed)) return undefined;
	return parsed
		.filter(
			(issue): issue is Record<string, unknown> => typeof issue === 'object' && issue !== null,
		)
		.map((issue) => ({
			path: Array.isArray(issue.path) ? (issue.path as Array<string | number>) : [],
			message: typeof issue.message === 'string' ? issue.message : JSON.stringify(issue),
			code: typeof issue.code === 'string' ? issue.code : undefined,
		}));
}

export function formatIssuePath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);
}
