// `cli backup` while a running service records a flood of scans, `cli restore` into a fresh
// database, on whichever engine DATABASE_URL names. The restored database must be the source as
// of one moment: every table the scan path does not write equal to the source (which the flood
// did not change), the raw scans exactly the source's first ones, every scan flushed before the
// backup started among them, and every rollup equal to what the restored raw scans add up to
// (the writer commits a batch's raw rows and rollups in one transaction, so only a torn copy
// breaks that). Then the restored database serves, and a second restore is refused without --force.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { callServer, cliKey, runCli, startServer, stopServerTree, type ServerProcess } from '../support/process.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FLOOD_HOST = /^r\d+\.flood\.test$/;
/** Written by every scan batch (src/modules/scans/batch-writer.ts), so changing during the flood. */
const SCAN_TABLES = new Set([
  'scans',
  'scan_batches',
  'scan_id_runs',
  'scan_visitors',
  'visitor_salts',
  'scan_rollups',
  'code_daily_rollups',
  'code_last_scans',
  'code_scan_days',
  'code_scan_uses',
  'scan_dimension_deltas',
  'scan_dimension_rollups',
  'account_scan_rollups',
  'account_daily_rollups',
  'tag_rollups',
]);

type Row = Record<string, unknown>;

async function tableNames(db: Knex): Promise<string[]> {
  const rows: { name: string }[] =
    db.client.config.client === 'better-sqlite3'
      ? await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : (await db.raw('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'))[0];
  return rows.map((r) => r.name).sort();
}

/** A table's rows in a stable order (whatever its key), for equality. */
async function rowsOf(db: Knex, table: string): Promise<Row[]> {
  const rows: Row[] = await db(table).select();
  return rows.map((r) => ({ ...r })).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

async function staticTables(db: Knex): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const table of await tableNames(db)) if (!SCAN_TABLES.has(table)) out[table] = await rowsOf(db, table);
  return out;
}

const countBy = (rows: Row[], key: (r: Row) => string, add: (r: Row) => number = () => 1) => {
  const out: Record<string, number> = {};
  for (const r of rows) out[key(r)] = (out[key(r)] ?? 0) + add(r);
  return out;
};
const bot = (r: Row) => String(Number(r.is_bot));

/** What each rollup of `db` adds up to, beside what its raw scans add up to: equal when consistent. */
async function rollupSums(db: Knex) {
  const scans = await db('scans').select();
  const flood = scans.filter((s) => FLOOD_HOST.test(String(s.referrer_host)));
  const perCode = countBy(scans, (s) => `${s.code_id}|${bot(s)}`);
  const uniquePerCode = countBy(
    scans,
    (s) => `${s.code_id}|${bot(s)}`,
    (s) => Number(s.is_unique),
  );
  const perAccount = countBy(scans, (s) => `${s.account_id}|${bot(s)}`);
  const perReferrer = countBy(flood, (s) => String(s.referrer_host));
  const sums = async (table: string, key: (r: Row) => string, where: Row = {}, add = (r: Row) => Number(r.scans)) =>
    countBy(await db(table).where(where), key, add);
  // The flood's referrers only: the other scans had none.
  const referrers = async (table: string) =>
    countBy(
      (await db(table).where({ dimension: 'referrer' })).filter((r) => FLOOD_HOST.test(String(r.value))),
      (r) => String(r.value),
      (r) => Number(r.scans),
    );
  // Per-code breakdowns wait in scan_dimension_deltas until a roller adds them up (dimension-deltas.ts).
  const dimensionReferrers = await referrers('scan_dimension_rollups');
  for (const delta of await db('scan_dimension_deltas').where({ dimension: 'referrer' }))
    for (const [, , , value, n] of JSON.parse(String(delta.entries)) as [string, number, number, string, number][])
      if (FLOOD_HOST.test(value)) dimensionReferrers[value] = (dimensionReferrers[value] ?? 0) + n;
  return {
    raw: { perCode, uniquePerCode, perAccount, perReferrer },
    rollups: {
      perCode: await sums('scan_rollups', (r) => `${r.code_id}|${bot(r)}`),
      uniquePerCode: await sums(
        'scan_rollups',
        (r) => `${r.code_id}|${bot(r)}`,
        {},
        (r) => Number(r.unique_scans),
      ),
      dailyPerCode: await sums('code_daily_rollups', (r) => `${r.code_id}|${bot(r)}`),
      perAccount: await sums('account_scan_rollups', (r) => `${r.account_id}|${bot(r)}`, { dimension: 'total' }),
      dailyPerAccount: await sums('account_daily_rollups', (r) => `${r.account_id}|${bot(r)}`, { dimension: 'total' }),
      accountReferrers: await referrers('account_scan_rollups'),
      tagReferrers: await referrers('tag_rollups'),
      dimensionReferrers,
    },
  };
}

function expectConsistent({ raw, rollups }: Awaited<ReturnType<typeof rollupSums>>): void {
  expect(rollups.perCode).toEqual(raw.perCode);
  expect(rollups.uniquePerCode).toEqual(raw.uniquePerCode);
  expect(rollups.dailyPerCode).toEqual(raw.perCode);
  expect(rollups.perAccount).toEqual(raw.perAccount);
  expect(rollups.dailyPerAccount).toEqual(raw.perAccount);
  // Only the flooded code has referrers, and it alone carries the tag.
  expect(rollups.accountReferrers).toEqual(raw.perReferrer);
  expect(rollups.tagReferrers).toEqual(raw.perReferrer);
  expect(rollups.dimensionReferrers).toEqual(raw.perReferrer);
}

let source: TestDb;
let restored: TestDb;
let server: ServerProcess | null = null;
let dir: string;

beforeAll(async () => {
  source = await createTestDb();
  restored = await createTestDb({ migrate: false });
  dir = mkdtempSync(join(tmpdir(), 'qr-backup-'));
});
afterAll(async () => {
  if (server) await stopServerTree(server);
  await source.destroy();
  await restored.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('cli backup during a scan flood, cli restore into a fresh database', () => {
  it(
    'restores the source as of one moment, with every scan flushed before the backup',
    { timeout: 240_000 },
    async () => {
      const env = { DATABASE_URL: source.url, SCAN_RATE_LIMIT_PER_MINUTE: '0', PUBLIC_BASE_URL: 'http://qr.test' };
      const key = await cliKey(source.url, 'backup');
      await cliKey(source.url, 'backup'); // a second key of the same account
      server = await startServer(env);
      const api = (method: string, path: string, body?: unknown) => callServer(server!, key, method, path, body);
      const created = async (method: string, path: string, body: unknown) => {
        const res = await api(method, path, body);
        expect(res.status, res.text).toBe(201);
        return res.body;
      };
      await created('POST', '/v1/tags', { name: 'Print', color: '#0055aa' });
      const flooded = await created('POST', '/v1/codes', {
        content: 'https://example.com/flood',
        slug: 'flood',
        tags: ['flood'],
      });
      const routed = await created('POST', '/v1/codes', {
        content: 'https://example.com/routed',
        name: 'Routed',
        tags: ['Print'],
        routing: { rules: [{ condition: 'country:US', destination: 'https://example.com/us' }] },
      });
      await created('POST', `/v1/codes/${routed.id}/routing/rules`, {
        type: 'device',
        conditions: { devices: ['ios'] },
        destination: 'https://example.com/ios',
      });
      await created('POST', '/v1/domains', { hostname: 'links.example.org' });
      await created('POST', '/v1/webhooks', { url: 'https://hooks.example.com/backup', events: ['code.deleted'] });
      // Scans of another code before the flood, without referrers.
      for (let i = 0; i < 3; i++)
        expect(
          (await fetch(routed.scan_url.replace('http://qr.test', server.url), { redirect: 'manual' })).status,
        ).toBe(302);
      const codeAnswer = (await api('GET', `/v1/codes/${routed.id}`)).body;
      const before = await staticTables(source.db);
      expect(before.domains).toHaveLength(1);

      // The flood: each scan names itself by its Referer's host; `acked` holds those answered 302.
      const acked: number[] = [];
      let next = 0;
      let flooding = true;
      const floodLoop = async () => {
        while (flooding) {
          const n = next++;
          const res = await fetch(`${server!.url}/flood`, {
            redirect: 'manual',
            headers: { 'user-agent': CHROME, referer: `https://r${n}.flood.test/` },
          });
          await res.arrayBuffer();
          if (res.status === 302) acked.push(n);
        }
      };
      const loops = Array.from({ length: 6 }, floodLoop);
      while (acked.length < 200) await new Promise((r) => setTimeout(r, 20));

      // The scans answered so far, waited for until the writer committed them all (it flushes
      // every SCAN_FLUSH_INTERVAL_MS): the backup, started after, must hold every one.
      const flushed = new Set(acked.map((n) => `r${n}.flood.test`));
      for (;;) {
        const stored = (
          await source.db('scans').where('referrer_host', 'like', '%.flood.test').pluck('referrer_host')
        ).filter((host: string) => flushed.has(host));
        if (stored.length === flushed.size) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const ackedBeforeBackup = acked.length;
      const file = join(dir, source.dialect === 'sqlite' ? 'backup.sqlite' : 'backup.sql');
      const backup = await runCli(['backup', '--to', file], env);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`to ${file}`);
      const ackedAfterBackup = acked.length;
      // Scans after the backup too, which the source has and the backup must not.
      while (acked.length < ackedAfterBackup + 50) await new Promise((r) => setTimeout(r, 20));
      flooding = false;
      await Promise.all(loops);
      await stopServerTree(server);
      server = null;
      // The flood went on while the backup ran, so the backup was taken in the middle of it.
      expect(ackedAfterBackup).toBeGreaterThan(ackedBeforeBackup);

      const restore = await runCli(['restore', '--from', file], { DATABASE_URL: restored.url });
      expect(restore.code, restore.stderr).toBe(0);

      // Tables the scans do not touch: equal to the source, before the flood and after it.
      expect(await tableNames(restored.db)).toEqual(await tableNames(source.db));
      const after = await staticTables(source.db);
      expect(after).toEqual(before);
      expect(await staticTables(restored.db)).toEqual(before);

      // Raw scans: the source's first ones, up to the last the backup holds, and each flushed one among them.
      const restoredScans = await restored.db('scans').orderBy('id');
      const last = restoredScans.at(-1)!.id;
      expect(restoredScans).toEqual(await source.db('scans').where('id', '<=', last).orderBy('id'));
      const restoredHosts = new Set(restoredScans.map((s) => s.referrer_host));
      expect([...flushed].filter((host) => !restoredHosts.has(host))).toEqual([]);
      const sourceScans = Number((await source.db('scans').count({ n: '*' }))[0]!.n);
      expect(sourceScans).toBeGreaterThan(restoredScans.length);
      expect(restoredScans.filter((s) => s.code_id === flooded.id).length).toBeGreaterThanOrEqual(flushed.size);

      // Rows the scan path only inserts: the restored ones are the source's.
      for (const table of ['scan_batches', 'scan_visitors', 'visitor_salts']) {
        const all = new Set((await rowsOf(source.db, table)).map((r) => JSON.stringify(r)));
        const missing = (await rowsOf(restored.db, table)).filter((r) => !all.has(JSON.stringify(r)));
        expect(missing, table).toEqual([]);
      }
      // Every rollup adds up to the restored raw scans, as the source's add up to its own.
      expectConsistent(await rollupSums(source.db));
      expectConsistent(await rollupSums(restored.db));

      // The restored database serves: the key works and the code answers as before.
      server = await startServer({ ...env, DATABASE_URL: restored.url });
      expect((await callServer(server, key, 'GET', `/v1/codes/${routed.id}`)).body).toEqual(codeAnswer);
      await stopServerTree(server);
      server = null;

      // A second restore onto the now filled database is refused, and done with --force.
      const refused = await runCli(['restore', '--from', file], { DATABASE_URL: restored.url });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is not empty \(\d+ tables\).*--force/s);
      const forced = await runCli(['restore', '--from', file, '--force'], { DATABASE_URL: restored.url });
      expect(forced.code, forced.stderr).toBe(0);
      expect(await restored.db('scans').count({ n: '*' })).toEqual([{ n: restoredScans.length }]);
    },
  );

  it(
    'fails with a message and a non-zero exit: usage, an existing file, a missing or foreign backup',
    { timeout: 120_000 },
    async () => {
      const env = { DATABASE_URL: source.url };
      const usage = await runCli(['backup'], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('backup needs --to <file>');
      const taken = join(dir, 'taken');
      expect((await runCli(['backup', '--to', taken], env)).code).toBe(0);
      const again = await runCli(['backup', '--to', taken], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('exists: pass --force');
      const missing = await runCli(['restore', '--from', join(dir, 'nothing')], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('There is no file');
      const foreign = await runCli(['restore', '--from', join(import.meta.dirname, '../../package.json')], env);
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toContain('is neither a SQLite database nor a MySQL/MariaDB dump');
    },
  );
});
