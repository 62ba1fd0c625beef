import { availableParallelism } from 'node:os';
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
    // One test file per core (vitest's default leaves one core free): each file has its own
    // database (test/support/db.ts) and ports, its Redis keys and channels carry its own random
    // ids, and most of a file's time is its own CPU (importing the app, rendering, hashing), so
    // on CI's 2 cores the suite takes about half as long (bench/RESULTS.md, 2026-11-29).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
