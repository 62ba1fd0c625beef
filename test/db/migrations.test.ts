// Migrations run up and down on the engine under test (SQLite, or MariaDB via DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest, migrateRollbackAll } from '../../src/db/migrate.ts';
import { createTestDb, type TestDb } from '../support/db.ts';

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb({ migrate: false });
});
afterAll(() => testDb.destroy());

describe('migrations', () => {
  it('apply, roll back completely, and apply again', async () => {
    const { db } = testDb;
    const applied = await migrateLatest(db);
    expect(applied.length).toBeGreaterThan(0);
    for (const table of ['accounts', 'api_keys', 'slugs', 'codes', 'routing_rules', 'code_scan_uses']) {
      expect(await db.schema.hasTable(table)).toBe(true);
    }
    expect(await migrateLatest(db)).toEqual([]);
    await migrateRollbackAll(db);
    expect(await db.schema.hasTable('codes')).toBe(false);
    expect(await migrateLatest(db)).toEqual(applied);
  });
});
