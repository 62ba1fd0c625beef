// A MariaDB database for one benchmark, created anew (dropped first if a run left it) and migrated.
import type { Knex } from 'knex';
import { createDb } from '../src/db/knex.ts';
import { migrateLatest } from '../src/db/migrate.ts';

export async function freshMariaDb(name: string): Promise<Knex> {
  const admin = createDb('mysql://root@127.0.0.1:3306/mysql');
  await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
  await admin.raw('CREATE DATABASE ??', [name]);
  await admin.destroy();
  const db = createDb(`mysql://root@127.0.0.1:3306/${name}`);
  await migrateLatest(db);
  return db;
}
