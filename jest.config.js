/**
 * Tests run TypeScript through ts-jest in transpile-only mode (fast, no type-check per file);
 * `npm test` type-checks the whole project with tsc first. ts-jest is pure JavaScript, so a
 * clean `npm ci` needs no platform-specific binaries.
 *
 * Four tiers, told apart by the file name alone. `npm test` runs the first three, one after the
 * other, and each prints its duration at its end (test/helpers/tier-duration.js):
 * - unit, every `*.test.ts` not named below (`npm run test:unit`): no build, no sockets held for
 *   long, no child processes; passes on a fresh clone after `npm ci`, in about a minute on two
 *   busy cores: the model, the plan, the emulator over fastify inject() (or briefly on
 *   127.0.0.1), the client, the constructs, the reconciler's logic, the renderers;
 * - integration, files named `*.int.test.ts` (`npm run test:integration`): no build either, but
 *   real servers driven for seconds (faults, latency, retries, rate limits), child processes
 *   running the sources through tsx (never dist/), generated bindings, the journal under kills,
 *   data files reopened, local DNS and TLS servers, runs over 200,000 alerts;
 * - e2e, files named `*.e2e.test.ts` (`npm run test:e2e`): whatever needs the build (dist/), the
 *   built `ncalc` or provider as processes, real terraform, npm pack;
 * - compat, files named `*.compat.test.ts` (`npm run test:compat`, not part of `npm test`):
 *   what installs packages from the registry at test time (the packed tarball into fresh cdktn
 *   and cdktf apps, their CLIs, other TypeScript compilers), with the npm cache in `.cache/npm`.
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
  // The jsii staging manifest, and the staged package jsii/build.js makes in jsii/.build, have the
  // package's name too: jest's module map would warn of the collision in every tier ("Haste
  // module naming collision"). No test imports them.
  modulePathIgnorePatterns: ['<rootDir>/jsii/package\\.json$', '<rootDir>/jsii/\\.build/'],
};

/** The tier of a suite is its file name (see above). */
const TIERS = { integration: '\\.int\\.test\\.ts$', e2e: '\\.e2e\\.test\\.ts$', compat: '\\.compat\\.test\\.ts$' };

module.exports = {
  testTimeout: 30000,
  globalTeardown: '<rootDir>/test/helpers/global-teardown.js',
  reporters: ['default', '<rootDir>/test/helpers/tier-duration.js'],
  // Servers and terraform are real; two cores on CI machines. The e2e tier runs three workers
  // (package.json): its suites wait on terraform, latency and child processes for about a third
  // of their time, which a third worker fills.
  // Once a run is over jest gives each worker 500 ms to exit, then kills it and prints "A worker
  // process has failed to exit gracefully". A worker of these tiers ends with no handle open
  // (`--detectOpenHandles --runInBand` lists none) but with 400-700 MB of memory: one module
  // registry per suite and a WebAssembly memory of undici's parser per suite that used HTTP,
  // which V8 has not collected yet. Handing that back takes 0.3-0.5 s on idle cores and more
  // when they are busy, so on a loaded machine the message comes from that, not from a leak.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testRegex: '/test/.*\\.test\\.ts$',
      testPathIgnorePatterns: ['/node_modules/', ...Object.values(TIERS)],
    },
    ...Object.entries(TIERS).map(([tier, pattern]) => ({
      ...common,
      displayName: tier,
      testRegex: `/test/.*${pattern}`,
    })),
  ],
};
