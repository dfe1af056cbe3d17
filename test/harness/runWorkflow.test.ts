import { runWorkflow, useRecordingServer, type SavedWorkflow } from './index';

import { HarnessProbe } from './fixtures/HarnessProbe.node';

const server = useRecordingServer(() => ({ status: 200, body: { ok: true } }));

/** Manual Trigger → two probes in a row, as the editor saves it. */
const workflow = (pinned?: SavedWorkflow['pinData']): SavedWorkflow => ({
	nodes: [
		{
			id: '1',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		...['First', 'Second'].map((name, i) => ({
			id: `${i + 2}`,
			name,
			type: 'n8n-nodes-fillout-forms.harnessProbe',
			typeVersion: 2,
			position: [200 * (i + 1), 0] as [number, number],
			parameters: { path: `/${name.toLowerCase()}` },
			credentials: { filloutFormsApi: { id: 'saved-id', name: 'Saved credential' } },
		})),
	],
	connections: {
		Start: { main: [[{ node: 'First', type: 'main', index: 0 }]] },
		First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	pinData: pinned,
});

const credentials = () => ({
	filloutFormsApi: { apiKey: 'sk_prod_key', region: 'custom', baseUrl: server.url },
});

describe('runWorkflow', () => {
	it('runs every node from the Manual Trigger, with the saved credential reference', async () => {
		const result = await runWorkflow({
			workflow: workflow(),
			nodeTypes: [HarnessProbe],
			credentials: credentials(),
		});
		expect(server.requests.map((request) => request.path)).toEqual(['/first', '/second']);
		expect(result.outputOf('Second')).toHaveLength(1);
		expect(result.errorOf('Second')).toBeUndefined();
		expect(result.outputOf('Nowhere')).toEqual([]);
	});

	it('pinned data stands in for the node it is pinned on', async () => {
		const result = await runWorkflow({
			workflow: workflow({ Start: [{ json: { row: 1 } }, { json: { row: 2 } }] }),
			nodeTypes: [HarnessProbe],
			credentials: credentials(),
		});
		expect(result.outputOf('First').map((item) => item.json.input)).toEqual([
			{ row: 1 },
			{ row: 2 },
		]);
	});
});
