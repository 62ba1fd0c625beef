// Each code's last day with scans (code_last_scans), which the overview's count of active codes
// reads. A code's row changes at most once a day (once for its first human scan of the day), yet
// every batch with a scan of it would upsert it again: the writer remembers what it stored and
// leaves out rows that would change nothing.
import type { CodeDailyRollupRow } from './rollups.ts';

export interface CodeLastScanRow {
  code_id: string;
  account_id: string;
  last_day: number;
  /** -1 when the code has no human (non-bot) scan yet. */
  last_human_day: number;
}

/** What a batch's daily code rows say of each code's last days. */
export function codeLastScanRows(days: CodeDailyRollupRow[]): CodeLastScanRow[] {
  const byCode = new Map<string, CodeLastScanRow>();
  for (const d of days) {
    const row = byCode.get(d.code_id) ?? {
      code_id: d.code_id,
      account_id: d.account_id,
      last_day: -1,
      last_human_day: -1,
    };
    row.last_day = Math.max(row.last_day, d.day);
    if (!d.is_bot) row.last_human_day = Math.max(row.last_human_day, d.day);
    byCode.set(d.code_id, row);
  }
  return [...byCode.values()];
}

/** Codes remembered at most; past it the memory starts again (it only saves writes). */
const MAX_REMEMBERED = 50_000;

/**
 * The last days this writer stored per code, once their batch committed. The table only ever
 * takes the greater value, so a row at or below what this writer stored changes nothing,
 * whatever other writers did.
 */
export function createLastScanMemo() {
  const stored = new Map<string, { last: number; human: number }>();
  return {
    /** The rows that may raise what is stored. */
    news(rows: CodeLastScanRow[]): CodeLastScanRow[] {
      return rows.filter((r) => {
        const known = stored.get(r.code_id);
        return !known || r.last_day > known.last || r.last_human_day > known.human;
      });
    },
    /** Rows of a committed batch. */
    remember(rows: CodeLastScanRow[]): void {
      if (stored.size + rows.length > MAX_REMEMBERED) stored.clear();
      for (const r of rows) {
        const known = stored.get(r.code_id);
        stored.set(r.code_id, {
          last: Math.max(known?.last ?? -1, r.last_day),
          human: Math.max(known?.human ?? -1, r.last_human_day),
        });
      }
    },
  };
}

export type LastScanMemo = ReturnType<typeof createLastScanMemo>;
