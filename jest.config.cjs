const swc = JSON.parse(require('node:fs').readFileSync(__dirname + '/.swcrc', 'utf8'));

/** Long suites (`*.long.test.ts`, e.g. sustained load) run only with `npm run test:long` (jest.long.config.cjs). */
const LONG_SUITES = '\\.long\\.test\\.ts$';

/** Jest runs under --experimental-vm-modules (MikroORM 7 and pg-boss are ESM-only); see STACK.md. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/scratch/', '/.data/', LONG_SUITES],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }] },
  transformIgnorePatterns: ['/node_modules/'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  setupFilesAfterEnv: ['<rootDir>/test/support/cleanup.ts'],
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  reporters: ['default', '<rootDir>/test/support/slowest-suites.cjs'],
  testTimeout: 60_000,
  maxWorkers: 2,
};
