import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/transaction.ts';
import type { Knex } from 'knex';
import { isUniqueViolation, scanInsertChunk } from '../../db/dialect.ts';

/** A scan as stored: no address, no raw User-Agent. */
export interface ScanRow {
  code_id: string;
  account_id: string;
  scanned_at: number;
  rule_id: string | null;
  country: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  referrer_host: string | null;
  language: string | null;
  is_bot: boolean;
  visitor_hash: string;
}


export function createScansStore(db: Knex) {
  const chunk = scanInsertChunk(db);
  return {
    async insertMany(rows: ScanRow[], q: Queryable = db): Promise<void> {
      for (let i = 0; i < rows.length; i += chunk) {
        // better-sqlite3 runs inserts synchronously: let waiting requests through between chunks.
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        await q('scans').insert(rows.slice(i, i + chunk));
      }
    },

    async countForCode(codeId: string): Promise<number> {
      const row = await db('scans').where({ code_id: codeId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /**
     * The salt of a UTC day, created on first use. Several processes may race to create it:
     * the primary key lets one win and everybody reads the winner's salt.
     */
    async saltForDay(day: string): Promise<string> {
      const existing = await db('visitor_salts').where({ day }).first();
      if (existing) return existing.salt;
      try {
        await db('visitor_salts').insert({ day, salt: randomBytes(32).toString('hex') });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      // Yesterday's salt is kept for scans still buffered across midnight; older ones go.
      const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      await db('visitor_salts').where('day', '<', yesterday).delete();
      return (await db('visitor_salts').where({ day }).first()).salt;
    },
  };
}

export type ScansStore = ReturnType<typeof createScansStore>;
