// Runs the real entry points (src/main.ts, src/cli.ts) as child processes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { journalDirFor } from './journal.ts';
import { processTree } from './process-tree.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `tree`: the checkout to run, this one unless a benchmark compares with another. */
function nodeWithTsx(script: string, args: string[], env: Record<string, string>, tree = ROOT): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: tree,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The newest modification time of the files under `folder`, recursively. */
function newestChange(folder: string): number {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs), 0);
}

/**
 * `npm start` runs the compiled service (dist/server): compiles it first when a source file
 * changed since the last build, so a test of `npm start` never runs stale code.
 */
function ensureServerBuilt(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/server/src/main.js')).mtimeMs;
  } catch {
    // Not built yet.
  }
  if (built > Math.max(newestChange(join(ROOT, 'src')), newestChange(join(ROOT, 'migrations')))) return;
  execFileSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
}

/**
 * `npm start` as a user runs it, in `folder` (this checkout, or a folder that links to its
 * package.json and builds): the environment without what the test runner adds (vitest sets
 * NODE_ENV=test), plus `env`.
 */
function npmStart(env: Record<string, string>, folder = ROOT): ChildProcess {
  ensureServerBuilt();
  const { NODE_ENV: _runner, ...inherited } = process.env;
  return spawn('npm', ['start', '--silent'], {
    cwd: folder,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The exit code and output of a child started with piped stdout and stderr. */
async function outcome(child: ChildProcess): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const [code] = await once(child, 'exit');
  return { code: code as number, stdout, stderr };
}

export function runCli(args: string[], env: Record<string, string>, tree?: string) {
  return outcome(nodeWithTsx('src/cli.ts', args, env, tree));
}

/** `npm run migrate` as an operator runs it: the compiled CLI (built first when stale). */
export function npmRunMigrate(env: Record<string, string>) {
  ensureServerBuilt();
  return outcome(spawn('npm', ['run', '--silent', 'migrate'], { cwd: ROOT, env: { ...process.env, ...env } }));
}

/** A new key of `account` (created when new) made by the CLI on `databaseUrl`, as an operator would. */
export async function cliKey(databaseUrl: string, account: string): Promise<string> {
  const res = await runCli(['keys', 'create', '--account', account], { DATABASE_URL: databaseUrl });
  if (res.code !== 0) throw new Error(`keys create exited ${res.code}: ${res.stderr}`);
  return res.stdout.trim().split('\n').at(-1)!;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  logs: () => string;
  exited: Promise<number | null>;
  /** The command lines of the child and its own children (npm start runs node under a shell). */
  commandLine: () => string;
  /**
   * Resolves with the first match of `pattern` in the output so far or to come; rejects after `timeoutMs` or when the
   * process exits first.
   */
  waitForLog: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
}

/** The command lines of a process and its descendants, from /proc. */
function commandLines(root: number): string {
  return processTree(root)
    .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))
    .join('\n');
}

/** How long a start may take: tsx compiling the service on a machine busy with other suites takes over 20 s. */
const START_TIMEOUT_MS = 60_000;

/**
 * Starts src/main.ts (or, with `via: 'npm start'`, the documented command) on a free port and
 * resolves once it logs that it listens. `tree`: the checkout of src/main.ts, or the folder to
 * run `npm start` in.
 */
export async function startServer(
  env: Record<string, string>,
  tree?: string,
  via: 'node' | 'npm start' = 'node',
): Promise<ServerProcess> {
  const databaseUrl = env.DATABASE_URL ?? process.env.DATABASE_URL ?? 'sqlite:./data/qr.sqlite';
  const serverEnv = { PORT: '0', LOG_LEVEL: 'info', SCAN_JOURNAL_DIR: journalDirFor(databaseUrl), ...env };
  const child = via === 'npm start' ? npmStart(serverEnv, tree) : nodeWithTsx('src/main.ts', [], serverEnv, tree);
  let output = '';
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const waiters = new Set<() => void>();
  const append = (d: Buffer) => {
    output += d;
    waiters.forEach((check) => check());
  };
  const waitForLog = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const stop = (settle: () => void) => {
        waiters.delete(check);
        clearTimeout(timer);
        settle();
      };
      const check = () => {
        const match = pattern.exec(output);
        if (match) stop(() => resolve(match));
      };
      const timer = setTimeout(
        () => stop(() => reject(new Error(`no ${pattern} in the output within ${timeoutMs} ms:\n${output}`))),
        timeoutMs,
      );
      void exited.then(() => {
        check();
        if (waiters.has(check)) stop(() => reject(new Error(`exited without ${pattern} in the output:\n${output}`)));
      });
      waiters.add(check);
      check();
    });
  const url = await new Promise<string>((resolve, reject) => {
    // A start that timed out is killed with everything under it: nothing else would stop it.
    const timer = setTimeout(() => {
      for (const pid of processTree(child.pid!).reverse()) signalIfAlive(pid, 'SIGKILL');
      reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr!.on('data', append);
    child.stdout!.on('data', (d) => {
      append(d);
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(() => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, url, logs: () => output, exited, commandLine: () => commandLines(child.pid!), waitForLog };
}

/**
 * Stops a server and every process under it with SIGTERM, and waits until all are gone: `npm
 * start` does not pass the signal on to the node it runs, which would outlive the test.
 */
export async function stopServerTree(server: ServerProcess): Promise<void> {
  const pids = processTree(server.child.pid!).reverse();
  for (const pid of pids) signalIfAlive(pid, 'SIGTERM');
  await server.exited;
  const deadline = Date.now() + 15_000;
  while (pids.some((pid) => signalIfAlive(pid, 0))) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.join(', ')} still run 15 s after SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends `signal` (0: none, only the check) and answers whether the process was there to get it. */
function signalIfAlive(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * An API call to a server process with `key`: status, headers, the parsed JSON body, and as text
 * the body with the server's error log lines after it (a 500 says why in the log, not the answer).
 */
export async function callServer(server: ServerProcess, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  // A 500 says why in the server's log, not in the answer.
  const logged =
    res.status >= 500
      ? server
          .logs()
          .split('\n')
          .filter((line) => line.includes('"level":50'))
      : [];
  return { status: res.status, headers: res.headers, body: parsed, text: [text, ...logged].join('\n') };
}
