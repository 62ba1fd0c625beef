// Which UTC days each code had scans on, as bits (code_scan_days), for the overview's count of
// active codes in a range wholly in the past. Counting the codes with a daily row in such a range
// took about a second at 100,000 codes, whether by one probe per code or by reading every daily
// row of the range; the bits answer it by one read of the account's rows of a period, a row per
// code (and a count of distinct codes over two periods when the range crosses into the next).
// Each code has two sets of rows: the days with human scans (with_bots false), and the days with
// any scan (with_bots true), so that either count reads one set and needs no DISTINCT.
//
// Days are numbered from the epoch and cut into periods of PERIOD_DAYS. A period's days are held
// in WORDS integer columns (w0…w7) of WORD_BITS bits each: fewer than 53, so every word and mask
// is a safe JavaScript integer, and every engine's 64-bit integers hold them.
import type { CodeDailyRollupRow } from './rollups.ts';

const DAY_MS = 86_400_000;
export const WORD_BITS = 50;
export const WORDS = 8;
export const PERIOD_DAYS = WORD_BITS * WORDS;
export const WORD_COLUMNS = Array.from({ length: WORDS }, (_, i) => `w${i}`);

export interface CodeScanDayRow {
  account_id: string;
  code_id: string;
  period: number;
  with_bots: boolean;
  /** w0…w7: bit b of word w is the period's day w × WORD_BITS + b. */
  [word: `w${number}`]: number;
}

/** Where a UTC day (epoch milliseconds at its midnight) sits: its period, word and bit. */
function placeOf(dayMs: number): { period: number; word: number; bit: number } {
  const day = Math.floor(dayMs / DAY_MS);
  const inPeriod = day % PERIOD_DAYS;
  return { period: (day - inPeriod) / PERIOD_DAYS, word: Math.floor(inPeriod / WORD_BITS), bit: inPeriod % WORD_BITS };
}

/** A batch's daily code rows as day bits: per code and period, a human row and an any-scan row. */
export function codeScanDayRows(days: readonly CodeDailyRollupRow[]): CodeScanDayRow[] {
  const marked = new Map<string, { row: CodeScanDayRow; days: Set<number> }>();
  for (const d of days) {
    const { period, word, bit } = placeOf(d.day);
    for (const withBots of d.is_bot ? [true] : [false, true]) {
      const key = `${d.code_id}|${period}|${withBots}`;
      let entry = marked.get(key);
      if (!entry) {
        const row: CodeScanDayRow = { account_id: d.account_id, code_id: d.code_id, period, with_bots: withBots };
        for (const column of WORD_COLUMNS) row[column as `w${number}`] = 0;
        entry = { row, days: new Set() };
        marked.set(key, entry);
      }
      // A day of human and bot scans comes twice to the any-scan row: its bit is added once.
      if (entry.days.has(d.day)) continue;
      entry.days.add(d.day);
      entry.row[`w${word}`]! += 2 ** bit;
    }
  }
  return [...marked.values()].map((e) => e.row);
}

/** Per period touched by the whole UTC days [fromDay, toDay), the mask of each word (0: none of its days). */
export function dayMasks(fromDay: number, toDay: number): Map<number, number[]> {
  const masks = new Map<number, number[]>();
  for (let day = fromDay; day < toDay; day += DAY_MS) {
    const { period, word, bit } = placeOf(day);
    const words = masks.get(period) ?? new Array<number>(WORDS).fill(0);
    words[word]! += 2 ** bit;
    masks.set(period, words);
  }
  return masks;
}

/** Code-days a live writer remembers marking, so its later batches leave them out. */
const MAX_REMEMBERED = 50_000;

/**
 * The last day this writer marked per code and bot flag, once its batch committed. Scans come
 * in time order, so most batches repeat the day their code was last marked: those rows would set
 * bits already set. A row of another day is written, earlier or later (bits only ever get set).
 */
export function createScanDayMemo() {
  const marked = new Map<string, number>();
  const keyOf = (d: CodeDailyRollupRow) => `${d.code_id}|${d.is_bot}`;
  return {
    /** The daily rows whose day this writer has not marked last. */
    news(days: CodeDailyRollupRow[]): CodeDailyRollupRow[] {
      return days.filter((d) => marked.get(keyOf(d)) !== d.day);
    },
    /** Daily rows of a committed batch. */
    remember(days: CodeDailyRollupRow[]): void {
      if (marked.size + days.length > MAX_REMEMBERED) marked.clear();
      for (const d of days) marked.set(keyOf(d), Math.max(marked.get(keyOf(d)) ?? -1, d.day));
    },
  };
}

export type ScanDayMemo = ReturnType<typeof createScanDayMemo>;
