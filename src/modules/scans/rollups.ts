// Turns a batch of scan rows into rollup rows (see migrations/…_create_scan_rollups.ts).
// Aggregating the batch first means a burst on one code costs one upsert per row key, not one
// per scan (counters that many writers hit are never one hot row).
import { DAY_MS, QUARTER_MS } from '../../shared/time.ts';
import type { ScanRow } from './store.ts';

/**
 * A code's scans of a quarter hour (scan_rollups). `hour`, the column's name from when rows were
 * hours, is the start of the quarter; hours from before quarters whose raw scans were gone stay
 * whole, at their hour's start (migrations/…_quarter_hour_rollups.ts).
 */
export interface CodeRollupRow {
  code_id: string;
  hour: number;
  is_bot: boolean;
  account_id: string;
  scans: number;
  unique_scans: number;
  /** The scans that went to the code's destination: what max_scans counts (non-bot rows). */
  redirects: number;
}

export interface DimensionRollupRow {
  code_id: string;
  dimension: string;
  day: number;
  is_bot: boolean;
  value: string;
  scans: number;
}

/** An account's scans of a quarter hour per dimension value (account_scan_rollups); `hour` as in CodeRollupRow. */
export interface AccountRollupRow {
  account_id: string;
  dimension: string;
  hour: number;
  is_bot: boolean;
  value: string;
  scans: number;
  unique_scans: number;
}

/** The account rollup summed by UTC day (account_daily_rollups), for long ranges. */
export type AccountDailyRollupRow = Omit<AccountRollupRow, 'hour'> & { day: number };

/** The code rollup summed by UTC day (code_daily_rollups), for rankings over long ranges. */
export type CodeDailyRollupRow = Omit<CodeRollupRow, 'hour' | 'redirects'> & { day: number };

/**
 * The stored column behind each breakdown dimension of a scan. Region and city are sparse: a scan
 * without them (no GEOIP_CITY_DB, or an address the database does not place) adds no rollup row
 * for them, so they cost nothing when off. With a city database a placed scan adds up to two rows
 * to each of the daily and the account rollups (region and city), fewer as scans of a batch share
 * a code-day or an account-hour and a place.
 */
const DIMENSIONS: Dimensions = [
  ['country', (r) => r.country],
  ['region', (r) => r.region ?? null, true],
  ['city', (r) => r.city ?? null, true],
  ['device', (r) => r.device],
  ['os', (r) => r.os],
  ['browser', (r) => r.browser],
  ['referrer', (r) => r.referrer_host],
  ['language', (r) => r.language],
  ['rule', (r) => r.rule_id],
];

/**
 * What the account overview breaks down by; its 'total' rows carry account-wide uniques. Values
 * as scans store them (a referrer host has up to 191 characters, the rollup's value too).
 */
const ACCOUNT_DIMENSIONS: Dimensions = [
  ['total', () => ''],
  ['country', (r) => r.country],
  ['region', (r) => r.region ?? null, true],
  ['city', (r) => r.city ?? null, true],
  ['device', (r) => r.device],
  ['os', (r) => r.os],
  ['browser', (r) => r.browser],
  ['referrer', (r) => r.referrer_host],
];

const startOf = (at: number, width: number) => at - (at % width);

/** Sums rows into groups by key; `make` creates a group the first time its key is seen. */
function groupInto<T extends { scans: number }>(groups: Map<string, T>, key: string, make: () => T): T {
  let group = groups.get(key);
  if (!group) {
    group = make();
    groups.set(key, group);
  }
  group.scans += 1;
  return group;
}

/** Name, value of a scan, and whether a null value is left out (no row) rather than counted as ''. */
type Dimensions = ReadonlyArray<readonly [string, (r: ScanRow) => string | null, sparse?: boolean]>;

/**
 * Counts each scan once per dimension, grouped by a key shared by the scan's dimensions (code or
 * account, time bucket, bot) and then by dimension and value. The shared key is built once per
 * scan rather than once per dimension: the writer runs this for every scan on the redirect's
 * thread. Groups come out in the order first seen.
 */
function groupByDimension<T extends { scans: number }>(
  rows: ScanRow[],
  dimensions: Dimensions,
  sharedKey: (r: ScanRow) => string,
  make: (r: ScanRow, dimension: string, value: string) => T,
  count?: (group: T, r: ScanRow, dimension: string) => void,
): T[] {
  const byShared = new Map<string, Map<string, T>[]>();
  const groups: T[] = [];
  for (const r of rows) {
    const key = sharedKey(r);
    let byDimension = byShared.get(key);
    if (!byDimension) byShared.set(key, (byDimension = dimensions.map(() => new Map<string, T>())));
    for (let i = 0; i < dimensions.length; i++) {
      const [dimension, valueOf, sparse] = dimensions[i]!;
      const stored = valueOf(r);
      if (sparse && stored === null) continue;
      const value = stored ?? '';
      const byValue = byDimension[i]!;
      let group = byValue.get(value);
      if (!group) {
        group = make(r, dimension, value);
        byValue.set(value, group);
        groups.push(group);
      }
      group.scans += 1;
      count?.(group, r, dimension);
    }
  }
  return groups;
}

export function codeRollupRows(rows: ScanRow[]): CodeRollupRow[] {
  const groups = new Map<string, CodeRollupRow>();
  for (const r of rows) {
    const hour = startOf(r.scanned_at, QUARTER_MS);
    const group = groupInto(groups, `${r.code_id}|${hour}|${r.is_bot}`, () => ({
      code_id: r.code_id,
      hour,
      is_bot: r.is_bot,
      account_id: r.account_id,
      scans: 0,
      unique_scans: 0,
      redirects: 0,
    }));
    if (r.is_unique) group.unique_scans += 1;
    if ((r.outcome ?? 'redirect') === 'redirect') group.redirects += 1;
  }
  return [...groups.values()];
}

export function dimensionRollupRows(rows: ScanRow[]): DimensionRollupRow[] {
  return groupByDimension(
    rows,
    DIMENSIONS,
    (r) => `${r.code_id}|${startOf(r.scanned_at, DAY_MS)}|${r.is_bot}`,
    (r, dimension, value) => ({
      code_id: r.code_id,
      dimension,
      day: startOf(r.scanned_at, DAY_MS),
      is_bot: r.is_bot,
      value,
      scans: 0,
    }),
  );
}

/** One queued entry of scan_dimension_deltas: [code_id, day, is_bot (0/1), value, scans]. */
type DimensionDeltaEntry = [string, number, 0 | 1, string, number];

/** A batch's dimension rows as queued: a row per dimension, its entries packed as JSON. */
export function packDimensionDeltas(rows: DimensionRollupRow[]): Array<{ dimension: string; entries: string }> {
  const byDimension = new Map<string, DimensionDeltaEntry[]>();
  for (const r of rows) {
    let entries = byDimension.get(r.dimension);
    if (!entries) byDimension.set(r.dimension, (entries = []));
    entries.push([r.code_id, r.day, r.is_bot ? 1 : 0, r.value, r.scans]);
  }
  return [...byDimension].map(([dimension, entries]) => ({ dimension, entries: JSON.stringify(entries) }));
}

export function unpackDimensionDeltas(dimension: string, entries: string): DimensionRollupRow[] {
  return (JSON.parse(entries) as DimensionDeltaEntry[]).map(([code_id, day, bot, value, scans]) => ({
    code_id,
    dimension,
    day,
    is_bot: bot === 1,
    value,
    scans,
  }));
}

/** Dimension rows with the same key summed into one. */
export function summedDimensionRows(rows: DimensionRollupRow[]): DimensionRollupRow[] {
  const sums = new Map<string, DimensionRollupRow>();
  for (const r of rows) {
    const key = `${r.code_id}|${r.dimension}|${r.day}|${r.is_bot}|${r.value}`;
    const sum = sums.get(key);
    if (sum) sum.scans += r.scans;
    else sums.set(key, { ...r });
  }
  return [...sums.values()];
}

export function accountRollupRows(rows: ScanRow[]): AccountRollupRow[] {
  return groupByDimension(
    rows,
    ACCOUNT_DIMENSIONS,
    (r) => `${r.account_id}|${startOf(r.scanned_at, QUARTER_MS)}|${r.is_bot}`,
    (r, dimension, value) => ({
      account_id: r.account_id,
      dimension,
      hour: startOf(r.scanned_at, QUARTER_MS),
      is_bot: r.is_bot,
      value,
      scans: 0,
      unique_scans: 0,
    }),
    (group, r, dimension) => {
      if (dimension === 'total' && r.is_account_unique) group.unique_scans += 1;
    },
  );
}

/** Sums quarter-hour rollup rows by UTC day; `keyOf` names what else tells a daily row apart. */
function summedByDay<R extends { hour: number; scans: number; unique_scans: number }>(
  quarters: R[],
  keyOf: (row: R) => string,
): Array<Omit<R, 'hour'> & { day: number }> {
  const days = new Map<string, Omit<R, 'hour'> & { day: number }>();
  for (const row of quarters) {
    const { hour, ...rest } = row;
    const day = startOf(hour, DAY_MS);
    const key = `${keyOf(row)}|${day}`;
    const sum = days.get(key);
    if (sum) {
      sum.scans += rest.scans;
      sum.unique_scans += rest.unique_scans;
    } else days.set(key, { ...rest, day });
  }
  return [...days.values()];
}

/** Quarter-hour account rollup rows summed by UTC day: what a batch adds to the daily rollup. */
export function accountDailyRollupRows(quarters: AccountRollupRow[]): AccountDailyRollupRow[] {
  return summedByDay(quarters, (r) => `${r.account_id}|${r.dimension}|${r.is_bot}|${r.value}`);
}

/** Quarter-hour code rollup rows summed by UTC day (code_daily_rollups, which has no `redirects`). */
export function codeDailyRollupRows(quarters: CodeRollupRow[]): CodeDailyRollupRow[] {
  return summedByDay(
    quarters.map(({ redirects: _, ...row }) => row),
    (r) => `${r.code_id}|${r.is_bot}`,
  );
}

/** A tag's scans per UTC day (tag_rollups): 'total' rows with uniques, and a row per breakdown value. */
export interface TagRollupRow {
  tag_id: string;
  dimension: string;
  day: number;
  is_bot: boolean;
  value: string;
  scans: number;
  unique_scans: number;
}

/** The dimensions a tag's rollup keeps: the account overview's, which a tag's overview shows. */
export const TAG_DIMENSIONS: ReadonlySet<string> = new Set(ACCOUNT_DIMENSIONS.map(([dimension]) => dimension));

/** A tag of a code, and whether the code's rows are added to it (1) or subtracted (-1). */
export interface SignedTag {
  tagId: string;
  sign: 1 | -1;
}

/**
 * Codes' daily totals and breakdown rows added to (or subtracted from) each tag `tagsOf` names
 * for the code, summed per tag row. Codes without tags add nothing.
 */
export function tagRollupRows(
  days: readonly CodeDailyRollupRow[],
  dimensions: readonly DimensionRollupRow[],
  tagsOf: ReadonlyMap<string, readonly SignedTag[]>,
): TagRollupRow[] {
  const sums = new Map<string, TagRollupRow>();
  const add = (codeId: string, row: Omit<TagRollupRow, 'tag_id'>) => {
    for (const { tagId, sign } of tagsOf.get(codeId) ?? []) {
      const key = `${tagId}|${row.dimension}|${row.day}|${row.is_bot}|${row.value}`;
      const sum = sums.get(key) ?? { tag_id: tagId, ...row, scans: 0, unique_scans: 0 };
      sum.scans += sign * row.scans;
      sum.unique_scans += sign * row.unique_scans;
      sums.set(key, sum);
    }
  };
  for (const d of days) {
    add(d.code_id, {
      dimension: 'total',
      day: d.day,
      is_bot: d.is_bot,
      value: '',
      scans: d.scans,
      unique_scans: d.unique_scans,
    });
  }
  for (const d of dimensions) {
    if (TAG_DIMENSIONS.has(d.dimension))
      add(d.code_id, {
        dimension: d.dimension,
        day: d.day,
        is_bot: d.is_bot,
        value: d.value,
        scans: d.scans,
        unique_scans: 0,
      });
  }
  return [...sums.values()];
}
