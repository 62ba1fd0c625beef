import { randomBytes } from 'node:crypto';
import { DAY_MS } from '../../shared/time.ts';
import type { Queryable } from '../../db/transaction.ts';
import type { Knex } from 'knex';
import { insertIgnoringTaken, isUniqueViolation, scanInsertChunk } from '../../db/dialect.ts';
import { inKeyOrder } from '../../db/key-order.ts';
import type { ScanOutcome } from './lifecycle-answer.ts';

/** A scan as stored: no address, no raw User-Agent. */
export interface ScanRow {
  /** The scan route's id of the scan (ScanEvent.id), unique; null for scans without one. */
  scan_id?: string | null;
  code_id: string;
  account_id: string;
  scanned_at: number;
  rule_id: string | null;
  country: string | null;
  /** "US/California": see client-info.ts (Place); null (or absent) without GEOIP_CITY_DB. */
  region?: string | null;
  /** "US/California/San Jose". */
  city?: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  referrer_host: string | null;
  language: string | null;
  is_bot: boolean;
  /** What the scan was answered (lifecycle-answer.ts); the column defaults to redirect. */
  outcome?: ScanOutcome;
  visitor_hash: string;
  /** The visitor's first scan of this code on this UTC day (see first-visits.ts). */
  is_unique: boolean;
  /** The visitor's first scan of any of the account's codes on this UTC day. */
  is_account_unique: boolean;
}

/** The dimensions a scan records about its visit, stored as is and read back as is. */
export type ScanDimensions = Required<
  Pick<ScanRow, 'rule_id' | 'country' | 'region' | 'city' | 'device' | 'os' | 'browser' | 'referrer_host' | 'language'>
>;

/** A raw scan as export reads it back (drivers may return integers as strings, booleans as 0/1). */
export interface StoredScan extends ScanDimensions {
  id: number | string;
  scanned_at: number | string;
  is_bot: boolean | number;
  is_unique: boolean | number;
  outcome: ScanOutcome;
}

const STORED_SCAN_COLUMNS = [
  'id',
  'scanned_at',
  'rule_id',
  'country',
  'region',
  'city',
  'device',
  'os',
  'browser',
  'referrer_host',
  'language',
  'is_bot',
  'is_unique',
  'outcome',
];

/** One visitor seen on one UTC day (days since the epoch) by one code or account. */
export interface VisitorKey {
  day: number;
  visitor_hash: string;
  scope_id: string;
}

const VISITOR_KEY = ['day', 'visitor_hash', 'scope_id'];

/**
 * Which of `keys` carry `batch`, read by primary key, each key once: a visitor's rows for every
 * code it scanned that day are not read (matching by day and hash alone read them all).
 */
function claimedBy(batch: string, keys: VisitorKey[], q: Queryable): Promise<VisitorKey[]> {
  return q('scan_visitors')
    .select('day', 'visitor_hash', 'scope_id')
    .whereIn(
      VISITOR_KEY,
      keys.map((k) => [k.day, k.visitor_hash, k.scope_id]),
    )
    .where({ batch });
}

export function createScansStore(db: Knex) {
  const chunk = scanInsertChunk(db);
  return {
    /** Which of `ids` are stored already (a replayed journal's scans whose batch had committed). */
    async storedScanIds(ids: string[], q: Queryable): Promise<Set<string>> {
      const stored = new Set<string>();
      for (let i = 0; i < ids.length; i += chunk) {
        const rows: { scan_id: string }[] = await q('scans')
          .select('scan_id')
          .whereIn('scan_id', ids.slice(i, i + chunk));
        for (const row of rows) stored.add(row.scan_id);
      }
      return stored;
    },

    async insertMany(rows: ScanRow[], q: Queryable = db): Promise<void> {
      // On SQLite the client lets waiting requests through between chunks (db/knex.ts).
      for (let i = 0; i < rows.length; i += chunk) await q('scans').insert(rows.slice(i, i + chunk));
    },

    /**
     * Inserts the keys not yet seen, marked with `batch`, and returns those this call inserted.
     * Runs inside the batch's transaction, so a failed batch claims nothing.
     */
    async claimVisitors(unordered: VisitorKey[], batch: string, q: Queryable): Promise<VisitorKey[]> {
      // Every writer locks keys in the same order, so two processes' batches cannot deadlock.
      const keys = inKeyOrder(unordered, VISITOR_KEY);
      const claimed: VisitorKey[] = [];
      for (let i = 0; i < keys.length; i += chunk) {
        const part = keys.slice(i, i + chunk);
        const inserted = await insertIgnoringTaken(
          q,
          'scan_visitors',
          VISITOR_KEY,
          part.map((k) => ({ ...k, batch })),
        );
        // The count alone tells when every key or none is this call's, the usual cases: visitors
        // never seen, or (with the writer's memory of its own claims) seen by another writer.
        if (inserted === part.length) claimed.push(...part);
        else if (inserted > 0) claimed.push(...(await claimedBy(batch, part, q)));
      }
      return claimed;
    },

    /**
     * One code's scans in (scanned_at, id) order after a position, for export. The order
     * follows the (code_id, scanned_at) index, whose entries end with the row id on both engines.
     */
    async pageForCode(
      codeId: string,
      range: { from: number | null; to: number | null },
      after: { at: number; id: number } | null,
      limit: number,
    ): Promise<StoredScan[]> {
      return db('scans')
        .select(STORED_SCAN_COLUMNS)
        .where('code_id', codeId)
        .modify((b) => {
          if (range.from !== null) b.where('scanned_at', '>=', range.from);
          if (range.to !== null) b.where('scanned_at', '<', range.to);
          if (after)
            b.where((w) =>
              w
                .where('scanned_at', '>', after.at)
                .orWhere((same) => same.where('scanned_at', after.at).where('id', '>', after.id)),
            );
        })
        .orderBy([{ column: 'scanned_at' }, { column: 'id' }])
        .limit(limit);
    },

    async countForCode(codeId: string): Promise<number> {
      const row = await db('scans').where({ code_id: codeId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /**
     * Records that batch `id` commits with the caller's transaction. False when an earlier
     * attempt of the same batch already committed (see the scan_batches migration).
     */
    async markBatchCommitted(id: string, q: Queryable): Promise<boolean> {
      try {
        await q('scan_batches').insert({ id, committed_at: Date.now() });
        return true;
      } catch (err) {
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },

    /**
     * The salt of a UTC day, created on first use. Several processes may race to create it:
     * the primary key lets one win, and the losers take the winner's salt.
     */
    async saltForDay(day: string): Promise<string> {
      const existing = await db('visitor_salts').where({ day }).first();
      if (existing) return existing.salt;
      // The salt this call inserts, or the one another writer inserted first. It is not read
      // back after the cleanup below: a writer on a later day may have deleted it meanwhile (a
      // batch of an older day committing late). The scans in hand still need a salt; if even
      // the first writer's is gone, this call's own serves, as the day's visitors no longer recur.
      let salt: string = randomBytes(32).toString('hex');
      try {
        await db('visitor_salts').insert({ day, salt });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        salt = (await db('visitor_salts').where({ day }).first())?.salt ?? salt;
      }
      // Yesterday's salt is kept for scans still buffered across midnight; older ones go.
      const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
      await db('visitor_salts').where('day', '<', yesterday).delete();
      // Visitors of older days can no longer recur (their hashes came from a deleted salt), and
      // no batch waits that long for a retry.
      await db('scan_visitors')
        .where('day', '<', Date.parse(`${yesterday}T00:00:00Z`) / DAY_MS)
        .delete();
      await db('scan_batches')
        .where('committed_at', '<', Date.parse(`${yesterday}T00:00:00Z`))
        .delete();
      return salt;
    },
  };
}

export type ScansStore = ReturnType<typeof createScansStore>;
