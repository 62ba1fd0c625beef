import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module). Node loads the CJS one for every package,
  // Vite would pick the ESM one for our own files: two copies of graphql break instanceof
  // checks, so tests load the same file Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Adds up which operations of the OpenAPI document the contract tests exercised, and reports it.
    globalSetup: ['test/support/contract-coverage.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
