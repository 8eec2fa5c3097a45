/**
 * Tests run TypeScript through ts-jest in transpile-only mode (fast, no type-check per file);
 * `npm test` type-checks the whole project with tsc first. ts-jest is pure JavaScript, so a
 * clean `npm ci` needs no platform-specific binaries.
 */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: { isolatedModules: true, module: 'commonjs', target: 'es2022', esModuleInterop: true, resolveJsonModule: true } }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // Examples import the package by name, as users do.
  moduleNameMapper: { '^cdktf-provider-networkcalc$': '<rootDir>/src' },
  // Servers and terraform are real; two cores on CI machines.
  maxWorkers: 2,
};
