// What analytics ask of scans, answered by the scans module's query stores from quarter-hour and
// daily rollups (rollup-query-store.ts) or from raw scans (scan-query-store.ts) alike. The
// analytics service picks the rollups whenever they can answer exactly; raw scans answer the rest
// (minutes off the quarter hour, old local mean times) and serve as the reference the
// rollups are tested and benchmarked against. Declared here, with the tables' owner.
import type { Knex } from 'knex';
import type { DbRow } from '../../db/rows.ts';
import type { Grid, OffsetRun, WeekHourCount } from './time-grid.ts';

/** One value of a breakdown and its scans; null when the scan did not tell (no Referer, unknown country...). */
export interface ValueCount {
  value: string | null;
  scans: number;
}

/** Per-code breakdowns, as the API names them. */
export const CODE_DIMENSIONS = [
  'country',
  'region',
  'city',
  'device',
  'os',
  'browser',
  'referrer',
  'language',
  'rule',
] as const;
export type CodeDimension = (typeof CODE_DIMENSIONS)[number];

/**
 * Dimensions whose unknown values are not counted (no rollup rows, no null entry): region and
 * city, known only with GEOIP_CITY_DB (rollups.ts).
 */
export const SPARSE_DIMENSIONS: ReadonlySet<CodeDimension> = new Set(['region', 'city']);

/** The column behind each dimension; raw scans and code rollups name them alike. */
export const DIMENSION_COLUMNS: Record<CodeDimension, string> = {
  country: 'country',
  region: 'region',
  city: 'city',
  device: 'device',
  os: 'os',
  browser: 'browser',
  referrer: 'referrer_host',
  language: 'language',
  rule: 'rule_id',
};

/**
 * One code, the whole account, or some of the account's codes (those carrying a tag): `codeIds`
 * makes a fresh subquery of their ids (its one column named code_id) each time it is called.
 */
export type Scope =
  | { kind: 'code'; codeId: string }
  | { kind: 'account'; accountId: string }
  /** Codes of the account; `tagId` when they are a tag's, whose own rollups then answer. */
  | { kind: 'codes'; accountId: string; codeIds: () => Knex.QueryBuilder; tagId?: string };

/** A half-open time range in epoch milliseconds; null ends are unbounded. */
export interface Window {
  from: number | null;
  to: number | null;
  includeBots: boolean;
}

/** Counts of one time slice [at, at + width). */
export interface Bucket {
  at: number;
  scans: number;
  unique: number;
}

export interface CodeRanking {
  active: number;
  top: Array<{ codeId: string; scans: number }>;
}

/** Ranks per-code sums (one aggregate serves both answers), ties by id. */
export function rankCodes(perCode: AggregateRow[], top: number): CodeRanking {
  const ranked = perCode
    .map((r) => ({ codeId: String(r.codeId), scans: Number(r.scans) }))
    .sort((a, b) => b.scans - a.scans || (a.codeId < b.codeId ? -1 : 1));
  return { active: ranked.length, top: ranked.slice(0, top) };
}

export interface CodeTotals {
  scans: number;
  unique: number;
}

/** Every value of a dimension, for sources that merge partial counts before ranking. */
export const ALL_VALUES = 2 ** 31 - 1;

/**
 * The `top` values by scans, ties by value (none first). Ranked here rather than in SQL, so
 * every source orders alike whatever the database's collation. A value whose counts sum to
 * zero is left out: a tag's rollups keep the rows that untagging a code brought to zero.
 */
export function rankValues(counts: Iterable<ValueCount>, top: number): ValueCount[] {
  const byValue = new Map<string | null, number>();
  for (const c of counts) byValue.set(c.value, (byValue.get(c.value) ?? 0) + c.scans);
  return [...byValue]
    .filter(([, scans]) => scans !== 0)
    .map(([value, scans]) => ({ value, scans }))
    .sort(
      (a, b) =>
        b.scans - a.scans ||
        (a.value === b.value ? 0 : a.value === null ? -1 : b.value === null ? 1 : a.value < b.value ? -1 : 1),
    )
    .slice(0, top);
}

export interface AnalyticsSource {
  /** Counts per time slice of the grid (slices with no scans are absent). */
  buckets(scope: Scope, window: Window, grid: Grid): Promise<Bucket[]>;
  /** Scans per hour of the week in local time, the zone's offsets given as runs (hours with none are absent). */
  weekHours(scope: Scope, window: Window, runs: readonly OffsetRun[]): Promise<WeekHourCount[]>;
  /** The `top` most frequent values of a dimension, most scans first, then by value. */
  breakdown(scope: Scope, dimension: CodeDimension, window: Window, top: number): Promise<ValueCount[]>;
  /**
   * How many of the account's existing codes (of `only`, when given) were scanned, and the `top` with the most scans.
   */
  codeRanking(accountId: string, window: Window, top: number, only?: () => Knex.QueryBuilder): Promise<CodeRanking>;
  /** Totals for each of the given codes of the account, in one query (for DataLoader). */
  totalsByCode(accountId: string, codeIds: readonly string[], window: Window): Promise<Map<string, CodeTotals>>;
}

/** A row of a GROUP BY as the drivers return it (sums may come back as strings). */
export type AggregateRow = DbRow;
