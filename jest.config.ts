/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// Two projects: the unit and integration suite (jest + supertest, each test file on its own
// fresh database cloned from one migrated snapshot), and the browser tests (Playwright with
// Debian's chromium; they report themselves skipped when chromium is not installed).
const swc: Config['transform'] = {
  '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, target: 'es2022', transform: { react: { runtime: 'automatic' } } }, module: { type: 'commonjs' } }],
};

const config: Config = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  maxWorkers: 2,
  // Per-project testTimeout is not honoured for hooks; a shared machine can be slow to open a
  // database in beforeAll, so the whole run gets a generous default.
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/shared', '<rootDir>/scripts', '<rootDir>/migrations', '<rootDir>/test'],
      testMatch: ['**/*.test.ts'],
      // `*.postgres.test.ts` need a PostgreSQL server (terminating its backends, cutting the
      // connection to it), so they belong to the run with TEST_DATABASE_URL only.
      testPathIgnorePatterns: process.env.TEST_DATABASE_URL ? ['/node_modules/'] : ['/node_modules/', '\\.postgres\\.test\\.ts$'],
      transform: swc,
      moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
      testTimeout: 30_000,
    },
    {
      displayName: 'islands',
      testEnvironment: 'jsdom',
      roots: ['<rootDir>/islands'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: swc,
      moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
      testTimeout: 15_000,
    },
    {
      displayName: 'browser',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/browser'],
      testMatch: ['**/*.browser.ts'],
      transform: swc,
      moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
      testTimeout: 60_000,
    },
  ],
};

export default config;
