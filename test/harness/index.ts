/**
 * In-process n8n test harness: runs our nodes inside n8n-core's real engine.
 *
 * Importing this module first sets up a temp N8N_USER_FOLDER for the test file; a test
 * that imports n8n-core some other way first should `import '../harness/setupUserFolder'`
 * before anything else.
 */
import './setupUserFolder';

export {
	DEFAULT_INSTANCE_URL,
	createAdditionalData,
	type AdditionalDataOptions,
} from './additionalData';
export {
	OAUTH2_CREDENTIAL_TEST_FAILED,
	OAUTH2_CREDENTIAL_TEST_SUCCEEDED,
	testCredential,
	type CredentialTestOptions,
} from './credentialTest';
export {
	HarnessCredentialsHelper,
	OAuth2ApiBase,
	defaultCredentialTypes,
	type HarnessCredentialsHelperOptions,
	type RecordedCredentialWrite,
} from './credentials';
export {
	callListSearch,
	callLoadOptions,
	callResourceMapping,
	type ListSearchCallOptions,
	type MethodCallOptions,
} from './methods';
export {
	HarnessItemsSource,
	HarnessManualTrigger,
	HarnessNodeTypes,
	PACKAGE_NAME,
	nodeTypeName,
	type NodeTypeLike,
} from './nodeTypes';
export {
	closedPortUrl,
	startRecordingServer,
	useRecordingServer,
	type RecordedRequest,
	type RecordingServer,
	type RequestHandler,
	type ServerReply,
} from './recordingServer';
export { runNode, type RunNodeOptions, type RunNodeResult } from './runNode';
export {
	runWorkflow,
	type RunWorkflowOptions,
	type RunWorkflowResult,
	type SavedWorkflow,
} from './runWorkflow';
export { type HarnessBaseOptions, nodeCredentialsFor } from './setup';
export { PollHarness, createPollHarness, type PollHarnessOptions, type PollResult } from './polls';
export {
	DEFAULT_WEBHOOK_ID,
	TriggerHarness,
	createFakeResponse,
	createTriggerHarness,
	type HookCallOptions,
	type ReceiveOptions,
	type RecordedResponse,
	type TriggerHarnessOptions,
	type WebhookCallResult,
	type WebhookRequestInit,
} from './webhooks';
export {
	runAsWorker,
	type WorkerExecutionOptions,
	type WorkerExecutionResult,
} from './workerExecution';
