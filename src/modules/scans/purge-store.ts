// The SQL of raw-scan retention and of purging deleted codes' scans (see purge.ts and the
// code_purges migration). Every write here is a small batch in a short transaction, so the
// scan writer never waits long on a lock this holds.
import type { Knex } from 'knex';
import type { DbRow } from '../../db/rows.ts';
import type { Queryable } from '../../db/transaction.ts';
import { inTransaction, retryOnWriteConflict } from '../../db/transaction.ts';
import { createRollupStore } from './rollup-store.ts';
import { createScanIdRunsStore } from './scan-id-runs.ts';
import { accountDailyRollupRows, accountRollupRows } from './rollups.ts';
import type { Bucket } from './scan-queries.ts';
import type { ScanRow } from './store.ts';
import {
  gridBuckets,
  gridColumns,
  weekHourColumn,
  weekHourCounts,
  type Grid,
  type OffsetRun,
  type WeekHourCount,
} from './time-grid.ts';

/** A half-open range of scan times in epoch ms (null: unbounded), bots left out unless asked. */
export interface ScanWindow {
  from: number | null;
  to: number | null;
  includeBots: boolean;
}

export interface PendingPurge {
  codeId: string;
  accountId: string;
  deletedAt: number;
}

/** A batch lost a race with another instance purging the same code: rolled back, read again. */
class PurgeRaced extends Error {}

/** What the account rollups count of a scan, read back from its raw row. */
const ACCOUNT_COLUMNS = [
  'id',
  'account_id',
  'scanned_at',
  'is_bot',
  'country',
  'region',
  'city',
  'device',
  'os',
  'browser',
  'referrer_host',
  'is_account_unique',
];

/** The columns of raw scans behind the overview's breakdowns. */
const VALUE_COLUMNS = new Set(['country', 'region', 'city', 'device', 'os', 'browser', 'referrer_host']);

/** Columns whose nulls the rollups leave out (rollups.ts), so the pending counts leave them out too. */
const SPARSE_COLUMNS = new Set(['region', 'city']);

export function createPurgeStore(db: Knex | Knex.Transaction) {
  const rollups = createRollupStore(db);

  const pendingOf = (accountId: string) =>
    db('code_purges').select('code_id').where('account_id', accountId).whereNull('purged_at');

  /** The account's scans of codes deleted and not yet purged, in the window. */
  const pendingScans = (accountId: string, w: ScanWindow) =>
    db('scans')
      .where('scans.account_id', accountId)
      .whereIn('scans.code_id', pendingOf(accountId))
      .modify((b) => {
        if (w.from !== null) b.where('scans.scanned_at', '>=', w.from);
        if (w.to !== null) b.where('scans.scanned_at', '<', w.to);
        if (!w.includeBots) b.where('scans.is_bot', 0);
      });

  return {
    /** Records, in the deleting transaction, that the code's scans are to be purged. */
    async codeDeleted(codeId: string, accountId: string, at: number, q: Queryable): Promise<void> {
      await q('code_purges')
        .insert({ code_id: codeId, account_id: accountId, deleted_at: at })
        .onConflict('code_id')
        .ignore();
    },

    /** Deleted codes whose scans are not purged yet, oldest deletion first. */
    async pending(limit: number): Promise<PendingPurge[]> {
      const rows = await db('code_purges').whereNull('purged_at').orderBy('deleted_at').limit(limit);
      return rows.map((r) => ({ codeId: r.code_id, accountId: r.account_id, deletedAt: Number(r.deleted_at) }));
    },

    async markPurged(codeId: string, at: number): Promise<void> {
      await db('code_purges').where('code_id', codeId).update({ purged_at: at });
    },

    /** Whether any of the account's deleted codes still has scans being purged. */
    async hasPending(accountId: string): Promise<boolean> {
      return (await pendingOf(accountId).first()) !== undefined;
    },

    /**
     * Deletes up to `limit` of the code's oldest raw scans and subtracts them from the account's
     * rollups, in one transaction: the account overview minus what is left of the code (see
     * pendingBuckets) stays the same before, during and after. Returns how many went.
     */
    async purgeRawBatch(codeId: string, limit: number): Promise<number> {
      for (;;) {
        const rows = await db('scans')
          .select(ACCOUNT_COLUMNS)
          .where('code_id', codeId)
          .orderBy([{ column: 'scanned_at' }, { column: 'id' }])
          .limit(limit);
        if (rows.length === 0) return 0;
        try {
          // A deadlock with the scan writer (MariaDB) rolls the batch back: it is simply run again.
          await retryOnWriteConflict(() =>
            inTransaction(db, async (trx) => {
              const ids = rows.map((r) => r.id);
              // Another instance purging the same code deleted some first: subtracting them
              // again would count them twice, so this batch rolls back and reads anew.
              if ((await trx('scans').whereIn('id', ids).delete()) !== ids.length) throw new PurgeRaced();
              const scans = rows.map(
                (r) =>
                  ({
                    ...r,
                    scanned_at: Number(r.scanned_at),
                    is_bot: Boolean(r.is_bot),
                    is_account_unique: Boolean(r.is_account_unique),
                  }) as ScanRow,
              );
              const negated = accountRollupRows(scans).map((row) => ({
                ...row,
                scans: -row.scans,
                unique_scans: -row.unique_scans,
              }));
              const negatedDays = accountDailyRollupRows(negated);
              await rollups.addAccountRollups(negated, trx);
              await rollups.addAccountDailyRollups(negatedDays, trx);
              // Rows left at zero go, so breakdowns do not list values nobody scanned. A row below
              // zero stays: a quarter subtracted from an hour kept whole since before quarters
              // (migrations/…_quarter_hour_rollups.ts), whose sum with that hour is right.
              const accountId = String(rows[0].account_id);
              const emptied = (table: string, column: string, at: number[]) =>
                trx(table).where('account_id', accountId).whereIn(column, at).where('scans', '=', 0).delete();
              await emptied('account_scan_rollups', 'hour', [...new Set(negated.map((row) => row.hour))]);
              await emptied('account_daily_rollups', 'day', [...new Set(negatedDays.map((row) => row.day))]);
            }),
          );
          return rows.length;
        } catch (err) {
          if (!(err instanceof PurgeRaced)) throw err;
        }
      }
    },

    /**
     * Deletes a slice of the code's quarter-hour, then daily rollups, then its last-scan row, day bits,
     * max_scans uses and locked-view counts, then a slice of its dimension rollups, by ranges of keys that start with
     * code_id.
     * Returns how many rows went; 0 when none are left.
     */
    async purgeRollupBatch(codeId: string, limit: number): Promise<number> {
      for (const [table, time] of [
        ['scan_rollups', 'hour'],
        ['code_daily_rollups', 'day'],
      ] as const) {
        const times: Array<number | string> = await db(table)
          .where('code_id', codeId)
          .orderBy(time)
          .limit(limit)
          .pluck(time);
        if (times.length > 0)
          return retryOnWriteConflict(() =>
            db(table)
              .where('code_id', codeId)
              .where(time, '<=', times[times.length - 1]!)
              .delete(),
          );
      }
      const lastScan = await retryOnWriteConflict(() => db('code_last_scans').where('code_id', codeId).delete());
      if (lastScan > 0) return lastScan;
      // One row per period scanned in: a few, even for a code scanned for years.
      const days = await retryOnWriteConflict(() => db('code_scan_days').where('code_id', codeId).delete());
      if (days > 0) return days;
      const uses = await retryOnWriteConflict(() => db('code_scan_uses').where('code_id', codeId).delete());
      if (uses > 0) return uses;
      // Two rows a day at most (people, bots), for the days its unlock page was shown.
      const locked = await retryOnWriteConflict(() => db('code_locked_views').where('code_id', codeId).delete());
      if (locked > 0) return locked;
      const viewIds: string[] = await db('locked_view_ids').where('code_id', codeId).limit(limit).pluck('view_id');
      if (viewIds.length > 0)
        return retryOnWriteConflict(() => db('locked_view_ids').whereIn('view_id', viewIds).delete());
      const last = await db('scan_dimension_rollups')
        .select('dimension', 'day')
        .where('code_id', codeId)
        .orderBy([{ column: 'dimension' }, { column: 'day' }])
        .offset(limit - 1)
        .first();
      const slice = () =>
        db('scan_dimension_rollups')
          .where('code_id', codeId)
          .modify((b) =>
            last
              ? b.where((w) =>
                  w
                    .where('dimension', '<', last.dimension)
                    .orWhere((same) => same.where('dimension', last.dimension).where('day', '<=', last.day)),
                )
              : b,
          );
      return retryOnWriteConflict(() => slice().delete());
    },

    /** The first account id after `after` that has raw scans (a seek on the account index). */
    async nextAccountWithScans(after: string | null): Promise<string | null> {
      const row = await db('scans')
        .select('account_id')
        .modify((b) => (after === null ? b : b.where('account_id', '>', after)))
        .orderBy('account_id')
        .first();
      return row ? String(row.account_id) : null;
    },

    /**
     * Deletes up to `limit` of the account's raw scans from before `before`, found through the
     * (account_id, scanned_at) index and deleted by primary key. Scans of deleted codes being
     * purged are left to that purge, which subtracts them from the account's rollups.
     */
    async deleteBefore(accountId: string, before: number, limit: number): Promise<number> {
      const ids: Array<number | string> = await db('scans')
        .where('account_id', accountId)
        .where('scanned_at', '<', before)
        .whereNotIn('code_id', pendingOf(accountId))
        .orderBy('scanned_at')
        .limit(limit)
        .pluck('id');
      if (ids.length === 0) return 0;
      return retryOnWriteConflict(() => db('scans').whereIn('id', ids).delete());
    },

    /** Deletes up to `limit` locked view ids from before `before`: they live as long as raw scans. */
    async deleteViewIdsBefore(before: number, limit: number): Promise<number> {
      const ids: string[] = await db('locked_view_ids').where('viewed_at', '<', before).limit(limit).pluck('view_id');
      if (ids.length === 0) return 0;
      return retryOnWriteConflict(() => db('locked_view_ids').whereIn('view_id', ids).delete());
    },

    /** Deletes up to `limit` runs of scan ids committed before `before`: they live as long as raw scans. */
    deleteIdRunsBefore: createScanIdRunsStore(db).deleteBefore,

    /** The account's scans of codes being purged, per time slice of the grid (account-wide uniques). */
    async pendingBuckets(accountId: string, w: ScanWindow, grid: Grid): Promise<Bucket[]> {
      const { run, slice } = gridColumns('scans.scanned_at', grid);
      const rows = await pendingScans(accountId, w)
        .select({ grid_run: db.raw(run), grid_slice: db.raw(slice) })
        .count({ scans: '*' })
        .sum({ unique: 'is_account_unique' })
        .groupBy('grid_run', 'grid_slice');
      return gridBuckets(rows, grid);
    },

    /** The account's scans of codes being purged, per hour of the week in local time. */
    async pendingWeekHours(accountId: string, w: ScanWindow, runs: readonly OffsetRun[]): Promise<WeekHourCount[]> {
      const rows = await pendingScans(accountId, w)
        .select({ week_hour: db.raw(weekHourColumn('scans.scanned_at', runs)) })
        .count({ scans: '*' })
        .groupBy('week_hour');
      return weekHourCounts(rows);
    },

    /** The account's scans of codes being purged, per value of one column. */
    async pendingValues(
      accountId: string,
      column: string,
      w: ScanWindow,
    ): Promise<Array<{ value: string | null; scans: number }>> {
      if (!VALUE_COLUMNS.has(column)) throw new Error(`no breakdown by ${column}`);
      const rows = await pendingScans(accountId, w)
        .modify((b) => (SPARSE_COLUMNS.has(column) ? b.whereNotNull(column) : b))
        .select({ value: column })
        .count({ scans: '*' })
        .groupBy(column);
      return rows.map((r: DbRow) => ({
        value: r.value === null || r.value === '' ? null : String(r.value),
        scans: Number(r.scans),
      }));
    },
  };
}

export type PurgeStore = ReturnType<typeof createPurgeStore>;
