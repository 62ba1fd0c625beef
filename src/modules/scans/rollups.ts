// Turns a batch of scan rows into rollup rows: per code and hour, per combination of the
// breakdown dimensions; and per account and hour, per value of the overview's dimensions.
// Aggregating the batch first means a burst on one code costs one upsert, not one per scan
// (counters that many writers hit are never one hot row).
import { createHash } from 'node:crypto';
import type { ScanRow } from './store.ts';

const HOUR_MS = 3_600_000;

export interface CodeRollupRow {
  code_id: string;
  hour: number;
  is_bot: boolean;
  dims: string;
  account_id: string;
  rule_id: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  referrer_host: string;
  language: string;
  scans: number;
  unique_scans: number;
}

export interface AccountRollupRow {
  account_id: string;
  dimension: AccountDimension;
  hour: number;
  is_bot: boolean;
  value: string;
  scans: number;
  unique_scans: number;
}

/** What the overview breaks down by; 'total' rows carry the account's unique visitors. */
export const ACCOUNT_DIMENSIONS = ['total', 'country', 'device'] as const;
export type AccountDimension = (typeof ACCOUNT_DIMENSIONS)[number];

const hourOf = (at: number) => at - (at % HOUR_MS);

/** A short, stable name for one combination of dimension values (the key stays narrow). */
function dimsKey(values: string[]): string {
  return createHash('sha256').update(values.join('\u0000')).digest('base64url').slice(0, 16);
}

export function codeRollupRows(rows: ScanRow[]): CodeRollupRow[] {
  const groups = new Map<string, CodeRollupRow>();
  for (const r of rows) {
    const values = [r.rule_id ?? '', r.country ?? '', r.device ?? '', r.os ?? '', r.browser ?? '', r.referrer_host ?? '', r.language ?? ''];
    const hour = hourOf(r.scanned_at);
    const key = `${r.code_id}|${hour}|${r.is_bot ? 1 : 0}|${values.join('\u0000')}`;
    let group = groups.get(key);
    if (!group) {
      const [rule_id, country, device, os, browser, referrer_host, language] = values as [string, string, string, string, string, string, string];
      group = { code_id: r.code_id, hour, is_bot: r.is_bot, dims: dimsKey(values), account_id: r.account_id, rule_id, country, device, os, browser, referrer_host, language, scans: 0, unique_scans: 0 };
      groups.set(key, group);
    }
    group.scans += 1;
    if (r.is_unique) group.unique_scans += 1;
  }
  return [...groups.values()];
}

export function accountRollupRows(rows: ScanRow[]): AccountRollupRow[] {
  const groups = new Map<string, AccountRollupRow>();
  const add = (r: ScanRow, dimension: AccountDimension, value: string, unique: boolean) => {
    const hour = hourOf(r.scanned_at);
    const key = `${r.account_id}|${dimension}|${hour}|${r.is_bot ? 1 : 0}|${value}`;
    let group = groups.get(key);
    if (!group) {
      group = { account_id: r.account_id, dimension, hour, is_bot: r.is_bot, value, scans: 0, unique_scans: 0 };
      groups.set(key, group);
    }
    group.scans += 1;
    if (unique) group.unique_scans += 1;
  };
  for (const r of rows) {
    add(r, 'total', '', r.is_account_unique);
    add(r, 'country', r.country ?? '', false);
    add(r, 'device', r.device ?? '', false);
  }
  return [...groups.values()];
}
