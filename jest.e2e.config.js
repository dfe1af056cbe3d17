/**
 * End-to-end suite: a real n8n (installed once into a cache outside the clone) with the
 * packed package installed as a community package, against the local Fillout sandbox.
 * One n8n for all files, so run in band: `npm run test:e2e`.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	// The queue-mode tier has its own cluster and config (jest.queue.config.js).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/queue/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/setup/globalTeardown.ts',
	testTimeout: 120000,
	maxWorkers: 1,
};
