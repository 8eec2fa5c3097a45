/** Tests run TypeScript through swc (fast, no type-check); `npm test` type-checks first with tsc. */
const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' } }] };
module.exports = {
  testEnvironment: 'node',
  transform,
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // Examples import the package by name, as users do.
  moduleNameMapper: { '^cdktf-provider-networkcalc$': '<rootDir>/src' },
  // Servers and terraform are real; two cores on CI machines.
  maxWorkers: 2,
};
