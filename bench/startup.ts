// bench:startup: start-up time (spawn to the "listening" log line) and idle memory (RSS of the
// whole process tree, 3 s after listening) of the service run from source through tsx and run
// compiled with plain node (`npm start`), alternating, on one SQLite file migrated beforehand.
// Usage: npm run bench:startup [-- --runs 5]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { processTree } from '../test/support/process-tree.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);

const WAYS = {
  'tsx src/main.ts (before)': [process.execPath, join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/main.ts'],
  'node dist/server/src/main.js (npm start)': [process.execPath, '--enable-source-maps', 'dist/server/src/main.js'],
} as const;

/** RSS of a process and its descendants (tsx's command starts a second node), in MiB. */
const treeRssMiB = (root: number): number =>
  processTree(root).reduce(
    (sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    0,
  );

async function measure(
  command: readonly string[],
  env: Record<string, string>,
): Promise<{ ms: number; rssMiB: number }> {
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('"msg":"listening"')) resolve();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', () => reject(new Error(`exited before listening:\n${output}`)));
  });
  const ms = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const rssMiB = treeRssMiB(child.pid!);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  return { ms, rssMiB };
}

const dir = mkdtempSync(join(tmpdir(), 'qr-startup-'));
const env = {
  PORT: '0',
  LOG_LEVEL: 'info',
  DATABASE_URL: `sqlite:${join(dir, 'qr.sqlite')}`,
  OAUTH_KEYS_FILE: join(dir, 'oauth-keys.json'),
};
try {
  // A first start migrates the file and writes the key file; it is not counted.
  await measure(WAYS['node dist/server/src/main.js (npm start)'], env);
  const results = new Map<string, { ms: number; rssMiB: number }[]>(Object.keys(WAYS).map((way) => [way, []]));
  for (let run = 0; run < RUNS; run++)
    for (const [way, command] of Object.entries(WAYS)) results.get(way)!.push(await measure(command, env));
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const [way, runs] of results) {
    console.log(
      `${way}: start ${median(runs.map((r) => r.ms)).toFixed(0)} ms, idle RSS ` +
        `${median(runs.map((r) => r.rssMiB)).toFixed(0)} MiB (median of ${runs.length})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
