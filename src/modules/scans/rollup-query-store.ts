// Analytics from the rollups (see migrations/…_create_scan_rollups.ts, …_create_account_daily_rollups.ts,
// …_create_code_daily_rollups.ts and …_quarter_hour_rollups.ts). Exact for windows on whole
// quarter hours, which the service checks before asking (every time zone's days and hours start
// on one). Breakdowns and code rankings read daily rollups for the whole UTC days of the window,
// and for the partial days at its edges the quarter-hour rollups or a code's raw scans.
// A tag's codes (a scope with `tagId`) have daily rollups of their own (tag_rollups).
import { DAY_MS, QUARTER_MS } from '../../shared/time.ts';
import type { Knex } from 'knex';
import { inTransaction, type Queryable } from '../../db/transaction.ts';
import type { OwnedCodeIds } from '../codes/index.ts';
import { topCodesByThreshold } from './code-ranking.ts';
import { queuedDimensionRows } from './dimension-deltas.ts';
import { TAG_DIMENSIONS } from './rollups.ts';
import { gridBuckets, gridColumns, weekHourColumn, weekHourCounts } from './time-grid.ts';
import { scannedOnDays } from './scan-days.ts';
import {
  ALL_VALUES,
  rankCodes,
  rankValues,
  type AggregateRow,
  type AnalyticsSource,
  type CodeTotals,
  type Scope,
  type ValueCount,
  type Window,
} from './scan-queries.ts';
import { ofExistingCodes } from './scan-query-store.ts';

/**
 * A window split into its whole slices of `width` (whole UTC days or quarters; null when it holds
 * none) and the partial slices at its edges, which rollups of that width cannot answer.
 */
function splitAt(w: Window, width: number): { whole: Window | null; edges: Window[] } {
  const first = w.from === null ? null : Math.ceil(w.from / width) * width;
  const end = w.to === null ? null : Math.floor(w.to / width) * width;
  if (first !== null && end !== null && first >= end) return { whole: null, edges: [w] };
  const edges: Window[] = [];
  if (first !== null && w.from! < first) edges.push({ ...w, to: first });
  if (end !== null && end < w.to!) edges.push({ ...w, from: end });
  return { whole: { ...w, from: first, to: end }, edges };
}

/** Rollups store an absent value as '' (so keys collide on MySQL); the API says null. */
const valueOf = (stored: string) => (stored === '' ? null : stored);

/** What the rollup source asks of the codes module: which codes exist (deleted ones do not). */
export interface ExistingCodes {
  owned: OwnedCodeIds;
}

/**
 * `codesOn` answers on a given connection or transaction: a ranking reads codes inside its own
 * read transaction (on SQLite's one connection, a read outside it would wait for it forever).
 */
export function createRollupSource(
  db: Knex,
  raw: AnalyticsSource,
  codesOn: (q: Queryable) => ExistingCodes,
): AnalyticsSource {
  const inWindow =
    (w: { from: number | null; to: number | null; includeBots: boolean }, table: string, column: string) =>
    (b: Knex.QueryBuilder) => {
      if (w.from !== null) b.where(`${table}.${column}`, '>=', w.from);
      if (w.to !== null) b.where(`${table}.${column}`, '<', w.to);
      if (!w.includeBots) b.where(`${table}.is_bot`, 0);
    };

  /**
   * Scans per code of the account in the window, from a rollup table (`time` names its time
   * column), of the codes of `only` when given; deleted codes included. The aggregate runs alone,
   * over the table's account index: joining it to `codes` in SQL let MariaDB choose a "split
   * materialized" plan on some data (one index range per code of the account), 0.5 s instead of
   * 60 ms on a million scans, depending on statistics.
   */
  const scansPerCode = async (
    q: Queryable,
    accountId: string,
    table: 'scan_rollups' | 'code_daily_rollups',
    time: 'hour' | 'day',
    w: Window,
    only?: () => Knex.QueryBuilder,
  ): Promise<Map<string, number>> => {
    const rows: AggregateRow[] = await q(table)
      .where(`${table}.account_id`, accountId)
      .modify(inWindow(w, table, time))
      .modify((b) => (only ? b.whereIn(`${table}.code_id`, only()) : b))
      .select({ codeId: 'code_id' })
      .sum({ scans: 'scans' })
      .groupBy('code_id');
    return new Map(rows.map((r) => [String(r.codeId), Number(r.scans)]));
  };

  /** Adds per-code counts of `b` into `a`. */
  const addInto = (a: Map<string, number>, b: Map<string, number>) => {
    for (const [codeId, scans] of b) a.set(codeId, (a.get(codeId) ?? 0) + scans);
    return a;
  };

  /**
   * How many existing codes of the account have scans in the window: in its whole days
   * (`days`) or in its edge quarters (`edges`, each code's scans there).
   */
  const countActive = async (
    q: Queryable,
    accountId: string,
    w: Window,
    days: { from: number; to: number },
    edges: ReadonlyMap<string, number>,
  ): Promise<number> => {
    const codes = codesOn(q);
    // Of the codes scanned at the edges, those the whole days do not count already.
    let notCountedInDays: (ids: string[]) => Promise<string[]>;
    let inDays: number;
    const reachesPresent =
      w.to === null ||
      (await q('scan_rollups').where('account_id', accountId).where('hour', '>=', w.to).first('hour')) === undefined;
    if (reachesPresent) {
      // No scan after the window: a code is active in its whole days if its last scan is in them.
      // Deleted codes are subtracted by their purge records (kept once the purge is done): they
      // are few, and a NOT IN probing the purges for each of 100,000 entries was a quarter of
      // the count's time.
      const last = w.includeBots ? 'last_day' : 'last_human_day';
      const scanned = (b: Knex.QueryBuilder) =>
        b.where('code_last_scans.account_id', accountId).where(`code_last_scans.${last}`, '>=', days.from);
      const [all, deleted] = await Promise.all([
        q('code_last_scans').modify(scanned).count({ n: '*' }).first(),
        q('code_purges')
          .join('code_last_scans', 'code_last_scans.code_id', 'code_purges.code_id')
          .where('code_purges.account_id', accountId)
          .modify(scanned)
          .count({ n: '*' })
          .first(),
      ]);
      inDays = Number(all?.n ?? 0) - Number(deleted?.n ?? 0);
      // Every code scanned at the end edge (today) is counted, its last scan being after the
      // whole days began. A code of the start edge is not when its last scan was on that edge's
      // day: those codes, one range of the index, rather than a probe per edge code (thousands
      // in a zone off UTC, whose days start inside a UTC day).
      const startDay = w.from === null ? days.from : Math.floor(w.from / DAY_MS) * DAY_MS;
      notCountedInDays = async (ids) => {
        const lastOnStartDay: string[] = await q('code_last_scans')
          .where('account_id', accountId)
          .where(last, '>=', startDay)
          .where(last, '<', days.from)
          .pluck('code_id');
        const edgeCodes = new Set(ids);
        return lastOnStartDay.filter((id) => edgeCodes.has(id));
      };
    } else {
      // A range in the past: the codes whose day bits meet the range's days (scan-days.ts), read
      // in one stretch of the account's rows per period. Deleted codes are subtracted as above.
      const scanned = scannedOnDays(days.from, days.to, w.includeBots);
      const scannedInDays = (b: Knex.QueryBuilder) => b.whereRaw(scanned.sql, scanned.bindings);
      // A code has one row per period: only over two periods can it count twice.
      const codesIn = (b: Knex.QueryBuilder) =>
        scanned.periods > 1 ? b.countDistinct({ n: 'd.code_id' }) : b.count({ n: '*' });
      const [all, deleted] = await Promise.all([
        q('code_scan_days as d').where('d.account_id', accountId).modify(scannedInDays).modify(codesIn).first(),
        q('code_purges')
          .join('code_scan_days as d', 'd.code_id', 'code_purges.code_id')
          .where('code_purges.account_id', accountId)
          .where('d.account_id', accountId)
          .modify(scannedInDays)
          .modify(codesIn)
          .first(),
      ]);
      inDays = Number(all?.n ?? 0) - Number(deleted?.n ?? 0);
      notCountedInDays = async (ids) => {
        const left = new Set(ids);
        for (let i = 0; i < ids.length; i += 1000) {
          const counted: string[] = await q('code_scan_days as d')
            .where('d.account_id', accountId)
            .whereIn('d.code_id', ids.slice(i, i + 1000))
            .modify(scannedInDays)
            .distinct('d.code_id')
            .pluck('code_id');
          for (const id of counted) left.delete(id);
        }
        return [...left];
      };
    }
    // Existence last: of the edge codes only those not counted yet, usually few, are looked up.
    const onlyAtEdges = await codes.owned(accountId, await notCountedInDays([...edges.keys()]));
    return inDays + onlyAtEdges.size;
  };

  /**
   * The window's whole days narrowed to the days the account has daily rows in (an open end
   * stops there too), or null when none of them is: fewer days to rank over.
   */
  const daysWithScans = async (q: Queryable, accountId: string, days: Window) => {
    const span = await q('code_daily_rollups')
      .where('account_id', accountId)
      .min({ first: 'day' })
      .max({ last: 'day' })
      .first();
    if (span?.first === null || span?.first === undefined) return null;
    const from = Math.max(days.from ?? -Infinity, Number(span.first));
    const to = Math.min(days.to ?? Infinity, Number(span.last) + DAY_MS);
    return from < to ? { from, to } : null;
  };

  /** Rows of one code, or of the codes of a `codes` scope (a subquery of their ids). */
  const ofCodes = (scope: Exclude<Scope, { kind: 'account' }>, table: string) => (b: Knex.QueryBuilder) =>
    scope.kind === 'code' ? b.where(`${table}.code_id`, scope.codeId) : b.whereIn(`${table}.code_id`, scope.codeIds());

  /** The rows of the scope in a rollup table: of a tag (tag_rollups), the account's, or of codes. */
  const ofScope = (scope: Scope, table: string, ofTag: boolean) =>
    ofTag && scope.kind === 'codes'
      ? db(table).where({ tag_id: scope.tagId, dimension: 'total' })
      : scope.kind === 'account'
        ? db(table).where({ account_id: scope.accountId, dimension: 'total' })
        : db(table).modify(ofCodes(scope, table));

  const counts = (rows: AggregateRow[]): ValueCount[] =>
    rows.map((r) => ({ value: valueOf(r.value), scans: Number(r.scans) }));

  /** Scans per value of a dimension in a rollup table's rows that `rowsOf` picks. */
  const valuesIn = (
    table: string,
    column: string,
    w: Window,
    rowsOf: (b: Knex.QueryBuilder) => Knex.QueryBuilder,
    q: Queryable = db,
  ) =>
    q(table)
      .modify(rowsOf)
      .modify(inWindow(w, table, column))
      .select('value')
      .sum({ scans: 'scans' })
      .groupBy('value')
      .then(counts);

  /** Scans per value of a dimension among the queued breakdown counts of the scope's codes. */
  const queuedValues = async (
    q: Queryable,
    scope: Exclude<Scope, { kind: 'account' }>,
    dimension: string,
    d: Window,
  ): Promise<ValueCount[]> => {
    const queued = await queuedDimensionRows(q, [dimension]);
    if (queued.length === 0) return [];
    const ofScope =
      scope.kind === 'code'
        ? new Set([scope.codeId])
        : new Set<string>(await q.from(scope.codeIds().as('of_scope')).pluck('code_id'));
    return queued
      .filter(
        (r) =>
          ofScope.has(r.code_id) &&
          (d.from === null || r.day >= d.from) &&
          (d.to === null || r.day < d.to) &&
          (d.includeBots || !r.is_bot),
      )
      .map((r) => ({ value: valueOf(r.value), scans: r.scans }));
  };

  return {
    async buckets(scope, w, grid) {
      // Daily rows for UTC days, quarter-hour rows for anything else (local days and hours of
      // any zone: their bounds fall on whole quarter hours, which the service checks), summed
      // into the grid's slices in SQL.
      const utcDays = grid.width === DAY_MS && grid.runs.every((run) => run.offset % DAY_MS === 0);
      if (!utcDays && (grid.width % QUARTER_MS !== 0 || grid.runs.some((r) => r.offset % QUARTER_MS !== 0)))
        throw new Error('rollups hold daily and quarter-hour slices only');
      const time = utcDays ? 'day' : 'hour';
      const ofTag = scope.kind === 'codes' && scope.tagId !== undefined && utcDays;
      const table = ofTag
        ? 'tag_rollups'
        : scope.kind === 'account'
          ? utcDays
            ? 'account_daily_rollups'
            : 'account_scan_rollups'
          : utcDays
            ? 'code_daily_rollups'
            : 'scan_rollups';
      const { run, slice } = gridColumns(`${table}.${time}`, grid);
      const rows = await ofScope(scope, table, ofTag)
        .modify(inWindow(w, table, time))
        .select({ grid_run: db.raw(run), grid_slice: db.raw(slice) })
        .sum({ scans: 'scans', unique: 'unique_scans' })
        .groupBy('grid_run', 'grid_slice');
      return gridBuckets(rows, grid);
    },

    async weekHours(scope, w, runs) {
      // Quarter-hour rows: each lies within one local hour in every zone.
      if (runs.some((r) => r.offset % QUARTER_MS !== 0)) throw new Error('rollups hold quarter hours only');
      const table = scope.kind === 'account' ? 'account_scan_rollups' : 'scan_rollups';
      const rows = await ofScope(scope, table, false)
        .modify(inWindow(w, table, 'hour'))
        .select({ week_hour: db.raw(weekHourColumn(`${table}.hour`, runs)) })
        .sum({ scans: 'scans' })
        .groupBy('week_hour');
      return weekHourCounts(rows);
    },

    async breakdown(scope, dimension, w, top) {
      // Whole UTC days from a daily rollup; the partial days at the edges from the account's
      // quarter-hour rollup, or from raw scans for a code (or a tag's codes): at most two days of them.
      const { whole: days, edges } = splitAt(w, DAY_MS);
      const tagId = scope.kind === 'codes' && TAG_DIMENSIONS.has(dimension) ? scope.tagId : undefined;
      const [wholeDays, partialDay] =
        tagId !== undefined
          ? [
              (d: Window) => valuesIn('tag_rollups', 'day', d, (b) => b.where({ tag_id: tagId, dimension })),
              (e: Window) => raw.breakdown(scope, dimension, e, ALL_VALUES),
            ]
          : scope.kind === 'account'
            ? [
                (d: Window) =>
                  valuesIn('account_daily_rollups', 'day', d, (b) =>
                    b.where({ account_id: scope.accountId, dimension }),
                  ),
                (e: Window) =>
                  valuesIn('account_scan_rollups', 'hour', e, (b) =>
                    b.where({ account_id: scope.accountId, dimension }),
                  ),
              ]
            : [
                // The rolled counts and those still queued, in one snapshot (see dimension-deltas.ts).
                (d: Window) =>
                  inTransaction(
                    db,
                    async (q) => [
                      ...(await valuesIn(
                        'scan_dimension_rollups',
                        'day',
                        d,
                        (b) => b.modify(ofCodes(scope, 'scan_dimension_rollups')).where({ dimension }),
                        q,
                      )),
                      ...(await queuedValues(q, scope, dimension, d)),
                    ],
                    'repeatable read',
                  ),
                (e: Window) => raw.breakdown(scope, dimension, e, ALL_VALUES),
              ];
      const parts = await Promise.all([days ? wholeDays(days) : [], ...edges.map(partialDay)]);
      return rankValues(parts.flat(), top);
    },

    async codeRanking(accountId, w, top, only) {
      const { whole: days, edges } = splitAt(w, DAY_MS);
      // Several statements, one snapshot: scans committed meanwhile are in all of them or none.
      return inTransaction(
        db,
        async (q) => {
          const codes = codesOn(q);
          const edgeScans = new Map<string, number>();
          for (const edge of edges)
            addInto(edgeScans, await scansPerCode(q, accountId, 'scan_rollups', 'hour', edge, only));
          const whole = days && (await daysWithScans(q, accountId, days));
          const everyCode = async () => {
            const perCode = whole
              ? addInto(
                  await scansPerCode(q, accountId, 'code_daily_rollups', 'day', { ...w, ...whole }, only),
                  edgeScans,
                )
              : edgeScans;
            const rows = [...perCode].map(([codeId, scans]) => ({ codeId, scans }));
            return rankCodes(await ofExistingCodes(accountId, rows, codes.owned), top);
          };
          // A tag's codes are few: summing each is cheap. The account's may be a hundred thousand.
          if (only || !whole) return everyCode();
          const range = { accountId, firstDay: whole.from, endDay: whole.to, includeBots: w.includeBots };
          const ranked = await topCodesByThreshold(q, codes.owned, { ...range, edges: edgeScans }, top);
          if (!ranked) return everyCode();
          return { active: await countActive(q, accountId, w, whole, edgeScans), top: ranked };
        },
        'repeatable read',
      );
    },

    async totalsByCode(accountId, codeIds, w) {
      // Whole UTC days from the daily rollups, whole quarters around them from the quarter-hour
      // ones, and what is left at the edges (minutes of a quarter) from raw scans.
      const { whole: quarters, edges: partialQuarters } = splitAt(w, QUARTER_MS);
      const { whole: days, edges: partialDays } = quarters ? splitAt(quarters, DAY_MS) : { whole: null, edges: [] };
      const ids = [...codeIds];
      const totalsIn = (table: 'scan_rollups' | 'code_daily_rollups', time: 'hour' | 'day') => async (part: Window) => {
        const rows = await db(table)
          .where(`${table}.account_id`, accountId)
          .whereIn(`${table}.code_id`, ids)
          .modify(inWindow(part, table, time))
          .select({ codeId: 'code_id' })
          .sum({ scans: 'scans', unique: 'unique_scans' })
          .groupBy('code_id');
        return new Map<string, CodeTotals>(
          rows.map((r: AggregateRow) => [r.codeId, { scans: Number(r.scans), unique: Number(r.unique) }]),
        );
      };
      const parts = await Promise.all([
        ...(days ? [totalsIn('code_daily_rollups', 'day')(days)] : []),
        ...partialDays.map(totalsIn('scan_rollups', 'hour')),
        ...partialQuarters.map((part) => raw.totalsByCode(accountId, codeIds, part)),
      ]);
      const totals = new Map<string, CodeTotals>();
      for (const part of parts) {
        for (const [codeId, t] of part) {
          const sum = totals.get(codeId) ?? { scans: 0, unique: 0 };
          totals.set(codeId, { scans: sum.scans + t.scans, unique: sum.unique + t.unique });
        }
      }
      return totals;
    },
  };
}
