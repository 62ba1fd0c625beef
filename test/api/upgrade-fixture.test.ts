// Upgrading a database made by a release: each release's fixture in test/fixtures/upgrade/<version>/
// (made by scripts/make-upgrade-fixture.ts through that release's service), of the engine
// DATABASE_URL names, is restored into a fresh database and upgraded the two ways docs/upgrading.md gives, by
// `npm run migrate` and by starting the new version (`npm start` migrates). Either way every
// migration of this checkout is applied and the API answers about the codes, their analytics
// and tags what that release answered: every field it answered, with the same value. Fields added
// since (a code's password_protected, its analytics' imported_scans) are additive, which the API's
// compatibility policy (docs/api.md) allows within a version, so an answer may hold more than the release's.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.ts';
import type { UpgradeFixture } from '../../scripts/make-upgrade-fixture.ts';
import { createTestDb, type TestDb } from '../support/db.ts';
import {
  callServer,
  npmRunMigrate,
  runCli,
  startServer,
  stopServerTree,
  type ServerProcess,
} from '../support/process.ts';

const engine = (process.env.DATABASE_URL ?? '').startsWith('mysql://') ? 'mysql' : 'sqlite';
const FIXTURES = join(import.meta.dirname, '../fixtures/upgrade');
const releases = readdirSync(FIXTURES).map((version) => {
  const folder = join(FIXTURES, version, engine);
  return {
    backup: join(folder, engine === 'sqlite' ? 'database.sqlite' : 'dump.sql'),
    fixture: JSON.parse(readFileSync(join(folder, 'answers.json'), 'utf8')) as UpgradeFixture,
  };
});

const opened: TestDb[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) if (server.child.exitCode === null) await stopServerTree(server);
  for (const db of opened) await db.destroy();
});

/** A fresh database holding the fixture, as `cli restore` loads it. */
async function restored(backup: string): Promise<TestDb> {
  const testDb = await createTestDb({ migrate: false });
  opened.push(testDb);
  const res = await runCli(['restore', '--from', backup], { DATABASE_URL: testDb.url });
  expect(res.code, res.stderr).toBe(0);
  return testDb;
}

async function expectUpgraded(testDb: TestDb, server: ServerProcess, fixture: UpgradeFixture): Promise<void> {
  const applied = await testDb.db('knex_migrations').orderBy('name').pluck('name');
  expect(applied).toEqual(Object.keys(migrations).sort());
  for (const [path, answer] of Object.entries(fixture.answers)) {
    const res = await callServer(server, fixture.key, 'GET', path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    // Arrays keep their length and order; objects may have gained fields.
    expect(res.body, path).toMatchObject(answer as object);
  }
  await stopServerTree(server);
}

const env = { PUBLIC_BASE_URL: 'http://qr.test' };

it('has a fixture of at least one release', () => expect(releases.length).toBeGreaterThan(0));

describe.each(releases)('a database of release $fixture.version', ({ backup, fixture }) => {
  it(
    'is upgraded by npm run migrate, and the new version answers as the release did',
    { timeout: 240_000 },
    async () => {
      const testDb = await restored(backup);
      const migrated = await npmRunMigrate({ DATABASE_URL: testDb.url });
      expect(migrated.code, migrated.stderr).toBe(0);
      expect(migrated.stdout).toMatch(/^(Applied: |Already up to date\.)/);
      const server = await startServer({ ...env, DATABASE_URL: testDb.url, MIGRATE_ON_START: 'false' });
      servers.push(server);
      await expectUpgraded(testDb, server, fixture);
    },
  );

  it(
    'is upgraded by npm start, which migrates first, and answers as the release did',
    { timeout: 240_000 },
    async () => {
      const testDb = await restored(backup);
      const server = await startServer({ ...env, DATABASE_URL: testDb.url }, undefined, 'npm start');
      servers.push(server);
      await expectUpgraded(testDb, server, fixture);
    },
  );
});
