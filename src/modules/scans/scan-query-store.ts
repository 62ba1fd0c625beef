// Analytics straight from the raw scans: exact for any window and bucket width, and slower,
// since every scan is a row. The analytics service uses it where quarter-hour rollups cannot
// answer exactly. Which codes still exist is the codes module's answer (ownedCodeIds).
import type { Knex } from 'knex';
import type { OwnedCodeIds } from '../codes/index.ts';
import {
  DIMENSION_COLUMNS,
  SPARSE_DIMENSIONS,
  rankCodes,
  rankValues,
  type AggregateRow,
  type AnalyticsSource,
  type CodeTotals,
  type Scope,
  type Window,
} from './scan-queries.ts';
import { gridBuckets, gridColumns, weekHourColumn, weekHourCounts } from './time-grid.ts';

/** Keeps the rows of codes that still exist (a deleted code's scans stay until they expire). */
export async function ofExistingCodes(
  accountId: string,
  perCode: AggregateRow[],
  ownedCodeIds: OwnedCodeIds,
): Promise<AggregateRow[]> {
  const existing = await ownedCodeIds(
    accountId,
    perCode.map((r) => String(r.codeId)),
  );
  return perCode.filter((r) => existing.has(String(r.codeId)));
}

export function createRawSource(db: Knex, ownedCodeIds: OwnedCodeIds): AnalyticsSource {
  const inWindow = (w: Window) => (b: Knex.QueryBuilder) => {
    if (w.from !== null) b.where('scans.scanned_at', '>=', w.from);
    if (w.to !== null) b.where('scans.scanned_at', '<', w.to);
    if (!w.includeBots) b.where('scans.is_bot', 0);
  };

  const scoped = (scope: Scope, w: Window) => {
    if (scope.kind === 'code') return db('scans').where('scans.code_id', scope.codeId).modify(inWindow(w));
    const query = db('scans').where('scans.account_id', scope.accountId).modify(inWindow(w));
    return scope.kind === 'codes' ? query.whereIn('scans.code_id', scope.codeIds()) : query;
  };

  /**
   * A scan is unique for its code, or for its account, as the writer flagged it. Some codes of
   * the account (a tag's) count a visitor once per code, as their rollups can.
   */
  const uniqueFlag = (scope: Scope) => (scope.kind === 'account' ? 'is_account_unique' : 'is_unique');

  /** Scans per code of the account in the window (of `only`, when given), deleted codes left out. */
  const perExistingCode = async (
    accountId: string,
    w: Window,
    only?: () => Knex.QueryBuilder,
  ): Promise<AggregateRow[]> => {
    const query = db('scans').where('scans.account_id', accountId).modify(inWindow(w));
    if (only) query.whereIn('scans.code_id', only());
    const perCode: AggregateRow[] = await query
      .select({ codeId: 'scans.code_id' })
      .count({ scans: '*' })
      .groupBy('scans.code_id');
    return ofExistingCodes(accountId, perCode, ownedCodeIds);
  };

  return {
    async buckets(scope, w, grid) {
      const { run, slice } = gridColumns('scans.scanned_at', grid);
      const rows = await scoped(scope, w)
        .select({ grid_run: db.raw(run), grid_slice: db.raw(slice) })
        .count({ scans: '*' })
        .sum({ unique: uniqueFlag(scope) })
        .groupBy('grid_run', 'grid_slice');
      return gridBuckets(rows, grid);
    },

    async weekHours(scope, w, runs) {
      const rows = await scoped(scope, w)
        .select({ week_hour: db.raw(weekHourColumn('scans.scanned_at', runs)) })
        .count({ scans: '*' })
        .groupBy('week_hour');
      return weekHourCounts(rows);
    },

    async breakdown(scope, dimension, w, top) {
      const column = DIMENSION_COLUMNS[dimension];
      const rows = await scoped(scope, w)
        .modify((b) => (SPARSE_DIMENSIONS.has(dimension) ? b.whereNotNull(column) : b))
        .select({ value: column })
        .count({ scans: '*' })
        .groupBy(column);
      return rankValues(
        rows.map((r: AggregateRow) => ({ value: r.value ?? null, scans: Number(r.scans) })),
        top,
      );
    },

    async codeRanking(accountId, w, top, only) {
      return rankCodes(await perExistingCode(accountId, w, only), top);
    },

    async totalsByCode(accountId, codeIds, w) {
      const rows = await db('scans')
        .where('scans.account_id', accountId)
        .whereIn('scans.code_id', [...codeIds])
        .modify(inWindow(w))
        .select({ codeId: 'code_id' })
        .count({ scans: '*' })
        .sum({ unique: 'is_unique' })
        .groupBy('code_id');
      return new Map<string, CodeTotals>(
        rows.map((r: AggregateRow) => [r.codeId, { scans: Number(r.scans), unique: Number(r.unique) }]),
      );
    },
  };
}
