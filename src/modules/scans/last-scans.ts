// Each code's last day with scans (code_last_scans), which the overview's count of active codes
// reads. A code's row changes at most once a day (once for its first human scan of the day), yet
// every batch with a scan of it would upsert it again: the writer remembers what it stored and
// leaves out rows that would change nothing. The same memory saves the day bits' writes.
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
 * The latest day with human scans and with bot scans that this writer stored per code, once
 * their batch committed. Both tables it saves writes to change only on a code's first scan of
 * a day:
 * - code_last_scans only ever takes the greater value, so a row at or below what this writer
 *   stored changes nothing, whatever other writers did;
 * - code_scan_days (scan-days.ts) only ever gains bits, and scans come in time order, so most
 *   batches repeat the day their code was last stored. A row of another day is written,
 *   earlier or later.
 */
export function createCodeDayMemo() {
  const stored = new Map<string, { human: number; bot: number }>();
  return {
    /** The last-scan rows that may raise what is stored. */
    lastScanNews(rows: CodeLastScanRow[]): CodeLastScanRow[] {
      return rows.filter((r) => {
        const known = stored.get(r.code_id);
        return !known || r.last_day > Math.max(known.human, known.bot) || r.last_human_day > known.human;
      });
    },
    /** The daily rows whose day's bit this writer has not stored last. */
    scanDayNews(days: CodeDailyRollupRow[]): CodeDailyRollupRow[] {
      return days.filter((d) => {
        const known = stored.get(d.code_id);
        return !known || (d.is_bot ? known.bot : known.human) !== d.day;
      });
    },
    /** The daily rows of a committed batch. */
    remember(days: CodeDailyRollupRow[]): void {
      if (stored.size + days.length > MAX_REMEMBERED) stored.clear();
      for (const d of days) {
        const known = stored.get(d.code_id) ?? { human: -1, bot: -1 };
        if (d.is_bot) known.bot = Math.max(known.bot, d.day);
        else known.human = Math.max(known.human, d.day);
        stored.set(d.code_id, known);
      }
    },
  };
}

export type CodeDayMemo = ReturnType<typeof createCodeDayMemo>;
