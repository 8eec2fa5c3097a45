/**
 * Tests run TypeScript through ts-jest in transpile-only mode (fast, no type-check per file);
 * `npm test` type-checks the whole project with tsc first. ts-jest is pure JavaScript, so a
 * clean `npm ci` needs no platform-specific binaries.
 *
 * Two tiers (`npm test` runs both), told apart by the file name alone:
 * - e2e, files named `*.e2e.test.ts` (`npm run test:e2e`): whatever needs the build (dist/), the
 *   built `ncalc` or provider as processes, real terraform, npm pack, packed installs, examples;
 * - unit, every other `*.test.ts` (`npm run test:unit`): no build needed, passes on a fresh
 *   clone after `npm ci`: the emulator over fastify inject() or a socket on 127.0.0.1, the
 *   client, the model, the constructs, the reconciler's logic; a child process runs the
 *   sources through tsx, never dist/.
 */
// Nothing of a test run stays in the temporary directory: no tsx transform cache for what the
// suites run through tsx, no compile cache of Node 22, and jest's own cache under node_modules.
process.env.TSX_DISABLE_CACHE ??= '1';
process.env.NODE_DISABLE_COMPILE_CACHE ??= '1';

const common = {
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: {
          isolatedModules: true,
          module: 'commonjs',
          target: 'es2022',
          esModuleInterop: true,
          resolveJsonModule: true,
        },
      },
    ],
  },
  // Examples import the package by name, as users do.
  moduleNameMapper: { '^cdktf-provider-networkcalc$': '<rootDir>/src' },
};

/** The tier of a suite is its file name: `*.e2e.test.ts` is e2e, every other `*.test.ts` unit. */
const E2E = '\\.e2e\\.test\\.ts$';

module.exports = {
  testTimeout: 30000,
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  // Servers and terraform are real; two cores on CI machines.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testRegex: '/test/.*\\.test\\.ts$',
      testPathIgnorePatterns: ['/node_modules/', E2E],
    },
    { ...common, displayName: 'e2e', testRegex: `/test/.*${E2E}` },
  ],
};
