// A fresh database per test file: a temporary SQLite file, or a new MariaDB/MySQL database
// on the server that DATABASE_URL points at. Migrations run on it; destroy() removes it.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { loadConfig } from '../../src/config.ts';
import { createDb } from '../../src/db/knex.ts';
import { migrateLatest } from '../../src/db/migrate.ts';

export interface TestDb {
  db: Knex;
  url: string;
  dialect: 'sqlite' | 'mysql';
  destroy(): Promise<void>;
}

export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  const baseUrl = loadConfig().databaseUrl;
  const suffix = randomBytes(6).toString('hex');
  if (baseUrl.startsWith('mysql://')) {
    const name = `qr_test_${suffix}`;
    const admin = createDb(baseUrl);
    await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const db = createDb(url.toString());
    if (options.migrate !== false) await migrateLatest(db);
    return {
      db,
      url: url.toString(),
      dialect: 'mysql',
      async destroy() {
        await db.destroy();
        await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
        await admin.destroy();
      },
    };
  }
  const file = join(tmpdir(), `qr-test-${suffix}.sqlite`);
  const url = `sqlite:${file}`;
  const db = createDb(url);
  if (options.migrate !== false) await migrateLatest(db);
  return {
    db,
    url,
    dialect: 'sqlite',
    async destroy() {
      await db.destroy();
      for (const ext of ['', '-wal', '-shm']) rmSync(file + ext, { force: true });
    },
  };
}
