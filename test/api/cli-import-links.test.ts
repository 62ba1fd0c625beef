// `cli import`: another link service's export imported into an account on the database directly,
// through the real CLI process; every failure a non-zero exit.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../support/db.ts';
import { runCli } from '../support/process.ts';

const YOURLS = fileURLToPath(new URL('../fixtures/imports/yourls.csv', import.meta.url));
let testDb: TestDb;
let env: Record<string, string>;

const codesOf = async (account: string) => {
  const { id } = await testDb.db('accounts').where({ name: account }).first();
  return testDb
    .db('codes')
    .where({ account_id: id })
    .orderBy('slug')
    .select('slug', 'domain', 'name', 'imported_scans');
};

beforeAll(async () => {
  testDb = await createTestDb();
  env = { DATABASE_URL: testDb.url };
  for (const account of ['acme', 'other'])
    expect((await runCli(['keys', 'create', '--account', account], env)).code).toBe(0);
});
afterAll(() => testDb.destroy());

// Each run is a fresh node process (about 2 s alone, much more on a busy machine).
describe('cli import', { timeout: 180_000 }, () => {
  it('dry run writes nothing; a real run creates what it can; a second run creates nothing new', async () => {
    const args = ['import', '--account', 'acme', '--format', 'yourls_csv', '--file', YOURLS];
    const dry = await runCli([...args, '--dry-run'], env);
    // Two rows cannot be imported: the exit says so, the report says which and why.
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toContain('Dry run of');
    expect(dry.stdout).toContain('would create 2, 0 already here, 2 cannot be created');
    expect(dry.stdout).toMatch(/row 4: failed \(service domain\)\/x: slug must be 3-64 characters/);
    expect(dry.stdout).toContain("row 5: failed (service domain)/promo: timestamp 'not a date' is not a date");
    expect(await codesOf('acme')).toEqual([]);

    const real = await runCli(args, env);
    expect(real.code, real.stderr).toBe(1);
    expect(real.stdout).toMatch(/created 2 \(batch batch_\w+\), 0 already here, 2 cannot be created/);
    expect(await codesOf('acme')).toEqual([
      { slug: 'menu', domain: '', name: 'Our menu', imported_scans: 512 },
      { slug: 'wifi', domain: '', name: 'Guest Wi-Fi, lobby', imported_scans: 48 },
    ]);

    const again = await runCli([...args, '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, existing: 2, failed: 2, batch_id: null });
    expect(await codesOf('acme')).toHaveLength(2);
  });

  it('exits 0 when every row is imported, and leaves another account’s slugs alone', async () => {
    const file = join(tmpdir(), `yourls-clean-${process.pid}.csv`);
    writeFileSync(
      file,
      'keyword,url,title,timestamp,ip,clicks\nclean-one,https://example.com/1,,2023-01-01 00:00:00,203.0.113.1,5\n',
    );
    const res = await runCli(['import', '--account', 'other', '--format', 'yourls_csv', '--file', file], env);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toContain('row 2: created (service domain)/clean-one');
    // acme's slugs on the service's domain are taken for other: reported, acme's codes untouched.
    const taken = await runCli(['import', '--account', 'other', '--format', 'yourls_csv', '--file', YOURLS], env);
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain("row 2: failed (service domain)/menu: slug 'menu' is taken");
    expect((await codesOf('other')).map((c) => c.slug)).toEqual(['clean-one']);
    expect(await codesOf('acme')).toHaveLength(2);
  });

  it.each([
    ['no --account', 2, ['--format', 'yourls_csv', '--file', YOURLS], /import needs --account/],
    ['an unknown format', 2, ['--account', 'acme', '--format', 'dub', '--file', YOURLS], /--format must be one of/],
    ['no --file', 2, ['--account', 'acme', '--format', 'yourls_csv'], /import needs --file/],
    ['an unknown account', 1, ['--account', 'nobody', '--format', 'yourls_csv', '--file', YOURLS], /No account/],
    ['a missing file', 1, ['--account', 'acme', '--format', 'yourls_csv', '--file', '/nonexistent.csv'], /Cannot read/],
    ['another format’s file', 1, ['--account', 'acme', '--format', 'shlink_csv', '--file', YOURLS], /shortCode/],
    [
      'a domain not the account’s',
      1,
      ['--account', 'acme', '--format', 'yourls_csv', '--file', YOURLS, '--domain', 'x.test'],
      /domain: is not a verified domain/,
    ],
  ])('%s: exit %i', async (_case, code, args, said) => {
    const res = await runCli(['import', ...args], env);
    expect(res.code, res.stderr).toBe(code);
    expect(res.stderr).toMatch(said);
  });
});
