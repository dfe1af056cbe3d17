/**
 * Two tiers of the jest suite (test/README.md): `fast`, every `*.test.ts` that is not
 * `*.slow.test.ts` (`npm test`), and `slow`, the `*.slow.test.ts` files (`npm run test:all`
 * runs both). `npx jest <file>` runs a file of either tier. Type checking runs once in
 * `npm run typecheck`; jest only transpiles.
 */
const tier = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }],
	},
};

module.exports = {
	projects: [
		{
			...tier,
			displayName: 'fast',
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', '\\.slow\\.test\\.ts$'],
		},
		{ ...tier, displayName: 'slow', testMatch: ['**/*.slow.test.ts'] },
	],
	// The tests mostly wait on the sandbox's rate limit and timers, not on the CPU: one
	// worker per core (jest's default leaves one core idle).
	maxWorkers: '100%',
	testTimeout: 60000,
};
