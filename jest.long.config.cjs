// CommonJS like jest.config.cjs, which it extends
// eslint-disable-next-line @typescript-eslint/no-require-imports
const base = require('./jest.config.cjs');

/** `npm run test:long`: only the long suites (`*.long.test.ts` under `test/`), one at a time; `npm test` skips them. */
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/**/*.long.test.ts'],
  testPathIgnorePatterns: base.testPathIgnorePatterns.filter((pattern) => !pattern.includes('long')),
  maxWorkers: 1,
  testTimeout: 15 * 60_000,
};
