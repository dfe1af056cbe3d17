import type { IDataObject } from 'n8n-workflow';

/**
 * Shapes of the Fillout API (docs/fillout-api.md, "Endpoints"); extra fields are passed
 * through untouched.
 */

export interface FormListEntry extends IDataObject {
	formId: string;
	name: string;
}

export interface ChoiceOption extends IDataObject {
	id?: string;
	value?: string;
	label?: string;
}

export interface FormQuestion extends IDataObject {
	id: string;
	name: string;
	type: string;
	options?: ChoiceOption[];
}

export interface NamedField extends IDataObject {
	id: string;
	name: string;
}

export interface FormMetadata extends IDataObject {
	id: string;
	name: string;
	questions: FormQuestion[];
	calculations?: Array<NamedField & { type?: string }>;
	urlParameters?: NamedField[];
	scheduling?: NamedField[];
	payments?: NamedField[];
	quiz?: { enabled?: boolean };
}

export interface AnsweredField extends IDataObject {
	id: string;
	name: string;
	type?: string;
	value?: IDataObject[keyof IDataObject];
}

export interface Submission extends IDataObject {
	submissionId: string;
	submissionTime: string;
	lastUpdatedAt?: string;
	questions?: AnsweredField[];
	calculations?: AnsweredField[];
	urlParameters?: AnsweredField[];
	scheduling?: AnsweredField[];
	payments?: AnsweredField[];
	quiz?: { score?: number; maxScore?: number };
	login?: { email?: string };
	editLink?: string;
}

export interface SubmissionPage extends IDataObject {
	responses: Submission[];
	totalResponses: number;
	pageCount?: number;
}
