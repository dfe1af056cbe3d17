/**
 * The queue-mode tier: n8n 2.41.1 as one main, two workers and one webhook processor on
 * Postgres and Redis, with the packed package, against the sandbox. One cluster for all
 * files, so run in band; `npm run test:e2e` runs it as its "queue mode" leg.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e/queue'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/queue/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/test/e2e/queue/setup/globalTeardown.ts',
	testTimeout: 240000,
	maxWorkers: 1,
};
