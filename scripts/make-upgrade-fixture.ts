// Makes the upgrade fixture of this release (test/fixtures/upgrade/<version>/<engine>/): a database filled through
// the running service as a user fills it (a key, codes with tags and routing rules, scans), taken
// with `cli backup`, and the API's answers about it (codes, each code, its analytics, the account
// overview, tags) recorded beside it. test/api/upgrade-fixture.test.ts restores each release's
// database, upgrades it with the checkout's migrations and expects the same answers; run this at
// each release to add its own fixture (docs/upgrading.md).
//
//   npx tsx scripts/make-upgrade-fixture.ts [--mysql mysql://root@127.0.0.1:3306]
//
// SQLite always; MySQL/MariaDB too with --mysql (a server on which it creates and drops a database).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/knex.ts';
import {
  callServer,
  cliKey,
  runCli,
  startServer,
  stopServerTree,
  type ServerProcess,
} from '../test/support/process.ts';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'test/fixtures/upgrade');
const BASE_URL = 'http://qr.test';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 ' +
  'Mobile/15E148 Safari/604.1';
const DESKTOP = (n: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.${n}.0 Safari/537.36`;

export interface UpgradeFixture {
  version: string;
  madeAt: string;
  lastMigration: string;
  key: string;
  /** GET path -> the JSON body answered (status 200). */
  answers: Record<string, unknown>;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function fill(databaseUrl: string, file: string): Promise<Omit<UpgradeFixture, 'version' | 'madeAt'>> {
  const key = await cliKey(databaseUrl, 'upgrade');
  const env = { DATABASE_URL: databaseUrl, PUBLIC_BASE_URL: BASE_URL };
  const server = await startServer(env);
  try {
    const on = async (serving: ServerProcess, method: string, path: string, body?: unknown) => {
      const res = await callServer(serving, key, method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const call = (method: string, path: string, body?: unknown) => on(server, method, path, body);
    await call('POST', '/v1/tags', { name: 'print', color: '#0055aa' });
    const poster = await call('POST', '/v1/codes', {
      content: 'https://example.com/poster',
      name: 'Poster',
      notes: 'the spring run',
      slug: 'poster',
      tags: ['print', 'spring'],
      routing: { rules: [{ condition: 'device:ios', destination: 'https://example.com/ios' }] },
    });
    const flyer = await call('POST', '/v1/codes', {
      content: 'https://example.com/flyer',
      name: 'Flyer',
      tags: ['print'],
      routing: { rules: [{ condition: 'language:de', destination: 'https://example.de/flyer' }] },
    });
    const card = await call('POST', '/v1/codes', { content: 'https://example.com/card', name: 'Card' });
    const scan = async (code: { scan_url: string }, userAgent: string, language = 'en') => {
      const res = await fetch(code.scan_url.replace(BASE_URL, server.url), {
        redirect: 'manual',
        headers: { 'user-agent': userAgent, 'accept-language': language },
      });
      if (res.status !== 302) throw new Error(`scan of ${code.scan_url}: ${res.status}`);
    };
    for (let i = 0; i < 3; i++) await scan(poster, IPHONE);
    for (let i = 0; i < 2; i++) await scan(poster, DESKTOP(i));
    await scan(flyer, DESKTOP(1), 'de-DE');
    await scan(flyer, DESKTOP(2), 'de');
    await scan(flyer, DESKTOP(3));
    // SIGTERM writes the buffered scans before the process exits.
    await stopServerTree(server);
    const now = Date.now();
    const range = `from=${day(now - 86_400_000)}&to=${day(now + 86_400_000)}`;
    const paths = [
      '/v1/codes?limit=100',
      '/v1/tags',
      `/v1/analytics/overview?${range}`,
      ...[poster, flyer, card].flatMap((c) => [`/v1/codes/${c.id}`, `/v1/codes/${c.id}/scans?${range}`]),
    ];
    const reader = await startServer({ ...env, MIGRATE_ON_START: 'false' });
    const answers: Record<string, unknown> = {};
    try {
      for (const path of paths) answers[path] = await on(reader, 'GET', path);
    } finally {
      await stopServerTree(reader);
    }
    const backup = await runCli(['backup', '--to', file, '--force'], env);
    if (backup.code !== 0) throw new Error(`backup: ${backup.stderr}`);
    const db = createDb(databaseUrl);
    const [last] = await db('knex_migrations').orderBy('name', 'desc').limit(1).pluck('name');
    await db.destroy();
    return { lastMigration: last as string, key, answers };
  } finally {
    if (server.child.exitCode === null) await stopServerTree(server);
  }
}

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

async function make(engine: 'sqlite' | 'mysql', databaseUrl: string, file: string): Promise<void> {
  const folder = join(OUT, version, engine);
  mkdirSync(folder, { recursive: true });
  const filled = await fill(databaseUrl, join(folder, file));
  const fixture: UpgradeFixture = { version, madeAt: new Date().toISOString(), ...filled };
  writeFileSync(join(folder, 'answers.json'), `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`${engine}: ${folder} (schema ${filled.lastMigration})`);
}

const { values } = parseArgs({ options: { mysql: { type: 'string' } }, strict: true });
const dir = mkdtempSync(join(tmpdir(), 'qr-upgrade-fixture-'));
try {
  await make('sqlite', `sqlite:${join(dir, 'fixture.sqlite')}`, 'database.sqlite');
  if (values.mysql) {
    const name = `qr_upgrade_fixture_${randomBytes(4).toString('hex')}`;
    const server = createDb(values.mysql);
    await server.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
    try {
      await make('mysql', `${values.mysql.replace(/\/+$/, '')}/${name}`, 'dump.sql');
    } finally {
      await server.raw('DROP DATABASE IF EXISTS ??', [name]);
      await server.destroy();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
