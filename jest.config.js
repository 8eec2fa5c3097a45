/**
 * Tests run TypeScript through ts-jest in transpile-only mode (fast, no type-check per file);
 * `npm test` type-checks the whole project with tsc first. ts-jest is pure JavaScript, so a
 * clean `npm ci` needs no platform-specific binaries.
 *
 * Two tiers (`npm test` runs both):
 * - unit (`npm run test:unit`): in-process, no build needed: the emulator over fastify inject()
 *   or a socket on 127.0.0.1, the client, the model, the constructs, the reconciler's logic;
 * - e2e: the built `ncalc` and provider as processes, real terraform, packed installs, examples.
 */
// Nothing of a test run stays in the temporary directory: no tsx transform cache for the apps
// the e2e suites run, no compile cache of Node 22, and jest's own cache under node_modules.
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

/** Suites that start built processes, terraform or npm: the e2e tier (regular expressions on the path). */
const E2E = [
  '\\.e2e\\.test\\.ts$',
  '/test/package/.*\\.test\\.ts$',
  '/test/examples/.*\\.test\\.ts$',
  '/test/cli/tour\\.test\\.ts$',
  '/test/emulator/cli\\.test\\.ts$',
  '/test/provider/process\\.test\\.ts$',
  '/test/provider/provider-install\\.test\\.ts$',
  '/test/provider/tls-handshake\\.test\\.ts$',
];

module.exports = {
  testTimeout: 30000,
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  // Servers and terraform are real; two cores on CI machines.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testRegex: ['/test/.*\\.test\\.ts$'],
      testPathIgnorePatterns: ['/node_modules/', ...E2E],
    },
    { ...common, displayName: 'e2e', testRegex: E2E },
  ],
};
