import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

/**
 * What the node's transport asks of n8n: the node with its credential (the id keys the
 * pacing, so each id has a pacer of its own), the credential, and the request helper,
 * which `answer` stands in for. `more` adds to it (an execution's cancel signal).
 */
export function transportContext(
	credentialId: string,
	answer: (options: IHttpRequestOptions) => Promise<unknown>,
	more: object = {},
): IExecuteFunctions {
	return {
		getNode: () => ({
			name: 'Fillout',
			type: 'n8n-nodes-fillout-forms.fillout',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { filloutFormsApi: { id: credentialId, name: credentialId } },
		}),
		getCredentials: async () => ({ apiKey: 'secret', region: 'us' }),
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await answer(options),
		},
		...more,
	} as unknown as IExecuteFunctions;
}
