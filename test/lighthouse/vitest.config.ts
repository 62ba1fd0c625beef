// The Lighthouse suite: the dashboard's scores over a signed-in user flow. Not part of `npm test`
// (its include, test/**/*.test.ts, does not match *.lighthouse.ts): Lighthouse's performance
// score scales with the CPU time the page's tasks take, so .ci/run runs it alone, after the other
// suites, where no other test file competes for the cores. Run: npm run test:lighthouse
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

export default defineConfig({
  // The same module resolution as npm test's (one copy of graphql), for the app it starts.
  resolve: base.resolve,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/lighthouse/**/*.lighthouse.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
