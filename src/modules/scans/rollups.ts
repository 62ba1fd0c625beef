// Turns a batch of scan rows into rollup rows (see migrations/…_create_scan_rollups.ts).
// Aggregating the batch first means a burst on one code costs one upsert per row key, not one
// per scan (counters that many writers hit are never one hot row).
import type { ScanRow } from './store.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface CodeRollupRow {
  code_id: string;
  hour: number;
  is_bot: boolean;
  account_id: string;
  scans: number;
  unique_scans: number;
}

export interface DimensionRollupRow {
  code_id: string;
  dimension: string;
  day: number;
  is_bot: boolean;
  value: string;
  scans: number;
}

export interface AccountRollupRow {
  account_id: string;
  dimension: string;
  hour: number;
  is_bot: boolean;
  value: string;
  scans: number;
  unique_scans: number;
}

/** The stored column behind each breakdown dimension of a scan. */
const DIMENSIONS: Array<[string, (r: ScanRow) => string | null]> = [
  ['country', (r) => r.country],
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
const ACCOUNT_DIMENSIONS: Array<[string, (r: ScanRow) => string | null]> = [
  ['total', () => ''],
  ['country', (r) => r.country],
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

export function codeRollupRows(rows: ScanRow[]): CodeRollupRow[] {
  const groups = new Map<string, CodeRollupRow>();
  for (const r of rows) {
    const hour = startOf(r.scanned_at, HOUR_MS);
    const group = groupInto(groups, `${r.code_id}|${hour}|${r.is_bot}`, () => ({ code_id: r.code_id, hour, is_bot: r.is_bot, account_id: r.account_id, scans: 0, unique_scans: 0 }));
    if (r.is_unique) group.unique_scans += 1;
  }
  return [...groups.values()];
}

export function dimensionRollupRows(rows: ScanRow[]): DimensionRollupRow[] {
  const groups = new Map<string, DimensionRollupRow>();
  for (const r of rows) {
    const day = startOf(r.scanned_at, DAY_MS);
    for (const [dimension, valueOf] of DIMENSIONS) {
      const value = valueOf(r) ?? '';
      groupInto(groups, `${r.code_id}|${dimension}|${day}|${r.is_bot}|${value}`, () => ({ code_id: r.code_id, dimension, day, is_bot: r.is_bot, value, scans: 0 }));
    }
  }
  return [...groups.values()];
}

export function accountRollupRows(rows: ScanRow[]): AccountRollupRow[] {
  const groups = new Map<string, AccountRollupRow>();
  for (const r of rows) {
    const hour = startOf(r.scanned_at, HOUR_MS);
    for (const [dimension, valueOf] of ACCOUNT_DIMENSIONS) {
      const value = valueOf(r) ?? '';
      const group = groupInto(groups, `${r.account_id}|${dimension}|${hour}|${r.is_bot}|${value}`, () => ({ account_id: r.account_id, dimension, hour, is_bot: r.is_bot, value, scans: 0, unique_scans: 0 }));
      if (dimension === 'total' && r.is_account_unique) group.unique_scans += 1;
    }
  }
  return [...groups.values()];
}
