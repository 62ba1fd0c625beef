// Analytics from the hourly rollups (see migrations/…_create_scan_rollups.ts). Exact for
// windows on whole UTC hours, which the service checks before asking.
import type { Knex } from 'knex';
import { HOUR_MS } from './periods.ts';
import { DIMENSION_COLUMNS, type AggregateRow, type AnalyticsSource, type CodeTotals, type Scope, type Window } from './source.ts';

/** Rollups store an absent value as '' (so keys collide on MySQL); the API says null. */
const valueOf = (stored: string) => (stored === '' ? null : stored);

export function createRollupSource(db: Knex): AnalyticsSource {
  const inWindow = (w: Window, table: string) => (b: Knex.QueryBuilder) => {
    if (w.from !== null) b.where(`${table}.hour`, '>=', w.from);
    if (w.to !== null) b.where(`${table}.hour`, '<', w.to);
    if (!w.includeBots) b.where(`${table}.is_bot`, 0);
  };

  /** Rows of the scope: a code's combinations, or an account's rows of one dimension. */
  function scoped(scope: Scope, accountDimension: string): Knex.QueryBuilder {
    return scope.kind === 'code'
      ? db('scan_rollups').where('scan_rollups.code_id', scope.codeId)
      : db('account_scan_rollups').where({ 'account_scan_rollups.account_id': scope.accountId, 'account_scan_rollups.dimension': accountDimension });
  }
  const tableOf = (scope: Scope) => (scope.kind === 'code' ? 'scan_rollups' : 'account_scan_rollups');

  /** The account's rollup rows of codes that still exist. */
  const existingCodes = (accountId: string, w: Window) =>
    db('scan_rollups')
      .join('codes', 'codes.id', 'scan_rollups.code_id')
      .where('scan_rollups.account_id', accountId)
      .modify(inWindow(w, 'scan_rollups'));

  return {
    async buckets(scope, w, widthMs) {
      if (widthMs !== HOUR_MS) throw new Error('rollups hold hourly buckets only');
      const rows = await scoped(scope, 'total')
        .modify(inWindow(w, tableOf(scope)))
        .select({ at: 'hour' })
        .sum({ scans: 'scans', unique: 'unique_scans' })
        .groupBy('hour')
        .orderBy('hour');
      return rows.map((r: AggregateRow) => ({ at: Number(r.at), scans: Number(r.scans), unique: Number(r.unique) }));
    },

    async breakdown(scope, dimension, w, top) {
      const column = scope.kind === 'code' ? DIMENSION_COLUMNS[dimension] : 'value';
      const rows = await scoped(scope, dimension)
        .modify(inWindow(w, tableOf(scope)))
        .select({ value: column })
        .sum({ scans: 'scans' })
        .groupBy(column)
        .orderBy([{ column: 'scans', order: 'desc' }, { column: 'value' }])
        .limit(top);
      return rows.map((r: AggregateRow) => ({ value: valueOf(r.value), scans: Number(r.scans) }));
    },

    async topCodes(accountId, w, top) {
      const rows = await existingCodes(accountId, w)
        .select({ codeId: 'scan_rollups.code_id' })
        .sum({ scans: 'scan_rollups.scans' })
        .groupBy('scan_rollups.code_id')
        .orderBy([{ column: 'scans', order: 'desc' }, { column: 'codeId' }])
        .limit(top);
      return rows.map((r: AggregateRow) => ({ codeId: r.codeId, scans: Number(r.scans) }));
    },

    async activeCodes(accountId, w) {
      const row = await existingCodes(accountId, w).countDistinct({ n: 'scan_rollups.code_id' }).first();
      return Number(row?.n ?? 0);
    },

    async totalsByCode(accountId, codeIds, w) {
      const rows = await db('scan_rollups')
        .where('scan_rollups.account_id', accountId)
        .whereIn('scan_rollups.code_id', [...codeIds])
        .modify(inWindow(w, 'scan_rollups'))
        .select({ codeId: 'code_id' })
        .sum({ scans: 'scans', unique: 'unique_scans' })
        .groupBy('code_id');
      return new Map<string, CodeTotals>(rows.map((r: AggregateRow) => [r.codeId, { scans: Number(r.scans), unique: Number(r.unique) }]));
    },
  };
}
