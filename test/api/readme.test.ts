// The README's "A first code" runs as written, so it cannot drift from the service: its shell
// blocks go to bash command by command, unchanged, against `npm start` with no configuration
// in a fresh folder, and each command must print what the README's comment under it (or after
// it on its line) shows, `…` standing for anything; a command with no such comment must print
// nothing. The README says localhost:3000: curl is pointed from there to the test's port by a
// .curlrc (`connect-to`), so the commands stay as they are and no fixed port is taken.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fencedBlocks } from '../support/markdown.ts';
import { startServer, stopServerTree } from '../support/process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECTION = 'A first code';

interface Step {
  command: string;
  /** What the README shows the command printing, or null: it prints nothing. */
  shown: string | null;
}

/** Where a shell comment starts on `line` (a `#` at the start of a word, outside quotes), or -1. */
function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return i;
  }
  return -1;
}

/** The commands of a block (continued lines joined) with the output each comment shows. */
function steps(code: string): Step[] {
  const found: Step[] = [];
  let pending: string[] = [];
  for (const line of code.split('\n')) {
    if (pending.length === 0 && line.trim() === '') continue;
    if (pending.length === 0 && line.trimStart().startsWith('#')) {
      const last = found.at(-1);
      if (!last || last.shown !== null) throw new Error(`a comment the README shows as no command's output: ${line}`);
      last.shown = line.trimStart().replace(/^#\s?/, '');
      continue;
    }
    pending.push(line);
    if (line.endsWith('\\')) continue;
    const hash = commentStart(line);
    found.push({ command: pending.join('\n'), shown: hash === -1 ? null : line.slice(hash).replace(/^#\s?/, '') });
    pending = [];
  }
  return found;
}

/** `shown` as a whole-output pattern: its text literally, each `…` any run of characters. */
function pattern(shown: string): RegExp {
  const literal = shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('.*')}$`, 's');
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const blocks = fencedBlocks(readme).filter((block) => block.heading === SECTION && block.lang === 'sh');
const work = mkdtempSync(join(tmpdir(), 'qr-readme-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe(`README, "${SECTION}"`, () => {
  it('has a shell block whose every comment is an output to compare', () => {
    expect(blocks.length).toBeGreaterThan(0);
    const all = blocks.flatMap((block) => steps(block.code));
    expect(all.filter((step) => step.shown !== null).length).toBeGreaterThanOrEqual(3);
  });

  it('runs as written against npm start in a fresh folder and prints what it shows', { timeout: 180_000 }, async () => {
    // The checkout as the user's folder: its data/, code.json and spring.png land in `work`.
    for (const entry of ['package.json', 'node_modules', 'dist', 'scripts'])
      symlinkSync(join(ROOT, entry), join(work, entry));
    // DATABASE_URL as its default: the runner's own (MariaDB in CI's second run) must not reach
    // the service or the CLI. PUBLIC_BASE_URL as the default is on port 3000.
    const env = { DATABASE_URL: 'sqlite:./data/qr.sqlite', PUBLIC_BASE_URL: 'http://127.0.0.1:3000' };
    const server = await startServer(env, work, 'npm start');
    try {
      const port = new URL(server.url).port;
      writeFileSync(join(work, '.curlrc'), `connect-to = localhost:3000:127.0.0.1:${port}\n`);
      const all = blocks.flatMap((block) => steps(block.code));
      // One bash for the whole block (KEY and ID carry over); each command's stdout to a file of its own.
      const script = ['set -euo pipefail', ...all.map((step, i) => `{\n${step.command}\n} > .step-${i}`)].join('\n');
      const { NODE_ENV: _runner, ...inherited } = process.env;
      const bash = spawn('bash', ['-c', script], {
        cwd: work,
        env: { ...inherited, ...env, CURL_HOME: work },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      bash.stderr.on('data', (d) => (stderr += d));
      const [code] = await once(bash, 'exit');
      all.forEach((step, i) => {
        let printed: string;
        try {
          printed = readFileSync(join(work, `.step-${i}`), 'utf8').replace(/\n$/, '');
        } catch {
          throw new Error(`the block stopped before \`${step.command}\` (exit ${code}):\n${stderr}`);
        }
        if (step.shown === null) expect(printed, `\`${step.command}\` prints nothing`).toBe('');
        else expect(printed, `\`${step.command}\` prints what the README shows`).toMatch(pattern(step.shown));
      });
      expect(code, stderr).toBe(0);
      // The image the block saved is a PNG.
      expect(readFileSync(join(work, 'spring.png')).subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    } finally {
      await stopServerTree(server);
    }
  });
});
