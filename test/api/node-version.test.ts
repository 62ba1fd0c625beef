// The front door on a Node the project does not support: `npm install` refuses (engine-strict),
// and `npm start`, the CLI and `npm test` say in one line what is wrong and exit 1 before
// anything native loads (on Node 20 the service otherwise dies with a bare "Segmentation fault").
// The old Node is the machine's own /usr/bin/node (Debian's Node 20 here and on CI's image),
// run as a user would, with a plain PATH and no scripts/use-node.sh.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines;
const SYSTEM_NODE = '/usr/bin/node';
const SUPPORTED_MAJORS = [24, 26];

function majorOf(version: string): number {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

/** /usr/bin/node's version when it is there and is not a supported Node, else null (the tests below skip). */
function oldSystemNode(): string | null {
  if (!existsSync(SYSTEM_NODE)) return null;
  const version = execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim();
  return SUPPORTED_MAJORS.includes(majorOf(version)) ? null : version.slice(1);
}

const oldNode = oldSystemNode();
const work = mkdtempSync(join(tmpdir(), 'qr-node-version-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `command` in `cwd` with only the system's PATH: `node` and npm's `env node` are /usr/bin/node. */
async function plain(command: string, args: string[], cwd = ROOT) {
  const child = spawn(command, args, {
    cwd,
    env: { HOME: process.env.HOME!, PATH: '/usr/bin:/bin', DATABASE_URL: `sqlite:${join(work, 'never.sqlite')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code, signal] = await once(child, 'exit');
  return { code: code as number | null, signal: signal as string | null, stdout, stderr };
}

describe('the supported range', () => {
  it('is Node 24 and 26 in package.json, enforced by .npmrc', () => {
    expect(engines.node).toBe('^24.0.0 || ^26.0.0');
    expect(readFileSync(join(ROOT, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
  });

  it('lets the Node running these tests through, saying nothing', () => {
    expect(SUPPORTED_MAJORS).toContain(majorOf(process.version));
    const out = execFileSync(process.execPath, ['scripts/check-node.cjs'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toBe('');
  });
});

describe.skipIf(oldNode === null)(`under ${SYSTEM_NODE} (${oldNode ?? 'absent or supported: skipped'})`, () => {
  const refusal = new RegExp(
    `^qr-service needs Node 24 or 26 \\(package.json engines: \\^24\\.0\\.0 \\|\\| \\^26\\.0\\.0\\), ` +
      `and this is Node ${oldNode?.replaceAll('.', '\\.')} \\(/usr/bin/node\\): ` +
      'run `source scripts/use-node.sh 24` in this shell, then the command again\\.\\n$',
  );

  it.each([
    ['npm start', ['start', '--silent']],
    ['npm run cli', ['run', '--silent', 'cli', '--', 'keys', 'create', '--account', 'acme']],
    ['npm run migrate', ['run', '--silent', 'migrate']],
    ['npm test', ['test', '--silent']],
  ])('%s: one line naming the Node found, the supported ones and the fix; exit 1', async (_name, args) => {
    const res = await plain('npm', args);
    expect(res.signal).toBeNull();
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(refusal);
    expect(res.stdout).toBe('');
  });

  it("the README's key capture fails instead of leaving an empty key", async () => {
    const res = await plain('bash', [
      '-c',
      'KEY=$(npm run --silent cli -- keys create --account acme); echo "$?:$KEY"',
    ]);
    expect(res.stdout).toBe('1:\n');
    expect(res.stderr).toMatch(refusal);
  });

  it('npm ci refuses (EBADENGINE) and installs nothing', async () => {
    // A copy of the files npm reads, so a refusal that came too late could not touch this checkout.
    const project = mkdtempSync(join(work, 'install-'));
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      copyFileSync(join(ROOT, file), join(project, file));
    const res = await plain('npm', ['ci', '--no-audit', '--no-fund'], project);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('npm error code EBADENGINE');
    expect(res.stderr).toContain(`Required: {"node":"${engines.node}"}`);
    expect(res.stderr).toContain(`"node":"v${oldNode}"`);
    expect(existsSync(join(project, 'node_modules'))).toBe(false);
  });
});
