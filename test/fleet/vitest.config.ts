// The fleet test: a three-node Galera cluster, HAProxy and two service processes.
// Minutes long and heavy, so not part of `npm test`, whose include (test/**/*.test.ts) does not
// match *.fleet.ts. Run: npx vitest run --config test/fleet/vitest.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/fleet/**/*.fleet.ts'],
    pool: 'forks',
    // One file, steps in order, each depending on the one before.
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
