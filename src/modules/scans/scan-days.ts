// Which UTC days each code had scans on, as bits (code_scan_days), for the overview's count of
// active codes in a range wholly in the past. Counting the codes with a daily row in such a range
// took about a second at 100,000 codes, whether by one probe per code or by reading every daily
// row of the range; the bits answer it by one read of the account's rows of a period, one row per
// code (and a count of distinct codes over two periods when the range crosses into the next).
//
// Days are numbered from the epoch and cut into periods of PERIOD_DAYS. A row holds a period's
// days with human scans in WORDS integer columns h0…h7 and its days with bot scans in b0…b7,
// WORD_BITS bits each: fewer than 53, so every word and mask is a safe JavaScript integer, and
// every engine's 64-bit integers hold them.
import { DAY_MS } from '../../shared/time.ts';
import type { CodeDailyRollupRow } from './rollups.ts';

const WORD_BITS = 50;
const WORDS = 8;
const PERIOD_DAYS = WORD_BITS * WORDS;
const wordColumns = (kind: 'h' | 'b') => Array.from({ length: WORDS }, (_, i) => `${kind}${i}`);
export const DAY_BIT_COLUMNS = [...wordColumns('h'), ...wordColumns('b')];

export interface CodeScanDayRow {
  account_id: string;
  period: number;
  code_id: string;
  /** h0…h7 (human scans) and b0…b7 (bot scans): bit b of word w is the period's day w × WORD_BITS + b. */
  [word: `${'h' | 'b'}${number}`]: number;
}

/** Where a UTC day (epoch milliseconds at its midnight) sits: its period, word and bit. */
function placeOf(dayMs: number): { period: number; word: number; bit: number } {
  const day = Math.floor(dayMs / DAY_MS);
  const inPeriod = day % PERIOD_DAYS;
  return { period: (day - inPeriod) / PERIOD_DAYS, word: Math.floor(inPeriod / WORD_BITS), bit: inPeriod % WORD_BITS };
}

/** A batch's daily code rows as day bits, one row per code and period. */
export function codeScanDayRows(days: readonly CodeDailyRollupRow[]): CodeScanDayRow[] {
  const rows = new Map<string, CodeScanDayRow>();
  for (const d of days) {
    const { period, word, bit } = placeOf(d.day);
    const key = `${d.code_id}|${period}`;
    let row = rows.get(key);
    if (!row) {
      row = { account_id: d.account_id, period, code_id: d.code_id };
      for (const column of DAY_BIT_COLUMNS) row[column as `h${number}`] = 0;
      rows.set(key, row);
    }
    // A batch's daily rows hold a code, day and bot flag once: adding sets the day's bit.
    row[`${d.is_bot ? 'b' : 'h'}${word}`]! += 2 ** bit;
  }
  return [...rows.values()];
}

/**
 * The condition, on a row of code_scan_days aliased `d`, that the code had scans (human ones, or
 * any with `includeBots`) on one of the whole UTC days [fromDay, toDay); and how many periods it
 * spans (over two, a code has a row in each).
 */
export function scannedOnDays(
  fromDay: number,
  toDay: number,
  includeBots: boolean,
): { periods: number; sql: string; bindings: number[] } {
  const masks = new Map<number, number[]>();
  for (let day = fromDay; day < toDay; day += DAY_MS) {
    const { period, word, bit } = placeOf(day);
    const words = masks.get(period) ?? new Array<number>(WORDS).fill(0);
    words[word]! += 2 ** bit;
    masks.set(period, words);
  }
  const bindings: number[] = [];
  const perPeriod = [...masks].map(([period, words]) => {
    bindings.push(period);
    const hits = words.flatMap((mask, w) => {
      if (mask === 0) return [];
      bindings.push(mask);
      return [includeBots ? `((d.h${w} | d.b${w}) & ?) <> 0` : `(d.h${w} & ?) <> 0`];
    });
    return `(d.period = ? AND (${hits.join(' OR ')}))`;
  });
  return { periods: masks.size, sql: `(${perPeriod.join(' OR ')})`, bindings };
}
