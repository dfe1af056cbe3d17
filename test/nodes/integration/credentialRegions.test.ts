/**
 * The API key credential's test request goes where the node's requests go, for every
 * region it offers: both follow the region map of transport/apiRoot.ts.
 */
import type {
	ICredentialDataDecryptedObject,
	IHttpRequestOptions,
	INodePropertyOptions,
	IRequestOptionsSimplified,
} from 'n8n-workflow';

import { FilloutFormsApi } from '../../../credentials/FilloutFormsApi.credentials';
import { apiRootForRegion, REGION_HOSTS } from '../../../nodes/Fillout/transport/apiRoot';
import { HarnessCredentialsHelper, testCredential } from '../../harness';

/** Records where n8n sends the credential test and sends nothing (the regions are live hosts). */
class AddressRecorder extends HarnessCredentialsHelper {
	readonly requests: Array<{ baseURL?: string; url: string }> = [];

	async authenticate(
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		options: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const { baseURL, url } = options as IHttpRequestOptions;
		this.requests.push({ baseURL, url });
		throw new Error('Recorded, not sent');
	}
}

/** Where the editor's "Test" button sends the credential's test request. */
async function testRequestOf(credentials: ICredentialDataDecryptedObject) {
	const recorder = new AddressRecorder();
	const result = await testCredential('filloutFormsApi', credentials, {
		credentialsHelper: recorder,
	});
	expect(result).toEqual({ status: 'Error', message: 'Recorded, not sent' });
	expect(recorder.requests).toHaveLength(1);
	return recorder.requests[0];
}

const offeredRegions = (
	new FilloutFormsApi().properties.find((property) => property.name === 'region')
		?.options as INodePropertyOptions[]
).map((option) => option.value as string);

describe('API key credential: the test request for each region', () => {
	it('the credential offers every region of the map, and Custom', () => {
		expect(offeredRegions.sort()).toEqual([...Object.keys(REGION_HOSTS), 'custom'].sort());
	});

	it.each(Object.keys(REGION_HOSTS))(
		'%s: the region’s API root, as every request of the node',
		async (region) => {
			expect(await testRequestOf({ apiKey: 'sk_prod_x', region })).toEqual({
				baseURL: apiRootForRegion(region, undefined),
				url: '/forms',
			});
		},
	);

	it.each([
		'https://fillout.example.com',
		'https://fillout.example.com/v1/api',
		' https://fillout.example.com/v1/api/ \n',
		'http://127.0.0.1:8080/',
		'https://fillout.example.com/eu',
	])('custom Base URL %j: the same API root as the node’s requests', async (baseUrl) => {
		expect(await testRequestOf({ apiKey: 'sk_prod_x', region: 'custom', baseUrl })).toEqual({
			baseURL: apiRootForRegion('custom', baseUrl),
			url: '/forms',
		});
	});
});
